// Package logwrite writes logs in the raw formats the importer reads, for its tests, its fuzz
// seeds and the bad-input corpus: TensorBoard event files (TFRecord framing around Event
// protobufs, encoded with protowire as TensorFlow, PyTorch and tensorboardX encode them), gzip
// files and zip archives, and the gzip and zip bombs a calculator must refuse.
package logwrite

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"hash/crc32"
	"math"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Kind is how a scalar is encoded in a Summary.Value.
type Kind int

const (
	// SimpleValue is a float in simple_value (TensorFlow 1, PyTorch, tensorboardX).
	SimpleValue Kind = iota
	// TensorDouble is a rank-0 DT_DOUBLE tensor, the value in double_val.
	TensorDouble
	// TensorFloat is a rank-0 DT_FLOAT tensor, the value in float_val (TensorFlow 2's
	// tf.summary.scalar).
	TensorFloat
	// TensorFloatContent is a rank-0 DT_FLOAT tensor, the value in tensor_content.
	TensorFloatContent
	// TensorDoubleContent is a rank-0 DT_DOUBLE tensor, the value in tensor_content.
	TensorDoubleContent
	// Histogram is a histogram (histo), not a scalar.
	Histogram
	// HParams is a rank-0 double tensor whose metadata names the hparams plugin: not a scalar.
	HParams
)

// Scalar is one value of a summary.
type Scalar struct {
	Tag   string
	Value float64
	As    Kind
}

// Record frames data as a TFRecord: length, masked CRC-32C of the length, data, masked
// CRC-32C of the data.
func Record(data []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(data)))
	out = binary.LittleEndian.AppendUint32(out, MaskedCRC(out))
	out = append(out, data...)
	return binary.LittleEndian.AppendUint32(out, MaskedCRC(data))
}

// MaskedCRC is TFRecord's masked CRC-32C.
func MaskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))
	return (c>>15 | c<<17) + 0xa282ead8
}

// FileVersion is the Event every event file starts with: file_version "brain.Event:2".
func FileVersion() []byte {
	b := protowire.AppendTag(nil, 1, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(1.7e9))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendString(b, "brain.Event:2")
}

// Event encodes an Event at step holding the scalars in its summary.
func Event(step int64, scalars ...Scalar) []byte {
	b := protowire.AppendTag(nil, 1, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(1.7e9+float64(step)))
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(step))
	var summary []byte
	for _, s := range scalars {
		summary = protowire.AppendTag(summary, 1, protowire.BytesType)
		summary = protowire.AppendBytes(summary, value(s))
	}
	b = protowire.AppendTag(b, 5, protowire.BytesType)
	return protowire.AppendBytes(b, summary)
}

// value encodes a Summary.Value.
func value(s Scalar) []byte {
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	b = protowire.AppendString(b, s.Tag)
	switch s.As {
	case SimpleValue:
		b = protowire.AppendTag(b, 2, protowire.Fixed32Type)
		return protowire.AppendFixed32(b, math.Float32bits(float32(s.Value)))
	case Histogram:
		var h []byte
		for field, v := range []float64{s.Value, s.Value, 1, s.Value, s.Value * s.Value} {
			h = protowire.AppendTag(h, protowire.Number(field+1), protowire.Fixed64Type)
			h = protowire.AppendFixed64(h, math.Float64bits(v))
		}
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		return protowire.AppendBytes(b, h)
	case HParams:
		b = protowire.AppendTag(b, 9, protowire.BytesType)
		b = protowire.AppendBytes(b, metadata("hparams"))
	default:
		b = protowire.AppendTag(b, 9, protowire.BytesType)
		b = protowire.AppendBytes(b, metadata("scalars"))
	}
	b = protowire.AppendTag(b, 8, protowire.BytesType)
	return protowire.AppendBytes(b, tensor(s))
}

// metadata encodes a SummaryMetadata naming a plugin.
func metadata(plugin string) []byte {
	pd := protowire.AppendTag(nil, 1, protowire.BytesType)
	pd = protowire.AppendString(pd, plugin)
	m := protowire.AppendTag(nil, 1, protowire.BytesType)
	return protowire.AppendBytes(m, pd)
}

// tensor encodes a rank-0 TensorProto (its shape present and empty, as TensorFlow writes it).
func tensor(s Scalar) []byte {
	dtype := uint64(2) // DT_DOUBLE
	if s.As == TensorFloat || s.As == TensorFloatContent {
		dtype = 1 // DT_FLOAT
	}
	b := protowire.AppendTag(nil, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, dtype)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, nil)
	switch s.As {
	case TensorFloat:
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(s.Value))))
	case TensorFloatContent:
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendBytes(b, binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(s.Value))))
	case TensorDoubleContent:
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendBytes(b, binary.LittleEndian.AppendUint64(nil, math.Float64bits(s.Value)))
	default:
		b = protowire.AppendTag(b, 6, protowire.BytesType)
		b = protowire.AppendBytes(b, binary.LittleEndian.AppendUint64(nil, math.Float64bits(s.Value)))
	}
	return b
}

// EventFile frames the file-version event and then events into an event file.
func EventFile(events ...[]byte) []byte {
	out := Record(FileVersion())
	for _, e := range events {
		out = append(out, Record(e)...)
	}
	return out
}

// Gzip compresses data as one gzip member.
func Gzip(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// File is a member of a zip archive.
type File struct {
	Name string
	Data []byte
}

// Zip archives the files, deflated.
func Zip(files ...File) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, f := range files {
		fw, err := w.Create(f.Name)
		if err != nil {
			panic(err)
		}
		fw.Write(f.Data)
	}
	w.Close()
	return b.Bytes()
}

// Tar is a tar archive of files (a name ending in / is a directory).
func Tar(files ...File) []byte {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for _, f := range files {
		h := &tar.Header{Name: f.Name, Size: int64(len(f.Data)), Mode: 0o644, Typeflag: tar.TypeReg}
		if strings.HasSuffix(f.Name, "/") {
			h.Typeflag, h.Size, h.Mode = tar.TypeDir, 0, 0o755
		}
		if err := w.WriteHeader(h); err != nil {
			panic(err)
		}
		w.Write(f.Data)
	}
	w.Close()
	return b.Bytes()
}

// bombChunk is the zeros one repeated piece of a bomb expands to.
const bombChunk = 1 << 20

// GzipBomb is a gzip file, small, that expands to mb megabytes of zeros: one member of a
// megabyte of zeros, repeated (a gzip file may hold several members, read one after another).
func GzipBomb(mb int) []byte {
	return bytes.Repeat(Gzip(make([]byte, bombChunk)), mb)
}

// ZipBomb is a zip archive of one member, name, that expands to mb megabytes of zeros. Its
// header declares that size when honest is true, and a kilobyte when it lies.
func ZipBomb(name string, mb int, honest bool) []byte {
	crc := crc32.NewIEEE()
	zeros := make([]byte, bombChunk)
	for range mb {
		crc.Write(zeros)
	}
	raw := deflatedZeros(mb)
	size := uint64(mb) * bombChunk
	if !honest {
		size = 1 << 10
	}
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	fw, err := w.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc.Sum32(),
		CompressedSize64: uint64(len(raw)), UncompressedSize64: size})
	if err != nil {
		panic(err)
	}
	fw.Write(raw)
	w.Close()
	return b.Bytes()
}

// deflatedZeros is a raw deflate stream of mb megabytes of zeros, built by repeating the
// blocks of one megabyte (each ends on a byte boundary, after a sync flush, and refers back
// only to zeros) and closing the stream with a final empty block.
func deflatedZeros(mb int) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(make([]byte, bombChunk))
	w.Flush()
	chunk := append([]byte(nil), b.Bytes()...)
	b.Reset()
	w.Close()
	return append(bytes.Repeat(chunk, mb), b.Bytes()...)
}
