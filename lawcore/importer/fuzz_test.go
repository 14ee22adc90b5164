package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	lw "github.com/lawcalc/annealing/lawcore/importer/internal/logwrite"
	"github.com/lawcalc/annealing/lawcore/input"
)

// FuzzReadAny feeds Read arbitrary files, names and choices, seeded with every sample
// file: see checkResult for what must hold.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "import", "*"))
	for _, file := range files {
		f.Add(filepath.Base(file), readFuzzSeed(f, filepath.Base(file)), "", false)
	}
	f.Add("trainer_state.json", []byte(`{"log_history":[{"step":1,"loss":2,"learning_rate":1e-4},{"step":1,"eval_loss":NaN}]}`), "eval_loss", false)
	f.Add("megatron.log", []byte(" iteration 10/ 100 | learning rate: 1E-4 | lm loss: 3 |\n validation loss at iteration 10 | lm loss value: 2 |\n"), "validation lm loss", false)
	f.Add("x.csv", []byte("run,step,loss,lr\na,1,2,0.1\nb,1,2,\n"), "loss", true)
	f.Add("h.jsonl", []byte("{\"_step\": 1, \"loss\": 2}\n{\"_step\": 1, \"loss\": 3}\n"), "", false)
	f.Fuzz(func(t *testing.T, name string, data []byte, column string, asLR bool) {
		imp, err := Read(name, data, Choice{Column: column, AsLR: asLR})
		checkResult(t, imp, err)
	})
}

// The targets below fuzz one format each: the seeds are that format's sample files and the
// file name stays fixed, so the mutations stay near the one reader instead of wandering off to
// whichever format the bytes happen to look like.

// FuzzReadCSV fuzzes CSV and TSV tables with named columns, long (run column) and wide.
func FuzzReadCSV(f *testing.F) {
	fuzzOneFormat(f, "curves.csv", []string{"ambiguous.csv", "lr_schedule.csv", "runs_long.csv"},
		"step\tval_loss\tlearning_rate\n1\t3.5\t1e-4\n2\t3.4\t9e-5\n",
		"Step;Loss;LR\n1;3,5;0,0001\n2;3,4;0,00009\n")
}

// FuzzReadWandB fuzzes W&B panel exports with several runs and __MIN / __MAX columns.
func FuzzReadWandB(f *testing.F) {
	fuzzOneFormat(f, "wandb_export.csv", []string{"wandb_export.csv"},
		"\"Step\",\"a - loss\",\"a - loss__MIN\",\"a - loss__MAX\"\n\"1\",\"3\",\"2.9\",\"3.1\"\n")
}

// FuzzReadTensorBoard fuzzes TensorBoard scalar downloads, as CSV and as JSON.
func FuzzReadTensorBoard(f *testing.F) {
	fuzzOneFormat(f, "run-x-tag-loss.csv", []string{"run-cosine_20k-tag-train_loss.csv", "run-cosine_20k-tag-train_loss.json", "run-cosine_20k-tag-learning_rate.json"},
		"Wall time,Step,Value\n1.5,1,3\n2.5,2,2.9\n",
		"[[1.5, 1, 3], [2.5, 2, Infinity]]")
}

// FuzzReadTrainerState fuzzes Hugging Face trainer_state.json files (log_history).
func FuzzReadTrainerState(f *testing.F) {
	fuzzOneFormat(f, "trainer_state.json", []string{"trainer_state.json"},
		`{"log_history":[{"step":1,"loss":2,"learning_rate":1e-4},{"step":1,"eval_loss":NaN}]}`,
		"{\"_step\": 1, \"loss\": 2}\n{\"_step\": 2, \"loss\": 1.9}\n")
}

// FuzzReadMegatron fuzzes Megatron-LM training logs.
func FuzzReadMegatron(f *testing.F) {
	fuzzOneFormat(f, "megatron.log", []string{"megatron.log"},
		" iteration 10/ 100 | learning rate: 1E-4 | lm loss: 3 |\n validation loss at iteration 10 | lm loss value: 2 |\n")
}

// FuzzReadNanoGPT fuzzes nanoGPT and modded-nanogpt training logs.
func FuzzReadNanoGPT(f *testing.F) {
	fuzzOneFormat(f, "train.log", []string{"nanogpt.log", "modded_nanogpt.txt"},
		"step 0: train loss 4.2, val loss 4.3\niter 10: loss 3.9, time 10ms\n",
		"step:125/1750 val_loss:4.2 train_time:100ms\n")
}

// fuzzOneFormat runs Read on mutations of the sample files and texts given, under one
// file name, with the choice fuzzed as well.
func fuzzOneFormat(f *testing.F, name string, samples []string, texts ...string) {
	for _, s := range samples {
		f.Add(readFuzzSeed(f, s), "", false)
	}
	for _, text := range texts {
		f.Add([]byte(text), "", false)
	}
	f.Fuzz(func(t *testing.T, data []byte, column string, asLR bool) {
		imp, err := Read(name, data, Choice{Column: column, AsLR: asLR})
		checkResult(t, imp, err)
	})
}

// readFuzzSeed reads a sample file of testdata/import.
func readFuzzSeed(f *testing.F, name string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", "import", name))
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// checkResult asserts what every import must give: an *input.Error, or a result that
// encodes as JSON with either an ambiguity or curves (never both) whose steps are strictly
// increasing whole numbers, losses positive and learning rates not negative, all finite; and
// merging a learning-rate file into each loss curve fails, if at all, with an *input.Error.
func checkResult(t *testing.T, imp *Result, err error) {
	t.Helper()
	if err != nil {
		var ie *input.Error
		if !errors.As(err, &ie) {
			t.Fatalf("error %v is not an *input.Error", err)
		}
		return
	}
	if _, err := json.Marshal(imp); err != nil {
		t.Fatalf("result does not encode: %v", err)
	}
	if (imp.Ambiguity != nil) == (len(imp.Curves) > 0) {
		t.Fatalf("ambiguity %v with %d curves", imp.Ambiguity, len(imp.Curves))
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, c := range imp.Curves {
		n := len(c.Steps)
		if n == 0 || c.Points != n || (c.HasLoss && len(c.Loss) != n) || (c.HasLR && len(c.LR) != n) || (!c.HasLoss && !c.HasLR) {
			t.Fatalf("curve %+v", c)
		}
		for i, s := range c.Steps {
			if s != math.Trunc(s) || s < 0 || !finite(s) || (i > 0 && !(s > c.Steps[i-1])) {
				t.Fatalf("steps %v", c.Steps)
			}
			if c.HasLoss && !(c.Loss[i] > 0 && finite(c.Loss[i])) {
				t.Fatalf("loss %v", c.Loss)
			}
			if c.HasLR && !(c.LR[i] >= 0 && finite(c.LR[i])) {
				t.Fatalf("lr %v", c.LR)
			}
		}
		if c.HasLoss {
			if _, err := MergeLR(c, &Curve{File: "lr", Steps: []float64{0, 1e6}, LR: []float64{1, 0}, HasLR: true}); err != nil {
				var ie *input.Error
				if !errors.As(err, &ie) {
					t.Fatalf("MergeLR error %v is not an *input.Error", err)
				}
			}
		}
	}
}

// FuzzReadEventFile fuzzes TensorBoard event files as files: framing, checksums and what
// they frame.
func FuzzReadEventFile(f *testing.F) {
	for _, seed := range eventSeeds() {
		data := lw.EventFile(seed...)
		f.Add(data, "", false)
		f.Add(data[:len(data)-3], "", false)
		f.Add(append(data, lw.Record(nil)[:14]...), "", false) // cut in the footer of an empty record
	}
	f.Fuzz(func(t *testing.T, data []byte, column string, asLR bool) {
		imp, err := Read("events.out.tfevents.1700000000.host.1.0", data, Choice{Column: column, AsLR: asLR})
		checkResult(t, imp, err)
	})
}

// FuzzReadEventRecords fuzzes the Event protobufs an event file frames: the input is the
// records' data, each length-delimited (a varint length, then the bytes), framed with the
// checksums right so that mutations reach the protobuf reader.
func FuzzReadEventRecords(f *testing.F) {
	for _, seed := range eventSeeds() {
		var b []byte
		for _, e := range append([][]byte{lw.FileVersion()}, seed...) {
			b = protowire.AppendBytes(b, e)
		}
		f.Add(b, "", false)
	}
	f.Fuzz(func(t *testing.T, data []byte, column string, asLR bool) {
		var file []byte
		for len(data) > 0 {
			rec, n := protowire.ConsumeBytes(data)
			if n < 0 {
				rec, n = data, len(data)
			}
			file, data = append(file, lw.Record(rec)...), data[n:]
		}
		imp, err := Read("events.out.tfevents.1700000000.host.1.0", file, Choice{Column: column, AsLR: asLR})
		checkResult(t, imp, err)
	})
}

// FuzzReadArchive fuzzes zip archives and gzip files, and so the folder reader behind a zip.
func FuzzReadArchive(f *testing.F) {
	events := eventSeeds()
	csv := []byte("step,loss,lr\n1,3.5,1e-4\n2,3.4,9e-5\n")
	for _, data := range [][]byte{
		lw.Zip(lw.File{Name: "a/events.out.tfevents.1.h", Data: lw.EventFile(events[0]...)},
			lw.File{Name: "b/version_0/metrics.csv", Data: []byte("epoch,step,train_loss,val_loss,lr-AdamW\n0,1,3,,0.1\n0,1,,3.5,\n")},
			lw.File{Name: "c/metrics/loss", Data: []byte("1700000000000 3.5 10\n1700000000100 3.25 20\n")},
			lw.File{Name: "c/metrics/lr", Data: []byte("1700000000000 0.1 10\n")},
			lw.File{Name: "c/tags/mlflow.runName", Data: []byte("run c")},
			lw.File{Name: "d/run-x-tag-lr.csv.gz", Data: lw.Gzip([]byte("Wall time,Step,Value\n1,0,0.1\n"))}),
		lw.Zip(lw.File{Name: "loss.csv", Data: csv}),
		lw.Zip(),
		lw.ZipBomb("x.csv", 1, false),
		lw.Gzip(csv),
		lw.Gzip(lw.EventFile(events[1]...)),
		lw.Gzip(lw.Zip(lw.File{Name: "loss.csv", Data: csv})),
	} {
		f.Add(data, "", false)
	}
	f.Fuzz(func(t *testing.T, data []byte, column string, asLR bool) {
		imp, err := Read("logs.zip", data, Choice{Column: column, AsLR: asLR})
		checkResult(t, imp, err)
	})
}

// eventSeeds are the events of a few event files: a run with loss and learning rate, two
// losses and things that are not scalars, a restart.
func eventSeeds() [][][]byte {
	run, _, _, _ := runEvents(4)
	return [][][]byte{
		run,
		{
			lw.Event(1, lw.Scalar{Tag: "train/loss", Value: 4}, lw.Scalar{Tag: "eval/loss", Value: 4.5, As: lw.TensorFloat}),
			lw.Event(2, lw.Scalar{Tag: "train/loss", Value: 3, As: lw.TensorFloatContent}, lw.Scalar{Tag: "lr", Value: 0.1, As: lw.TensorDoubleContent}),
			lw.Event(2, lw.Scalar{Tag: "w", Value: 1, As: lw.Histogram}, lw.Scalar{Tag: "hp", Value: 1, As: lw.HParams}),
		},
		{lw.Event(10, lw.Scalar{Tag: "loss", Value: 3}), lw.Event(5, lw.Scalar{Tag: "loss", Value: math.NaN()}), lw.Event(5, lw.Scalar{Tag: "loss", Value: 2})},
	}
}

// FuzzReadFiles fuzzes folders: the files' paths (joined by "|") and contents (joined by
// fuzzFileSeparator) are both mutated, so that runs group, pair and name in every way.
func FuzzReadFiles(f *testing.F) {
	var paths []string
	var contents [][]byte
	for _, file := range runFolder() {
		paths, contents = append(paths, file.Path), append(contents, file.Data)
	}
	f.Add(strings.Join(paths, "|"), bytes.Join(contents, []byte(fuzzFileSeparator)), "")
	f.Add("a/metrics.csv|a/lr.csv|b/version_0/metrics.csv", []byte("step,loss\n1,3\n2,2\n"+fuzzFileSeparator+"step,lr\n0,1\n5,0\n"+fuzzFileSeparator+
		"epoch,step,train_loss,val_loss\n0,1,3,\n0,1,,4\n"), "val_loss")
	f.Fuzz(func(t *testing.T, pathList string, data []byte, column string) {
		ps := strings.Split(pathList, "|")
		var files []File
		for i, content := range bytes.SplitN(data, []byte(fuzzFileSeparator), 16) {
			files = append(files, File{Path: ps[i%len(ps)], Data: content})
		}
		imp, err := ReadFiles(files, Choice{Column: column})
		checkResult(t, imp, err)
	})
}

// fuzzFileSeparator separates the files of FuzzReadFiles's input.
const fuzzFileSeparator = "\x00\xff\x00"
