package importer

import (
	"archive/tar"
	"bytes"
	"fmt"
	"strings"
	"testing"

	lw "github.com/lawcalc/annealing/lawcore/importer/internal/logwrite"
)

// A gzip file reads as the file it holds, named as the file given.
func TestReadGzip(t *testing.T) {
	events, steps, loss, lr := runEvents(20)
	cases := []struct {
		name, format, curve string
		data                []byte
	}{
		{"curve.csv.gz", FormatCSV, "curve", lw.Gzip(csvExport(steps, loss, lr))},
		{"events.out.tfevents.1700000000.host.gz", FormatTensorBoardEvents, "train/loss", lw.Gzip(lw.EventFile(events...))},
		{"anything", FormatTensorBoardEvents, "train/loss", lw.Gzip(lw.EventFile(events...))},
	}
	// gzip files concatenated are one gzip file (as `cat a.gz b.gz` makes it)
	whole := csvExport(steps, loss, lr)
	half := bytes.IndexByte(whole[len(whole)/2:], '\n') + len(whole)/2 + 1
	cases = append(cases, cases[0])
	cases[len(cases)-1].data = append(lw.Gzip(whole[:half]), lw.Gzip(whole[half:])...)
	for _, c := range cases {
		imp, err := Read(c.name, c.data, Choice{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if imp.Name != c.name || imp.Format != c.format || imp.Curves[0].File != c.name {
			t.Errorf("%s: got %+v", c.name, imp)
		}
		wantCurve(t, imp.Curves[0], c.curve, steps, loss, lr)
	}
	// A TensorBoard download's tag is still read from the name without .gz.
	imp, err := Read("run-a-tag-learning_rate.csv.gz", lw.Gzip([]byte("Wall time,Step,Value\n1,0,0.1\n2,10,0.05\n")), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "run-a-tag-learning_rate", []float64{0, 10}, nil, []float64{0.1, 0.05})
}

// A zip archive reads as a folder: each member that holds a log, its curves named after its
// run, and the members skipped listed with the reason.
func TestReadZip(t *testing.T) {
	events, steps, loss, lr := runEvents(10)
	data := lw.Zip(
		lw.File{Name: "cosine/events.out.tfevents.1700000000.host.1.0", Data: lw.EventFile(events...)},
		lw.File{Name: "wsd/metrics.csv.gz", Data: lw.Gzip([]byte("epoch,step,train_loss,lr-AdamW\n0,10,3.5,1e-3\n0,20,3.25,5e-4\n"))},
		lw.File{Name: "wsd/hparams.yaml", Data: []byte("lr: 0.001\n")},
		lw.File{Name: "__MACOSX/wsd/._metrics.csv.gz", Data: []byte{0, 5, 22, 7}},
		lw.File{Name: "old.zip", Data: lw.Zip(lw.File{Name: "a.csv", Data: []byte("step,loss\n1,2\n")})},
		lw.File{Name: "empty/", Data: nil},
	)
	imp, err := Read("logs.zip", data, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Name != "logs.zip" || imp.Format != FormatZip || len(imp.Curves) != 2 {
		t.Fatalf("got %+v", imp)
	}
	c := imp.Curves[0]
	wantCurve(t, c, "cosine train/loss", steps, loss, lr)
	if c.Run != "cosine" || c.File != "logs.zip/cosine/events.out.tfevents.1700000000.host.1.0" || len(c.Files) != 1 {
		t.Errorf("curve %+v", c)
	}
	wantCurve(t, imp.Curves[1], "wsd train_loss", []float64{10, 20}, []float64{3.5, 3.25}, []float64{1e-3, 5e-4})
	if f := imp.Curves[1].File; f != "logs.zip/wsd/metrics.csv.gz" {
		t.Errorf("file %q", f)
	}
	wantNote(t, imp, "skipped logs.zip/wsd/hparams.yaml: not a log format I know")
	wantNote(t, imp, "skipped logs.zip/__MACOSX/wsd/._metrics.csv.gz: macOS metadata")
	wantNote(t, imp, "skipped logs.zip/old.zip: an archive inside an archive: extract it first")

	// Files at the archive's top are named after themselves, as files given one by one.
	imp, err = Read("two.zip", lw.Zip(lw.File{Name: "a.csv", Data: []byte("step,loss\n1,3\n")}, lw.File{Name: "b.csv", Data: []byte("step,loss\n1,4\n")}), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "a", []float64{1}, []float64{3}, nil)
	wantCurve(t, imp.Curves[1], "b", []float64{1}, []float64{4}, nil)
	if imp.Curves[1].File != "two.zip/b.csv" {
		t.Errorf("file %q", imp.Curves[1].File)
	}
}

// A tar archive, as it is or gzipped (.tar.gz, .tgz), reads as a zip does: a run folder of
// event files and a Lightning log, its macOS metadata and directories left out.
func TestReadTar(t *testing.T) {
	events, steps, loss, lr := runEvents(10)
	data := lw.Tar(
		lw.File{Name: "./runs/"},
		lw.File{Name: "./runs/cosine/events.out.tfevents.1700000000.host.1.0", Data: lw.EventFile(events...)},
		lw.File{Name: "./runs/wsd/metrics.csv", Data: []byte("epoch,step,train_loss,lr-AdamW\n0,10,3.5,1e-3\n0,20,3.25,5e-4\n")},
		lw.File{Name: "./runs/wsd/._metrics.csv", Data: []byte{0, 5, 22, 7}},
	)
	for _, c := range []struct {
		name string
		data []byte
	}{{"runs.tar", data}, {"runs.tgz", lw.Gzip(data)}} {
		imp, err := Read(c.name, c.data, Choice{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if imp.Name != c.name || imp.Format != FormatTar || len(imp.Curves) != 2 {
			t.Fatalf("%s: got %+v", c.name, imp)
		}
		wantCurve(t, imp.Curves[0], "cosine train/loss", steps, loss, lr)
		if f := imp.Curves[0].File; f != c.name+"/runs/cosine/events.out.tfevents.1700000000.host.1.0" {
			t.Errorf("%s: file %q", c.name, f)
		}
		wantCurve(t, imp.Curves[1], "wsd train_loss", []float64{10, 20}, []float64{3.5, 3.25}, []float64{1e-3, 5e-4})
		wantNote(t, imp, "skipped "+c.name+"/runs/wsd/._metrics.csv: macOS metadata")
	}
	// Given in a folder, a tar.gz opens as a zip does; its damage after a member keeps what came before.
	cut := lw.Tar(lw.File{Name: "a.csv", Data: []byte("step,loss\n1,3\n")}, lw.File{Name: "b.csv", Data: bytes.Repeat([]byte("1,2\n"), 300)})
	imp, err := ReadFiles([]File{{Path: "logs/x.tar.gz", Data: lw.Gzip(cut[:len(cut)-1500])}}, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "x.tar.gz loss", []float64{1}, []float64{3}, nil)
	wantNote(t, imp, "x.tar.gz/b.csv: corrupt: it is cut short")
}

// Archives that expand past the limits, or hold nothing to read, are refused naming the file.
func TestReadArchiveErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 513 MB")
	}
	var tarball bytes.Buffer
	tw := tar.NewWriter(&tarball)
	tw.WriteHeader(&tar.Header{Name: "a.csv", Size: 14, Mode: 0o644})
	tw.Write([]byte("step,loss\n1,2\n"))
	tw.Close()
	badCRC := lw.Zip(lw.File{Name: "a.csv", Data: []byte("step,loss\n1,2\n2,1\n")})
	badCRC[bytes.Index(badCRC, []byte("PK\x01\x02"))+16] ^= 1 // the central directory's CRC
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"bomb.csv.gz", lw.GzipBomb(513), "bomb.csv.gz: the gzip file expands past 512 MB: decompress it and thin the curve first"},
		{"bomb.zip", lw.ZipBomb("loss.csv", 513, true), "bomb.zip: the archive holds no log I can read: bomb.zip/loss.csv: the member expands past 512 MB: extract it and thin the curve first"},
		{"liar.zip", lw.ZipBomb("loss.csv", 2, false), "liar.zip: the archive holds no log I can read: liar.zip/loss.csv: corrupt: it expands past the size the archive declares for it"},
		{"crc.zip", badCRC, "crc.zip: the archive holds no log I can read: crc.zip/a.csv: corrupt: its checksum does not match"},
		{"empty.zip", lw.Zip(), "empty.zip: the zip archive is empty"},
		{"dirs.zip", lw.Zip(lw.File{Name: "a/"}, lw.File{Name: "a/b/"}), "dirs.zip: the zip archive is empty"},
		{"junk.zip", lw.Zip(lw.File{Name: "a.png", Data: []byte("\x89PNG\r\n\x1a\n\x00")}, lw.File{Name: "b.txt", Data: []byte("hello\n")}),
			"junk.zip: the archive holds no log I can read: junk.zip/a.png: a binary file, not a log; junk.zip/b.txt: not a log format I know"},
		{"broken.zip", []byte("PK\x03\x04 this is not really a zip archive"), "broken.zip: not a valid zip archive"},
		{"twice.gz", lw.Gzip(lw.Gzip([]byte("step,loss\n1,2\n"))), "twice.gz: a gzip file inside a gzip file: decompress it first"},
		{"cut.gz", lw.Gzip([]byte(strings.Repeat("step,loss\n1,2\n", 100)))[:40], "cut.gz: the gzip file is cut short"},
		{"junk.gz", append(lw.Gzip([]byte("step,loss\n1,2\n")), "JUNKJUNK"...),
			fmt.Sprintf("junk.gz: the gzip data ends at byte %d, and the 8 bytes after it are not gzip: the file is damaged, or something was appended to it", len(lw.Gzip([]byte("step,loss\n1,2\n"))))},
		{"junk2.gz", append(lw.Gzip([]byte("step,loss\n1,2\n")), lw.Gzip([]byte("2,1\n"))[:5]...), "junk2.gz: the gzip file is cut short"},
		{"empty.tar", lw.Tar(lw.File{Name: "a/"}), "empty.tar: the tar archive is empty"},
		{"cut.tar.gz", lw.Gzip(tarball.Bytes()[:520]), "cut.tar.gz: the archive holds no log I can read: cut.tar.gz/a.csv: corrupt: it is cut short"},
		{"logs.tar.zip", lw.Zip(lw.File{Name: "logs.tar", Data: tarball.Bytes()}), "logs.tar.zip: the archive holds no log I can read: logs.tar.zip/logs.tar: an archive inside an archive: extract it first"},
		{"empty.gz", lw.Gzip(nil), "empty.gz: the file is empty"},
	}
	for _, c := range cases {
		_, err := Read(c.name, c.data, Choice{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s", c.name, err, c.want)
		}
	}
}

// What one call decompresses is bounded over all its files: a member past what is left is
// skipped.
func TestExpanderBudget(t *testing.T) {
	ex := &expander{left: 30}
	data := lw.Zip(lw.File{Name: "a.csv", Data: []byte("step,loss\n1,3\n2,2.5\n")}, lw.File{Name: "b.csv", Data: []byte("step,loss\n1,3\n2,2.5\n")})
	files, skipped, err := ex.unzip("x.zip", "x.zip", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || len(skipped) != 1 || !strings.Contains(skipped[0].reason, "with the files decompressed before it") {
		t.Errorf("files %v, skipped %v", files, skipped)
	}
	if _, err := ex.gunzip("y.gz", lw.Gzip([]byte("step,loss\n1,3\n2,2.5\n"))); err == nil || !strings.Contains(err.Error(), "y.gz: the gzip file expands past 512 MB, with the files decompressed before it") {
		t.Errorf("gunzip past the budget: %v", err)
	}
}

// The bombs of the tests are what they claim: small, and expanding to their size.
func TestBombsExpand(t *testing.T) {
	ex := &expander{left: MaxBytes}
	out, err := ex.gunzip("b.gz", lw.GzipBomb(3))
	if err != nil || len(out) != 3<<20 || bytes.IndexFunc(out, func(r rune) bool { return r != 0 }) >= 0 {
		t.Errorf("gzip bomb: %d bytes, %v", len(out), err)
	}
	files, skipped, err := ex.unzip("b.zip", "b.zip", lw.ZipBomb("z", 3, true))
	if err != nil || len(skipped) != 0 || len(files) != 1 || len(files[0].Data) != 3<<20 {
		t.Errorf("zip bomb: %v %v", skipped, err)
	}
	if n := len(lw.ZipBomb("z", 513, true)); n > 1<<20 {
		t.Errorf("the zip bomb is %d bytes", n)
	}
}
