package importer

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/lawcalc/annealing/lawcore/input"
)

// A TensorBoard event file is a TFRecord file: records one after another, each
//
//	uint64 length (little-endian)
//	uint32 masked CRC-32C of the 8 length bytes
//	length bytes of data
//	uint32 masked CRC-32C of the data
//
// where a CRC-32C c is masked as ((c >> 15) | (c << 17)) + 0xa282ead8. A file is recognised
// as TFRecord by its first record's length checksum, whatever its name.
//
// A writer appends records as training goes on, so a log copied while its run was still
// writing may end inside its last record. That record is left out with a note and the complete
// records before it are read; a file cut inside its first record has nothing to read and is
// an error. A checksum that does not match is an error naming the record: the file is
// corrupt.

// tfRecordHeader and tfRecordFooter are the sizes of the framing around a record's data.
const (
	tfRecordHeader = 12
	tfRecordFooter = 4
)

// castagnoli is the CRC-32C table.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maskedCRC is the masked CRC-32C TFRecord stores.
func maskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return (c>>15 | c<<17) + 0xa282ead8
}

// isTFRecord reports whether data starts with a TFRecord header whose length checksum matches.
func isTFRecord(data []byte) bool {
	return len(data) >= tfRecordHeader && binary.LittleEndian.Uint32(data[8:12]) == maskedCRC(data[:8])
}

// tfRecordReader reads the records of a TFRecord file held in memory.
type tfRecordReader struct {
	where string
	data  []byte
	off   int // the offset of the next record
	n     int // the number of the last record read (or begun), from 1
	start int // its offset
}

// cutRecord reports a file that ends inside a record.
type cutRecord struct {
	record, offset int // the record's number (from 1) and offset
	have, want     int // the bytes the file holds from the record's start, and the record's size
}

func (c *cutRecord) Error() string {
	if c.want == 0 {
		return fmt.Sprintf("record %d (byte %d) is cut short: the file ends %d bytes into its %d-byte header", c.record, c.offset, c.have, tfRecordHeader)
	}
	return fmt.Sprintf("record %d (byte %d) is cut short: the file ends %d bytes into its %d", c.record, c.offset, c.have, c.want)
}

// next returns the data of the next record (a slice of the file's bytes). At the end of the
// file it returns io.EOF; in a record cut short, a *cutRecord; in a record whose checksum does
// not match, an *input.Error naming the record.
func (r *tfRecordReader) next() ([]byte, error) {
	rest := r.data[r.off:]
	if len(rest) == 0 {
		return nil, io.EOF
	}
	r.n, r.start = r.n+1, r.off
	if len(rest) < tfRecordHeader {
		return nil, &cutRecord{record: r.n, offset: r.off, have: len(rest)}
	}
	if binary.LittleEndian.Uint32(rest[8:12]) != maskedCRC(rest[:8]) {
		return nil, r.corrupt("the length's checksum does not match: the file is corrupt")
	}
	length := binary.LittleEndian.Uint64(rest[:8])
	if avail := len(rest) - tfRecordHeader - tfRecordFooter; avail < 0 || length > uint64(avail) {
		want := uint64(tfRecordHeader+tfRecordFooter) + min(length, 1<<62)
		return nil, &cutRecord{record: r.n, offset: r.off, have: len(rest), want: int(min(want, uint64(maxInt)))}
	}
	end := tfRecordHeader + int(length)
	data := rest[tfRecordHeader:end]
	if binary.LittleEndian.Uint32(rest[end:end+tfRecordFooter]) != maskedCRC(data) {
		return nil, r.corrupt("the data's checksum does not match: the file is corrupt")
	}
	r.off += end + tfRecordFooter
	return data, nil
}

// maxInt is the largest int.
const maxInt = int(^uint(0) >> 1)

// corrupt is an error in the record last read (or begun).
func (r *tfRecordReader) corrupt(msg string) error {
	return input.Errorf(r.where, r.place(), "%s", msg)
}

// place names the record last read (or begun): "record 17 (byte 2048)".
func (r *tfRecordReader) place() string {
	return fmt.Sprintf("record %d (byte %d)", r.n, r.start)
}
