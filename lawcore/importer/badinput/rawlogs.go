package badinput

import (
	"archive/tar"
	"bytes"
	"encoding/binary"
	"fmt"

	lw "github.com/lawcalc/annealing/lawcore/importer/internal/logwrite"
)

// rawLogs are the bad files of the raw-log formats: TensorBoard event files, gzip files and
// zip archives, MLflow metric files and Lightning's metrics.csv.
func rawLogs() []File {
	events := eventFile()
	third := recordOffset(events, 3)
	corruptData := flip(events, third+14)  // a byte of record 3's data
	corruptLength := flip(events, third+2) // a byte of record 3's length
	notEvents := []byte("\x17\x00\x00\x00\x00\x00\x00\x00garbage, not a TFRecord")
	return []File{
		{Name: "events.out.tfevents.1700000000.corrupt-data", Data: corruptData,
			Want: fmt.Sprintf("record 3 (byte %d): the data's checksum does not match: the file is corrupt", third)},
		{Name: "events.out.tfevents.1700000000.corrupt-length", Data: corruptLength,
			Want: fmt.Sprintf("record 3 (byte %d): the length's checksum does not match: the file is corrupt", third)},
		{Name: "events.out.tfevents.1700000000.cut-short", Data: events[:30],
			Want: "record 1 (byte 0): the file ends 30 bytes into its first record"},
		{Name: "events.out.tfevents.1700000000.not-tfrecord", Data: notEvents,
			Want: "named like a TensorBoard event file, but the checksum of its first record's length does not match"},
		{Name: "events.out.tfevents.1700000000.histograms-only", Data: lw.EventFile(lw.Event(1, lw.Scalar{Tag: "weights", Value: 1, As: lw.Histogram})),
			Want: "an event file with no scalars"},
		{Name: "events.out.tfevents.1700000000.negative-step", Data: lw.EventFile(lw.Event(-3, lw.Scalar{Tag: "loss", Value: 1})),
			Want: "record 2, step: a step must be a whole number, zero or more, got -3"},
		{Name: "events-not-protobuf.tfevents", Data: lw.EventFile([]byte{0x12, 0x01}),
			Want: "record 2 (byte 40): not a TensorBoard event"},
		{Name: "zip-bomb.zip", Data: lw.ZipBomb("loss.csv", 513, true), Want: "expands past 512 MB"},
		{Name: "zip-bomb-lying.zip", Data: lw.ZipBomb("loss.csv", 2, false), Want: "expands past the size the archive declares for it"},
		{Name: "gzip-bomb.csv.gz", Data: lw.GzipBomb(513), Want: "expands past 512 MB"},
		{Name: "empty.zip", Data: lw.Zip(), Want: "the zip archive is empty"},
		{Name: "folders-only.zip", Data: lw.Zip(lw.File{Name: "runs/"}, lw.File{Name: "runs/a/"}), Want: "the zip archive is empty"},
		{Name: "nothing-readable.zip", Data: lw.Zip(lw.File{Name: "notes.txt", Data: []byte("hello\n")}, lw.File{Name: "model.ckpt", Data: []byte{0, 1, 2, 3}}),
			Want: "the archive holds no log I can read"},
		{Name: "corrupt-member.zip", Data: lw.Zip(lw.File{Name: "run/events.out.tfevents.1.h", Data: corruptData}),
			Want: fmt.Sprintf("record 3 (byte %d): the data's checksum does not match", third)},
		{Name: "zip-in-zip.zip", Data: lw.Zip(lw.File{Name: "inner.zip", Data: lw.Zip(lw.File{Name: "a.csv", Data: []byte("step,loss\n1,2\n")})}),
			Want: "an archive inside an archive"},
		{Name: "not-really.zip", Data: []byte("PK\x03\x04 not a zip archive after all"), Want: "not a valid zip archive"},
		{Name: "gzip-in-gzip.csv.gz.gz", Data: lw.Gzip(lw.Gzip([]byte("step,loss\n1,2\n"))), Want: "a gzip file inside a gzip file"},
		{Name: "cut-short.csv.gz", Data: lw.Gzip(bytes.Repeat([]byte("step,loss\n1,2\n"), 50))[:30], Want: "the gzip file is cut short"},
		{Name: "logs-cut-short.tar.gz", Data: lw.Gzip(tarball()[:520]), Want: "logs-cut-short.tar.gz/a.csv: corrupt: it is cut short"},
		{Name: "loss", Data: []byte("1700000000000 3.5 10\n1700000000100 3.4\n"), Want: "line 2"},
		{Name: "val_loss", Data: []byte("1700000000000 3.5 10\n1700000000100 3.4 20.5\n"), Want: "line 2, step"},
		{Name: "train_loss", Data: []byte("1700000000000 -3.5 10\n1700000000100 0 20\n"), Want: "no loss values"},
		{Name: "lightning-negative-loss.csv", Data: []byte("epoch,step,train_loss,lr-AdamW\n0,10,-1,0.1\n0,20,0,0.1\n"), Want: "no loss values"},
	}
}

// eventFile is a small valid event file: the file version and three events.
func eventFile() []byte {
	var events [][]byte
	for i := range 3 {
		events = append(events, lw.Event(int64(10*i), lw.Scalar{Tag: "loss", Value: 4 - float64(i)},
			lw.Scalar{Tag: "lr", Value: 1e-3, As: lw.TensorDouble}))
	}
	return lw.EventFile(events...)
}

// recordOffset is the offset of record n (from 1) of a TFRecord file.
func recordOffset(data []byte, n int) int {
	off := 0
	for range n - 1 {
		off += 16 + int(binary.LittleEndian.Uint64(data[off:]))
	}
	return off
}

// flip returns a copy of data with one bit of the byte at i flipped.
func flip(data []byte, i int) []byte {
	out := append([]byte(nil), data...)
	out[i] ^= 0x40
	return out
}

// tarball is a tar archive of one CSV file.
func tarball() []byte {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	csv := []byte("step,loss\n1,2\n")
	w.WriteHeader(&tar.Header{Name: "a.csv", Size: int64(len(csv)), Mode: 0o644})
	w.Write(csv)
	w.Close()
	return b.Bytes()
}
