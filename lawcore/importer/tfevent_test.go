package importer

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	lw "github.com/lawcalc/annealing/lawcore/importer/internal/logwrite"
)

// runEvents is a run as PyTorch's SummaryWriter and TensorFlow 2 log it: the loss as a
// simple_value (a float) and the learning rate as a rank-0 double tensor, at steps 0, 10, ...
func runEvents(n int) (events [][]byte, steps, loss, lr []float64) {
	for i := range n {
		step := float64(10 * i)
		l := 2 + 8/(1+step/100)
		r := 3e-4 * math.Cos(math.Pi/2*step/float64(10*n))
		events = append(events, lw.Event(int64(step),
			lw.Scalar{Tag: "train/loss", Value: l},
			lw.Scalar{Tag: "train/learning_rate", Value: r, As: lw.TensorDouble}))
		steps, loss, lr = append(steps, step), append(loss, float64(float32(l))), append(lr, r)
	}
	return events, steps, loss, lr
}

// csvExport writes the curve as the CSV a user would export from the same run.
func csvExport(steps, loss, lr []float64) []byte {
	var b strings.Builder
	b.WriteString("step,loss,lr\n")
	for i := range steps {
		fmt.Fprintf(&b, "%s,%s,%s\n", strconv.FormatFloat(steps[i], 'g', -1, 64),
			strconv.FormatFloat(loss[i], 'g', -1, 64), strconv.FormatFloat(lr[i], 'g', -1, 64))
	}
	return []byte(b.String())
}

// An event file imports to the same curve and schedule as its CSV export.
func TestReadEventFileMatchesCSVExport(t *testing.T) {
	events, steps, loss, lr := runEvents(50)
	imp, err := Read("events.out.tfevents.1700000000.host.123.0", lw.EventFile(events...), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Format != FormatTensorBoardEvents || len(imp.Curves) != 1 || len(imp.Notes) != 0 {
		t.Fatalf("got %+v", imp)
	}
	c := imp.Curves[0]
	wantCurve(t, c, "train/loss", steps, loss, lr)
	if c.Source != (Source{Step: "step", Loss: "train/loss", LR: "train/learning_rate"}) {
		t.Errorf("source %+v", c.Source)
	}
	csv, err := Read("export.csv", csvExport(steps, loss, lr), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	e := csv.Curves[0]
	if !equalFloats(c.Steps, e.Steps) || !equalFloats(c.Loss, e.Loss) || !equalFloats(c.LR, e.LR) {
		t.Errorf("event file and CSV export differ:\n%v %v %v\n%v %v %v", c.Steps, c.Loss, c.LR, e.Steps, e.Loss, e.LR)
	}
}

// Each way a writer encodes a scalar reads as the same number.
func TestReadEventFileScalarEncodings(t *testing.T) {
	cases := []struct {
		kind lw.Kind
		want float64
	}{
		{lw.SimpleValue, float64(float32(0.1))},
		{lw.TensorFloat, float64(float32(0.1))},
		{lw.TensorFloatContent, float64(float32(0.1))},
		{lw.TensorDouble, 0.1},
		{lw.TensorDoubleContent, 0.1},
	}
	for _, c := range cases {
		data := lw.EventFile(lw.Event(5, lw.Scalar{Tag: "loss", Value: 0.1, As: c.kind}))
		imp, err := Read("e", data, Choice{})
		if err != nil {
			t.Errorf("kind %d: %v", c.kind, err)
			continue
		}
		wantCurve(t, imp.Curves[0], "loss", []float64{5}, []float64{c.want}, nil)
	}
}

func TestReadEventFileTags(t *testing.T) {
	twoLosses := lw.EventFile(
		lw.Event(1, lw.Scalar{Tag: "train/loss", Value: 4}, lw.Scalar{Tag: "lr", Value: 1e-3}),
		lw.Event(2, lw.Scalar{Tag: "train/loss", Value: 3}, lw.Scalar{Tag: "eval/loss", Value: 3.5, As: lw.TensorFloat}, lw.Scalar{Tag: "lr", Value: 5e-4}),
		lw.Event(2, lw.Scalar{Tag: "grad_norm", Value: 1}, lw.Scalar{Tag: "weights", Value: 1, As: lw.Histogram}, lw.Scalar{Tag: "hp", Value: 1, As: lw.HParams}),
	)
	imp, err := Read("e", twoLosses, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	// eval/loss, of one point, is no curve to fit: train/loss is read without a question
	if imp.Ambiguity != nil || imp.Curves[0].Metric != "train/loss" || imp.Loss == nil {
		t.Fatalf("got %+v", imp)
	}
	wantOptions(t, "columns", imp.Loss.Candidates, "train/loss", 2, "eval/loss", 1)
	if o := imp.Loss.Candidates[1]; o.Kind != "validation" || !o.Summary {
		t.Errorf("eval/loss %+v", o)
	}
	imp, err = Read("e", twoLosses, Choice{Column: "eval/loss"})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "eval/loss", []float64{2}, []float64{float64(float32(3.5))}, []float64{float64(float32(5e-4))})
	// Any scalar tag may be chosen; histograms and hparams tensors are not scalars.
	imp, err = Read("e", twoLosses, Choice{Column: "grad_norm"})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "grad_norm", []float64{2}, []float64{1}, []float64{float64(float32(5e-4))})
	for _, tag := range []string{"weights", "hp"} {
		if _, err := Read("e", twoLosses, Choice{Column: tag}); err == nil || !strings.Contains(err.Error(), `no column "`+tag+`"`) {
			t.Errorf("%s: %v", tag, err)
		}
	}
}

// A job restarted from a checkpoint logs again from a step it had logged: what the earlier run
// logged from there on is dropped, as TensorBoard drops it, even past where the restarted run
// stopped (a value of an abandoned run is no point of the run that goes on); a value filed late
// alone takes its place. In a run's folder, an event file that starts at or before the steps
// of the files before it is such a restart too, at whatever step it starts, and one that starts
// after them goes on from them.
func TestReadEventFileRestart(t *testing.T) {
	ev := func(step int64, v float64) []byte { return lw.Event(step, lw.Scalar{Tag: "loss", Value: v}) }
	data := lw.EventFile(ev(10, 4), ev(20, 3.5), ev(30, 3.25), ev(40, 3.125), ev(20, 3.75), ev(30, 3), ev(5, 4.5))
	imp, err := Read("e", data, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "loss", []float64{5, 10, 20, 30}, []float64{4.5, 4, 3.75, 3}, nil)
	wantNote(t, imp, `"loss": the run restarted at step 20 (record 6, after step 40): the 3 values the earlier run logged from there on are dropped, as TensorBoard drops them`)
	wantNote(t, imp, `"loss": 1 step was logged after later steps (the first at record 8: step 5 after step 30): put in step order`)

	first := lw.EventFile(ev(10, 4), ev(20, 3.5), ev(30, 3.25), ev(40, 3.125))
	for _, c := range []struct {
		second      []byte
		steps, loss []float64
		note        string
	}{
		{lw.EventFile(ev(25, 3.375), ev(35, 3.1875)), []float64{10, 20, 25, 35}, []float64{4, 3.5, 3.375, 3.1875},
			`run: "loss": the run restarted at step 25 (record 2 of run/events.out.tfevents.2.h, after step 40): the 2 values the earlier run logged from there on are dropped`},
		{lw.EventFile(ev(50, 3)), []float64{10, 20, 30, 40, 50}, []float64{4, 3.5, 3.25, 3.125, 3}, ""},
	} {
		imp, err := ReadFiles([]File{{Path: "run/events.out.tfevents.1.h", Data: first}, {Path: "run/events.out.tfevents.2.h", Data: c.second}}, Choice{})
		if err != nil {
			t.Fatal(err)
		}
		wantCurve(t, imp.Curves[0], "run loss", c.steps, c.loss, nil)
		if c.note != "" {
			wantNote(t, imp, c.note)
		} else if len(imp.Notes) != 0 {
			t.Errorf("a file that goes on: notes %q", imp.Notes)
		}
	}
	// Zipped without their directory, a run's event files are still one run: the archive's.
	zipped := lw.Zip(lw.File{Name: "events.out.tfevents.1.h", Data: first}, lw.File{Name: "events.out.tfevents.2.h", Data: lw.EventFile(ev(50, 3))})
	imp, err = Read("run.zip", zipped, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Curves) != 1 {
		t.Fatalf("%d curves: %+v", len(imp.Curves), imp.Curves)
	}
	wantCurve(t, imp.Curves[0], "run loss", []float64{10, 20, 30, 40, 50}, []float64{4, 3.5, 3.25, 3.125, 3}, nil)
}

// A log copied while its run was writing it ends inside a record: the complete records are
// read, with a note. A checksum that does not match names the record.
func TestReadEventFileDamage(t *testing.T) {
	events, _, _, _ := runEvents(3)
	data := lw.EventFile(events...)
	recordAt := func(n int) int { // the offset of record n (from 1)
		off := 0
		for range n - 1 {
			off += 16 + int(binary.LittleEndian.Uint64(data[off:]))
		}
		return off
	}
	last := recordAt(4)
	flip := func(at int) []byte {
		b := append([]byte(nil), data...)
		b[at] ^= 0x40
		return b
	}
	cases := []struct {
		name string
		data []byte
		want string // the error, or a note when the file reads
		note bool
	}{
		{"cut in the last record's data", data[:len(data)-7], fmt.Sprintf("record 4 (byte %d) is cut short: the file ends %d bytes into its %d, as when a log is copied while its run is writing it: that record is left out, and the 3 complete records before it are read",
			last, len(data)-7-last, len(data)-last), true},
		{"cut in the last record's header", data[:last+5], fmt.Sprintf("record 4 (byte %d) is cut short: the file ends 5 bytes into its 12-byte header", last), true},
		{"cut in the last record's footer", data[:len(data)-2], "record 4", true},
		{"cut in the footer of a last record of no data", append(append([]byte(nil), data...), lw.Record(nil)[:14]...), "record 5", true},
		{"cut in the first record", data[:20], "e: record 1 (byte 0): the file ends 20 bytes into its first record: the event file is cut short and holds no complete record", false},
		{"data checksum", flip(recordAt(3) + 14), fmt.Sprintf("e: record 3 (byte %d): the data's checksum does not match: the file is corrupt", recordAt(3)), false},
		{"length checksum", flip(recordAt(2) + 9), fmt.Sprintf("e: record 2 (byte %d): the length's checksum does not match: the file is corrupt", recordAt(2)), false},
		{"stored data checksum", flip(recordAt(3) - 1), fmt.Sprintf("e: record 2 (byte %d): the data's checksum does not match", recordAt(2)), false},
	}
	for _, c := range cases {
		imp, err := Read("e", c.data, Choice{})
		switch {
		case c.note && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.note:
			wantNote(t, imp, c.want)
			if n := imp.Curves[0].Points; n < 2 {
				t.Errorf("%s: %d points", c.name, n)
			}
		case err == nil || !strings.HasPrefix(err.Error(), c.want):
			t.Errorf("%s: got %v, want %s", c.name, err, c.want)
		}
	}
}

// Event files are recognised by their framing, whatever their name; files that are not
// say so.
func TestReadEventFileErrors(t *testing.T) {
	histograms := lw.EventFile(lw.Event(1, lw.Scalar{Tag: "weights", Value: 1, As: lw.Histogram}))
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"events.out.tfevents.1.h", []byte("\x17\x00\x00\x00\x00\x00\x00\x00garbage garbage"), "events.out.tfevents.1.h: named like a TensorBoard event file, but the checksum of its first record's length does not match"},
		{"x.bin", []byte("\x17\x00\x00\x00\x00\x00\x00\x00garbage garbage"), "x.bin: this is a binary file"},
		// a copy taken just as the writer began: its first record's length, and not its checksum
		{"events.out.tfevents.2.h", []byte("\x17\x00\x00\x00\x00\x00\x00\x00"), "events.out.tfevents.2.h: named like a TensorBoard event file, but it ends after 8 byte(s), inside its first record's 12-byte header: it was cut short"},
		{"e", histograms, `e: an event file with no scalars: its 2 records hold only histograms, images, text or other tensors (tags "weights")`},
		{"e", lw.EventFile(), "e: an event file with no scalars: its 1 record holds no summary values"},
		{"e", lw.EventFile([]byte{0x12, 0x01}), "e: record 2 (byte 40): not a TensorBoard event: unexpected EOF"},
		{"e", lw.EventFile(lw.Event(-5, lw.Scalar{Tag: "loss", Value: 1})), "e: record 2, step: a step must be a whole number, zero or more, got -5"},
		{"e", lw.EventFile(lw.Event(1, lw.Scalar{Tag: "accuracy", Value: 1})), ""}, // an ambiguity: choose the loss
		{"e", lw.EventFile(lw.Event(1, manyLosses(maxSeries+1)...)),
			`e: more than 4096 series (one per metric and run): "loss_4096" would be number 4097, and one file may hold 4096; keep fewer metrics or runs in it`},
	}
	for _, c := range cases {
		imp, err := Read(c.name, c.data, Choice{})
		wantRefused(t, c.name, imp, err, c.want)
	}
	data := lw.EventFile(lw.Event(3, lw.Scalar{Tag: "loss", Value: 2}))
	imp, err := Read("run.log", data, Choice{})
	if err != nil || imp.Format != FormatTensorBoardEvents {
		t.Errorf("by content: %v %v", imp, err)
	}
}

// manyLosses are n scalars named loss_0, loss_1, ...
func manyLosses(n int) []lw.Scalar {
	out := make([]lw.Scalar, n)
	for i := range out {
		out[i] = lw.Scalar{Tag: fmt.Sprintf("loss_%d", i), Value: 3}
	}
	return out
}

// BenchmarkReadEventFile reads an event file of 100,000 scalars: 50,000 events, each with a
// loss (simple_value) and a learning rate (a double tensor).
func BenchmarkReadEventFile(b *testing.B) {
	events, _, _, _ := runEvents(50_000)
	data := lw.EventFile(events...)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read("e", data, Choice{}); err != nil {
			b.Fatal(err)
		}
	}
}
