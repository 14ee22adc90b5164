package importer

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore/input"
)

// importSample reads a file of testdata/import with a choice, failing the test on error.
func importSample(t *testing.T, file string, choice Choice) *Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "import", file))
	if err != nil {
		t.Fatal(err)
	}
	imp, err := Read(file, data, choice)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return imp
}

// wantCurve checks a curve's numbers exactly.
func wantCurve(t *testing.T, c *Curve, name string, steps, loss, lr []float64) {
	t.Helper()
	if c.Name != name {
		t.Errorf("name %q, want %q", c.Name, name)
	}
	if !equalFloats(c.Steps, steps) || !equalFloats(c.Loss, loss) || !equalFloats(c.LR, lr) {
		t.Errorf("%s: got steps %v loss %v lr %v\nwant steps %v loss %v lr %v", name, c.Steps, c.Loss, c.LR, steps, loss, lr)
	}
	if c.Points != len(steps) || c.HasLoss != (loss != nil) || c.HasLR != (lr != nil) {
		t.Errorf("%s: points %d hasLoss %v hasLR %v", name, c.Points, c.HasLoss, c.HasLR)
	}
}

// wantOptions checks the names and point counts of an ambiguity's options.
func wantOptions(t *testing.T, what string, got []Option, want ...any) {
	t.Helper()
	if len(got)*2 != len(want) {
		t.Fatalf("%s: got %+v, want %v", what, got, want)
	}
	for i, o := range got {
		if o.Name != want[2*i].(string) || o.Points != want[2*i+1].(int) {
			t.Errorf("%s %d: got %+v, want %v %v", what, i, o, want[2*i], want[2*i+1])
		}
	}
}

func wantNote(t *testing.T, imp *Result, part string) {
	t.Helper()
	for _, n := range imp.Notes {
		if strings.Contains(n, part) {
			return
		}
	}
	t.Errorf("no note containing %q in %q", part, imp.Notes)
}

// wantRefused checks what a bad file gave: an error starting with want, or, when want is "",
// a question to the user (an Ambiguity).
func wantRefused(t *testing.T, what string, imp *Result, err error, want string) {
	t.Helper()
	switch {
	case want == "" && (err != nil || imp.Ambiguity == nil):
		t.Errorf("%s: got %v, want a question", what, err)
	case want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)):
		t.Errorf("%s: got %v, want %s", what, err, want)
	}
}

func TestReadWandB(t *testing.T) {
	imp := importSample(t, "wandb_export.csv", Choice{})
	if imp.Format != FormatWandB || len(imp.Curves) != 0 || imp.Ambiguity == nil || imp.Ambiguity.Columns != nil {
		t.Fatalf("got %+v", imp)
	}
	wantOptions(t, "runs", imp.Ambiguity.Runs, "cosine-20k", 5, "wsd-20k", 5, "llama - 7b - rerun", 2)
	if o := imp.Ambiguity.Runs[2]; o.FirstStep != 500 || o.LastStep != 1500 {
		t.Errorf("llama option %+v", o)
	}

	imp = importSample(t, "wandb_export.csv", Choice{Runs: []string{"cosine-20k", "llama - 7b - rerun"}})
	if imp.Ambiguity != nil || len(imp.Curves) != 2 || len(imp.Notes) != 0 {
		t.Fatalf("got %+v", imp)
	}
	c := imp.Curves[0]
	wantCurve(t, c, "cosine-20k", []float64{0, 500, 1000, 1500, 2000}, []float64{10.9871, 5.4321, 4.1234, 3.8765, 3.6543}, nil)
	if c.Run != "cosine-20k" || c.Metric != "train/loss" || c.Source != (Source{Step: "Step", Loss: "cosine-20k - train/loss"}) {
		t.Errorf("curve %+v", c)
	}
	wantCurve(t, imp.Curves[1], "llama - 7b - rerun", []float64{500, 1500}, []float64{5.8, 4.2}, nil)

	imp = importSample(t, "wandb_export.csv", Choice{Runs: []string{"wsd-20k"}, Column: "train/loss"})
	wantCurve(t, imp.Curves[0], "wsd-20k", []float64{0, 500, 1000, 1500, 2000}, []float64{10.9874, 5.4410, 4.1301, 3.8890, 3.6011}, nil)
}

func TestReadTensorBoard(t *testing.T) {
	imp := importSample(t, "run-cosine_20k-tag-train_loss.csv", Choice{})
	if imp.Format != FormatTensorBoardCSV || len(imp.Curves) != 1 {
		t.Fatalf("got %+v", imp)
	}
	c := imp.Curves[0]
	// Steps 300 and 400 were logged again after a restart: the restarted run's values are kept.
	wantCurve(t, c, "run-cosine_20k-tag-train_loss", []float64{100, 200, 300, 400, 500},
		[]float64{7.123456954956055, 5.987654209136963, 5.0, 4.5, 4.25}, nil)
	if c.Metric != "train_loss" || c.Source != (Source{Step: "Step", Loss: "Value"}) {
		t.Errorf("curve %+v", c)
	}
	wantNote(t, imp, `"train_loss": the run restarted at step 300 (line 6, after step 400): the 2 values the earlier run logged from there on are dropped, as TensorBoard drops them`)

	imp = importSample(t, "run-cosine_20k-tag-train_loss.json", Choice{})
	if imp.Format != FormatTensorBoardJSON {
		t.Errorf("format %q", imp.Format)
	}
	// Python's NaN at step 400 is skipped.
	wantCurve(t, imp.Curves[0], "run-cosine_20k-tag-train_loss", []float64{100, 200, 300, 500},
		[]float64{7.123456954956055, 5.987654209136963, 5.01234483718872, 4.25}, nil)
	wantNote(t, imp, `"train_loss": skipped 1 value that is not finite (the first at line 1)`)

	// A tag named like a learning rate makes an LR curve.
	imp = importSample(t, "run-cosine_20k-tag-learning_rate.json", Choice{})
	wantCurve(t, imp.Curves[0], "run-cosine_20k-tag-learning_rate", []float64{0, 100, 300, 500}, nil, []float64{0, 3e-4, 2.5e-4, 5e-5})

	// AsLR reads a loss-named export as learning rates.
	imp = importSample(t, "run-cosine_20k-tag-train_loss.csv", Choice{AsLR: true})
	wantCurve(t, imp.Curves[0], "run-cosine_20k-tag-train_loss", []float64{100, 200, 300, 400, 500}, nil,
		[]float64{7.123456954956055, 5.987654209136963, 5.0, 4.5, 4.25})
}

func TestReadHFTrainerState(t *testing.T) {
	imp := importSample(t, "trainer_state.json", Choice{})
	if imp.Format != FormatHFTrainerState || imp.Ambiguity == nil || imp.Ambiguity.Runs != nil {
		t.Fatalf("got %+v", imp)
	}
	// The summary entry's train_loss (the mean over the run) is not a candidate.
	wantOptions(t, "columns", imp.Ambiguity.Columns, "loss", 6, "eval_loss", 2)
	if k := imp.Ambiguity.Columns[1].Kind; k != "validation" {
		t.Errorf("eval_loss kind %q", k)
	}

	imp = importSample(t, "trainer_state.json", Choice{Column: "eval_loss"})
	c := imp.Curves[0]
	wantCurve(t, c, "trainer_state", []float64{30, 60}, []float64{3.3456, 2.9876}, []float64{3e-5, 0})
	if c.Source != (Source{Step: "step", Loss: "eval_loss", LR: "learning_rate"}) || len(imp.Notes) != 0 {
		t.Errorf("curve %+v, notes %q", c, imp.Notes)
	}

	imp = importSample(t, "trainer_state.json", Choice{Column: "loss"})
	wantCurve(t, imp.Curves[0], "trainer_state", []float64{10, 20, 30, 40, 50, 60},
		[]float64{4.5678, 3.9012, 3.4567, 3.2109, 3.0987, 3.0123}, []float64{5e-5, 4e-5, 3e-5, 2e-5, 1e-5, 0})
}

func TestReadMegatron(t *testing.T) {
	imp := importSample(t, "megatron.log", Choice{})
	if imp.Format != FormatMegatron || imp.Ambiguity == nil {
		t.Fatalf("got %+v", imp)
	}
	wantOptions(t, "columns", imp.Ambiguity.Columns, "lm loss", 6, "validation lm loss", 2, "test lm loss", 1)

	imp = importSample(t, "megatron.log", Choice{Column: "lm loss"})
	c := imp.Curves[0]
	// Iteration 40 was logged again after the restart: the restarted run's value is kept.
	wantCurve(t, c, "megatron", []float64{10, 20, 30, 40, 50, 60},
		[]float64{9.876543, 7.654321, 6.54321, 5.876543, 5.4321, 5.1234},
		[]float64{3e-4, 2.5e-4, 2e-4, 1.5e-4, 1e-4, 5e-5})
	if c.Source != (Source{Step: "iteration", Loss: "lm loss", LR: "learning rate"}) {
		t.Errorf("source %+v", c.Source)
	}
	wantNote(t, imp, `"lm loss": the run restarted at step 40 (line 19, after step 40): the 1 value the earlier run logged from there on is dropped`)

	imp = importSample(t, "megatron.log", Choice{Column: "validation lm loss"})
	wantCurve(t, imp.Curves[0], "megatron", []float64{30, 60}, []float64{6.4321, 5.0123}, []float64{2e-4, 5e-5})
	if s := imp.Curves[0].Source.Loss; s != "lm loss value" {
		t.Errorf("source %q", s)
	}

	// Lines starting with a bracket are log lines, not JSON.
	imp, err := Read("train.out", []byte("[2024-05-01 10:00:11] iteration 10/ 60 | learning rate: 3.0E-04 | lm loss: 9.5E+00 |\n[rank0]: iteration 20/ 60 | learning rate: 2.0E-04 | lm loss: 8.5E+00 |\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "train", []float64{10, 20}, []float64{9.5, 8.5}, []float64{3e-4, 2e-4})
}

func TestReadNanoGPT(t *testing.T) {
	imp := importSample(t, "nanogpt.log", Choice{})
	if imp.Format != FormatNanoGPT || imp.Ambiguity == nil {
		t.Fatalf("got %+v", imp)
	}
	wantOptions(t, "columns", imp.Ambiguity.Columns, "train loss", 3, "val loss", 3, "loss", 6)
	imp = importSample(t, "nanogpt.log", Choice{Column: "val loss"})
	wantCurve(t, imp.Curves[0], "nanogpt", []float64{0, 250, 500}, []float64{4.2823, 2.0707, 1.7291}, nil)
	imp = importSample(t, "nanogpt.log", Choice{Column: "LOSS"}) // case is ignored
	wantCurve(t, imp.Curves[0], "nanogpt", []float64{0, 10, 20, 250, 260, 500}, []float64{4.2649, 3.2438, 2.7885, 2.0454, 1.9881, 1.5491}, nil)

	imp = importSample(t, "modded_nanogpt.txt", Choice{})
	if imp.Format != FormatModdedNanoGPT || imp.Ambiguity != nil {
		t.Fatalf("got %+v", imp)
	}
	wantCurve(t, imp.Curves[0], "modded_nanogpt", []float64{0, 125, 250, 1750}, []float64{10.8258, 4.3769, 3.9804, 3.2784}, nil)
	if imp.Curves[0].Metric != "val_loss" {
		t.Errorf("metric %q", imp.Curves[0].Metric)
	}
}

func TestReadAmbiguousCSV(t *testing.T) {
	imp := importSample(t, "ambiguous.csv", Choice{})
	if imp.Format != FormatCSV || imp.Ambiguity == nil || imp.Ambiguity.Runs != nil || len(imp.Curves) != 0 {
		t.Fatalf("got %+v", imp)
	}
	wantOptions(t, "columns", imp.Ambiguity.Columns, "train_loss", 4, "val_loss", 2)
	if o := imp.Ambiguity.Columns[1]; o.FirstStep != 200 || o.LastStep != 400 || o.Kind != "validation" {
		t.Errorf("val_loss option %+v", o)
	}
	// Empty cells mean no value at that step, and the loss chosen says how many it lacks.
	imp = importSample(t, "ambiguous.csv", Choice{Column: "val_loss"})
	wantCurve(t, imp.Curves[0], "ambiguous", []float64{200, 400}, []float64{3.95, 3.46}, []float64{0.00028, 0.0002})
	if len(imp.Notes) != 1 || imp.Notes[0] != `"val_loss": no value on 2 rows (the first at line 3): those steps are left out` {
		t.Errorf("val_loss notes %q", imp.Notes)
	}
	imp = importSample(t, "ambiguous.csv", Choice{Column: "train_loss"})
	wantCurve(t, imp.Curves[0], "ambiguous", []float64{100, 200, 300, 400}, []float64{4.5, 3.9, 3.6, 3.4}, []float64{0.0003, 0.00028, 0.00024, 0.0002})
	if len(imp.Notes) != 0 {
		t.Errorf("train_loss (no empty cell) notes %q", imp.Notes)
	}
}

func TestReadCSVRunsAndLR(t *testing.T) {
	imp := importSample(t, "runs_long.csv", Choice{})
	wantOptions(t, "runs", imp.Ambiguity.Runs, "cosine", 2, "constant", 3)
	imp = importSample(t, "runs_long.csv", Choice{Runs: []string{"constant", "cosine"}})
	wantCurve(t, imp.Curves[0], "constant", []float64{100, 200, 300}, []float64{4.6, 4.0, 3.8}, nil)
	wantCurve(t, imp.Curves[1], "cosine", []float64{100, 200}, []float64{4.5, 3.9}, nil)

	imp = importSample(t, "lr_schedule.csv", Choice{})
	wantCurve(t, imp.Curves[0], "lr_schedule", []float64{0, 100, 200, 400}, nil, []float64{0, 3e-4, 2.8e-4, 2e-4})
	wantNote(t, imp, "no loss: a learning-rate file, to merge with a loss file on step")

	// The table conventions (TestReadTableConventions).
	imp, err := Read("p.csv", []byte("\ufeff# exported\nIteration;lm loss;Learning_Rate\r\n\r\n100;3.5;0.1\r\n200;3.4;0.2\r\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "p", []float64{100, 200}, []float64{3.5, 3.4}, []float64{0.1, 0.2})
	// A W&B history (run.history()): _step counts the calls to wandb.log; the global step is the step.
	imp, err = Read("history.csv", []byte("_step,_runtime,train/global_step,train/loss\n0,10,10,4.5\n1,20,20,4.25\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "history", []float64{10, 20}, []float64{4.5, 4.25}, nil)
	if src := imp.Curves[0].Source; src.Step != "train/global_step" {
		t.Errorf("history: step column %q", src.Step)
	}
	// Lines ended by CR alone (Excel's "CSV (Macintosh)"), a column of no use named twice.
	imp, err = Read("mac.csv", []byte("step,loss,note,note\r100,3.5,a,b\r200,3.4,,\r"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "mac", []float64{100, 200}, []float64{3.5, 3.4}, nil)
}

func TestReadJSONRecords(t *testing.T) {
	for _, text := range []string{
		"{\"_step\": 1, \"train/loss\": 3.5, \"lr\": 0.1, \"_runtime\": 3}\n{\"_step\": 2, \"train/loss\": 3.4, \"lr\": 0.2}\n",
		`[{"step": 1, "train/loss": 3.5, "lr": 0.1}, {"step": 2, "train/loss": "3.4", "lr": 0.2}]`,
	} {
		imp, err := Read("history.jsonl", []byte(text), Choice{})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if imp.Format != FormatJSONRecords {
			t.Errorf("format %q", imp.Format)
		}
		wantCurve(t, imp.Curves[0], "history", []float64{1, 2}, []float64{3.5, 3.4}, []float64{0.1, 0.2})
	}
}

// A JSON-lines log whose last line is cut short (a run still writing it, or killed mid-line)
// keeps the records before it, with a note naming the line; a record cut short anywhere else,
// or the only record, is still refused naming its line.
func TestReadJSONLinesCutShort(t *testing.T) {
	whole := "{\"step\": 100, \"loss\": 3.2}\n{\"step\": 200, \"loss\": 3.0}\n"
	for _, cut := range []string{`{"step": 300, "lo`, `{"step": 300, "loss": 2.`, "{\"step\": 300, \"loss\": 2.9\n"} {
		imp, err := Read("metrics.jsonl", []byte(whole+cut), Choice{})
		if err != nil {
			t.Fatalf("%q: %v", cut, err)
		}
		wantCurve(t, imp.Curves[0], "metrics", []float64{100, 200}, []float64{3.2, 3.0}, nil)
		if !slices.ContainsFunc(imp.Notes, func(n string) bool {
			return strings.HasPrefix(n, "line 3, the last, is not a whole record (") && strings.HasSuffix(n, "the 2 records before it are read")
		}) {
			t.Errorf("%q: notes %q, want the cut line named", cut, imp.Notes)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"{\"step\": 100, \"loss\": 3.2}\n{\"step\": 200, \"lo\n{\"step\": 300, \"loss\": 2.9}\n", "line 2"},
		{`{"step": 100, "lo`, "line 1"},
	} {
		if _, err := Read("metrics.jsonl", []byte(c.text), Choice{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it refused at %s", c.text, err, c.want)
		}
	}
}

// The format is recognised by the content, whatever the file is called.
func TestReadDetectsByContent(t *testing.T) {
	for file, format := range map[string]string{
		"wandb_export.csv": FormatWandB, "run-cosine_20k-tag-train_loss.csv": FormatTensorBoardCSV,
		"run-cosine_20k-tag-train_loss.json": FormatTensorBoardJSON, "trainer_state.json": FormatHFTrainerState,
		"megatron.log": FormatMegatron, "nanogpt.log": FormatNanoGPT, "modded_nanogpt.txt": FormatModdedNanoGPT,
		"ambiguous.csv": FormatCSV,
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "import", file))
		if err != nil {
			t.Fatal(err)
		}
		imp, err := Read("upload", data, Choice{})
		if err != nil || imp.Format != format {
			t.Errorf("%s: format %v, error %v; want %s", file, imp, err, format)
		}
	}
}

func TestReadMergeLR(t *testing.T) {
	loss := importSample(t, "run-cosine_20k-tag-train_loss.json", Choice{}).Curves[0]
	lr := importSample(t, "run-cosine_20k-tag-learning_rate.json", Choice{}).Curves[0]
	merged, err := MergeLR(loss, lr)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{3e-4, 2.75e-4, 2.5e-4, 5e-5} // 200 lies halfway between 100 and 300
	for i := range want {
		if !(math.Abs(merged.LR[i]-want[i]) <= 1e-12*want[i]) {
			t.Errorf("lr %v, want %v", merged.LR, want)
			break
		}
	}
	if !merged.HasLR || !equalFloats(merged.Loss, loss.Loss) || loss.HasLR || merged.Source.LR != "value (run-cosine_20k-tag-learning_rate.json)" {
		t.Errorf("merged %+v, original %+v", merged, loss)
	}
	// the LR file's own points are kept as logged: 200 is not among them
	if !equalFloats(merged.LRSteps, lr.Steps) || !equalFloats(merged.LRLogged, lr.LR) || slices.Contains(merged.LRSteps, 200) {
		t.Errorf("logged LR at %v: %v, want the file's %v: %v", merged.LRSteps, merged.LRLogged, lr.Steps, lr.LR)
	}
	// In one file: an LR logged at every step beside a loss every other step keeps every step's.
	imp, err := Read("dense.csv", []byte("step,loss,lr\n1,,1e-3\n2,3.5,1e-3\n3,,1e-4\n4,3.25,1e-4\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	c := imp.Curves[0]
	wantCurve(t, c, "dense", []float64{2, 4}, []float64{3.5, 3.25}, []float64{1e-3, 1e-4})
	if !equalFloats(c.LRSteps, []float64{1, 2, 3, 4}) || !equalFloats(c.LRLogged, []float64{1e-3, 1e-3, 1e-4, 1e-4}) {
		t.Errorf("logged LR at %v: %v", c.LRSteps, c.LRLogged)
	}
	// at the loss's own steps, nothing more is kept
	if c := importSample(t, "ambiguous.csv", Choice{Column: "train_loss"}).Curves[0]; c.LRSteps != nil || c.LRLogged != nil {
		t.Errorf("LR at the loss's steps: logged %v %v", c.LRSteps, c.LRLogged)
	}

	// learning rates that stop one logging interval before the loss's last step (logged at
	// 0, 100, 200, 400; the loss to 500) are continued to it linearly, as one file's are
	short := importSample(t, "lr_schedule.csv", Choice{}).Curves[0]
	tb := importSample(t, "run-cosine_20k-tag-train_loss.csv", Choice{}).Curves[0]
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*b }
	merged, err = MergeLR(tb, short)
	if err != nil {
		t.Fatal(err)
	}
	if !equalFloats(merged.Steps, []float64{100, 200, 300, 400, 500}) || !equalFloats(merged.Loss, tb.Loss) ||
		!slices.EqualFunc(merged.LR, []float64{3e-4, 2.8e-4, 2.4e-4, 2e-4, 1.6e-4}, near) {
		t.Errorf("merged steps %v loss %v lr %v (%d points)", merged.Steps, merged.Loss, merged.LR, merged.Points)
	}
	pairs, notes := PairLR([]*Curve{tb, short})
	if len(pairs) != 1 || pairs[0].Keep != nil || len(pairs[0].Reach) != 1 || pairs[0].Reach[0].Step != 500 || !near(pairs[0].Reach[0].LR, 1.6e-4) || len(notes) != 1 ||
		notes[0] != `"run-cosine_20k-tag-train_loss", from lr_schedule.csv: the learning rate at step 500 (a loss after the last logged learning rate, at step 400) 0.00016, continuing the logged ones linearly` {
		t.Errorf("pairs %v, notes %q", pairs, notes)
	}
	// farther than one interval (logged at 0 to 300 every 100; the loss to 500), the loss
	// after them is left out (PairLR notes it), when it is fewer than half the points
	shorter := &Curve{Name: "lr", File: "lr.csv", Steps: []float64{0, 100, 200, 300}, LR: []float64{0, 3e-4, 2.8e-4, 2.4e-4}, HasLR: true, Points: 4}
	merged, err = MergeLR(tb, shorter)
	if err != nil {
		t.Fatal(err)
	}
	if !equalFloats(merged.Steps, []float64{100, 200, 300}) || !equalFloats(merged.Loss, tb.Loss[:3]) || merged.Points != 3 {
		t.Errorf("merged steps %v loss %v (%d points)", merged.Steps, merged.Loss, merged.Points)
	}
	pairs, notes = PairLR([]*Curve{tb, shorter})
	if !reflect.DeepEqual(pairs, []LRPair{{Loss: 0, LR: 1, Keep: []int{0, 3}}}) || len(notes) != 1 ||
		notes[0] != `"run-cosine_20k-tag-train_loss": left out 2 losses at steps 400 to 500, outside the steps its learning rates from lr.csv are logged at (0 to 300): the law needs the learning rate up to each step` {
		t.Errorf("pairs %v, notes %q", pairs, notes)
	}
	// learning rates over less than half of it are not its schedule
	_, err = MergeLR(tb, lrCurve("lr.csv", "", 0, 200))
	want2 := `lr.csv: the learning rates cover steps 0 to 200, but curve "run-cosine_20k-tag-train_loss" has step 500: the learning-rate file must cover the steps of the loss curve, or most of them`
	if err == nil || err.Error() != want2 {
		t.Errorf("got %v, want %s", err, want2)
	}
	if _, err := MergeLR(loss, loss); err == nil || !strings.Contains(err.Error(), "has no learning rates") {
		t.Errorf("merging a loss curve as LR: %v", err)
	}
}

// Each bad file gives an *input.Error naming the file and, where there is one, the line and
// column or field.
func TestReadErrors(t *testing.T) {
	cases := []struct {
		text   string
		choice Choice
		want   string
	}{
		{"", Choice{}, "bad: the file is empty"},
		{"\ufeff \n\t", Choice{}, "bad: the file is empty"},
		{"\x00\x01\x02", Choice{}, "bad: this is a binary file"},
		{"\x1f\x8b\x08\x00", Choice{}, "bad: the gzip file is cut short"},
		{"\xff\xfes\x00t\x00", Choice{}, "bad: this is UTF-16 text: save it as UTF-8"},
		{"hello world\n", Choice{}, "bad: line 1: not a format I know"},
		// Tables (TestReadTableErrors).
		{"1,3.5\n2,3.4\n", Choice{}, "bad: line 1: the first line should be a header"},
		{"time,value\n1,2\n", Choice{}, `bad: line 1: no step column: the header has "time", "value"`},
		{"step,loss\n", Choice{}, "bad: the file has a header but no data rows"},
		{"# run 1\nstep,loss,Loss\n1,3,3.1\n2,2,2.1\n", Choice{}, `bad: line 2: the header names "Loss" twice (columns 2 and 3): rename one`},
		{"Step,loss,step\n1,3,1\n", Choice{}, `bad: line 1: the header names "step" twice (columns 1 and 3): rename one`},
		{"Step,a - train/loss,a - train/loss\n1,3,4\n", Choice{}, `bad: line 1: the export has two columns "a - train/loss" (columns 2 and 3): two runs share the name "a"; rename one in W&B, or export them apart`},
		{"step,loss\n1,3.5\n2,abc\n", Choice{}, `bad: line 3, column 2 (loss): "abc" is not a number`},
		// A long cell is repeated only in part.
		{"step,loss\n1," + strings.Repeat("é", 1e6) + "\n", Choice{}, `bad: line 2, column 2 (loss): "` + strings.Repeat("é", 60) + `"… is not a number`},
		// A JSON file with a value JSON cannot hold, or a syntax error, is still read as JSON.
		{`{"log_history":[{"step":1e400,"loss":2}]}`, Choice{}, `bad: line 1, "step": a step must be a whole number, zero or more, got +Inf`},
		{`[[1.5, 1, 3],]`, Choice{}, `bad: line 1: invalid character ']' looking for beginning of value`},
		{"step,loss\n1,3.5\n2,NaN\n", Choice{}, `bad: line 3, column 2 (loss): "NaN" is not a finite number`},
		{"step,loss\n1,3.5\n2,-1\n", Choice{}, "bad: line 3, column 2 (loss): the loss must be positive, got -1"},
		{"step,loss\n2,3.5\n1,3.4\n", Choice{}, "bad: line 3, column 1 (step): steps must increase: 1 comes after 2"},
		{"step,loss\n2,3.5\n2,3.4\n", Choice{}, "bad: line 3, column 1 (step): step 2 appears twice"},
		{"step,loss\n1.5,3.5\n", Choice{}, "bad: line 2, column 1 (step): a step must be a whole number, zero or more, got 1.5"},
		{"step,loss\n1e300,3.5\n", Choice{}, "bad: line 2, column 1 (step): step 1e+300 is too large"},
		{"step,loss\n,3.5\n", Choice{}, "bad: line 2, column 1 (step): the step is missing"},
		{"step,loss,lr\n1,3.5,-1\n", Choice{}, "bad: line 2, column 3 (lr): a learning rate cannot be negative, got -1"},
		{"step,loss\n1,3.5\n2,3.4,9\n", Choice{}, "bad: line 3, character 1: this row has a different number of columns"},
		{"step,value\n1,2\n", Choice{Column: "nope"}, `bad: no column "nope": the file has "value"`},
		{"step,loss,val_loss\n1,2,3\n", Choice{Column: "nope"}, `bad: no column "nope": the file has "loss", "val_loss"`},
		{"step,loss\n1,2\n", Choice{Runs: []string{"a"}}, `bad: the file holds one run: no run "a"`},
		{"run,step,loss\na,1,2\nb,1,2\n", Choice{Runs: []string{"c"}}, `bad: no run "c": the runs are "a", "b"`},
		{"step,loss,val_loss\n1,2,abc\n", Choice{Column: "val_loss"}, `bad: line 2, column 3 (val_loss): "abc" is not a number`},
		{"step,loss,val_loss\n1,,\n", Choice{Column: "val_loss"}, `bad: column "val_loss" has no values`},
		{"Relative Time (Process),a - loss\n1,2\n", Choice{}, `bad: line 1: this W&B export has "Relative Time (Process)" on the x axis`},
		{"Step,a - loss,a - loss__MIN\n1,0,0\n", Choice{}, `bad: "loss" of run "a" has no loss values (positive numbers)`},
		// a quote left open is named by the row it opened in, not where the reader gave up
		{"step,loss,note\n1,3,x\n2,3,\"open\n3,3,x\n4,3,x\n", Choice{}, `bad: line 3: a quoted field opens in this row and is not closed`},
		// JSON.
		{strings.Repeat("[", 100000), Choice{}, "bad: line 1: the JSON is nested more than 64 deep"},
		{"[[1,2,3],\n[1,", Choice{}, "bad: line 2: the JSON ends too early"},
		{"[[1,2,3],\n[1,2]]", Choice{}, "bad: line 2: each point should be a list [wall time, step, value], got 2 values"},
		{"[[1,2,3],\n{}]", Choice{}, "bad: line 2: each point should be a list [wall time, step, value]"},
		{"[[1,2.5,3]]", Choice{}, "bad: line 1, step: a step must be a whole number, zero or more, got 2.5"},
		{"[[1,null,3]]", Choice{}, "bad: line 1, step: the step is null"},
		{"[[1,2,3]] x", Choice{}, "bad: line 1: unexpected text after the end of the JSON"},
		{"[]", Choice{}, "bad: line 1: the JSON list is empty"},
		{"[1]", Choice{}, "bad: line 1: expected a list of [wall time, step, value]"},
		{`{"log_history": 3}`, Choice{}, "bad: line 1: log_history should be a list"},
		{`{"log_history": []}`, Choice{}, "bad: log_history is empty"},
		{`{"a": 1, "b": {"log_history": 3}}`, Choice{}, "bad: a JSON object without a log_history list: not a trainer_state.json"},
		{"{\"log_history\": [\n  {\"step\": 1, \"loss\": 2},\n  {\"loss\": 1}\n]}", Choice{}, `bad: line 3: this entry has "loss" but no step`},
		{"{\"log_history\": [\n  {\"step\": 1,\n   \"loss\": \"x\"}]}", Choice{}, `bad: line 3, "loss": "x" is not a number`},
		{"{\"log_history\": [\n  3]}", Choice{}, "bad: line 2: each log_history entry should be an object with a step and a loss"},
		{`{"log_history": [{"step": 1, "grad_norm": 2}]}`, Choice{}, "bad: log_history has no loss or eval_loss"},
		{"{\"step\": 1, \"loss\": 2}\n{\"step\": -1, \"loss\": 2}", Choice{}, `bad: line 2, "step": a step must be a whole number, zero or more, got -1`},
		{`{"step": 1, "loss": 2} {`, Choice{}, "bad: line 1: the JSON ends too early"},
		{`{"step": 1, "loss": NaN}`, Choice{}, `bad: "loss" has no loss values (positive numbers)`},
		// Logs.
		{"iter 1: loss 3.5, time 1ms\niter 2: loss 2.5e, time 1ms\n", Choice{}, `bad: line 2: "2.5e" is not a number`},
		{" iteration 10/ 100 | lm loss: 0 |\n", Choice{}, `bad: "lm loss" has no loss values (positive numbers)`},
		{" iteration 10/ 100 | learning rate: 1E-4 |\n", Choice{Column: "lm loss"}, `bad: no column "lm loss": the file has "learning rate"`},
		{" iteration 99999999999999999999/ 100 | lm loss: 3 |\n", Choice{}, "bad: line 1: step 1e+20 is too large"},
	}
	for _, c := range cases {
		_, err := Read("bad", []byte(c.text), c.choice)
		var ie *input.Error
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.60q: got %v, want an *input.Error starting %q", c.text, err, c.want)
		}
	}
}

func TestReadMaxRows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a file of MaxRows rows")
	}
	var b strings.Builder
	b.WriteString("step,loss\n")
	for range MaxRows + 1 {
		b.WriteString("1,1\n")
	}
	_, err := Read("big.csv", []byte(b.String()), Choice{})
	want := "big.csv: line 2000002: more than 2000000 rows: thin the curve first"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// A JSON object holding its points as columns, at its top level or in objects within it (as
// some training scripts save their logs: {"val": {"iter": [...], "val_loss": [...]}, "train":
// {...}}), is read as the records those columns make; the two losses are asked about.
func TestReadJSONColumns(t *testing.T) {
	imp, err := Read("run.json", []byte(`{"step": [1, 2, 3], "loss": [3.5, 3.4, null], "lr": [0.1, 0.2, 0.3], "note": "x"}`), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Format != FormatJSONRecords {
		t.Errorf("format %q", imp.Format)
	}
	// null is no value: step 3 has no loss, and the curve no point there
	wantCurve(t, imp.Curves[0], "run", []float64{1, 2}, []float64{3.5, 3.4}, []float64{0.1, 0.2})
	nested := `{"name": "stable", "config": {"lr": 0.0001, "iterations": 400},
"val": {"iter": [0, 200, 400], "val_loss": [10.9, 6.5, 5.5]},
"train": {"iter": [100, 200, 300, 400], "train_loss": [8, 7, 6, 5.4], "train_lr": [1e-4, 1e-4, 1e-4, 1e-4]},
"final_val_loss": [3.1]}`
	imp, err = Read("stable.json", []byte(nested), Choice{})
	if err != nil || imp.Ambiguity == nil {
		t.Fatalf("got %v, %+v: want a question", err, imp)
	}
	wantOptions(t, "the losses", imp.Ambiguity.Columns, "train_loss", 4, "val_loss", 3)
	imp, err = Read("stable.json", []byte(nested), Choice{Column: "val_loss"})
	if err != nil {
		t.Fatal(err)
	}
	// the training LR starts at iter 100: the loss at iter 0, before any of it, is left out
	wantCurve(t, imp.Curves[0], "stable", []float64{200, 400}, []float64{6.5, 5.5}, []float64{1e-4, 1e-4})
	wantNote(t, imp, `"val_loss": left out 1 loss at step 0, outside the steps its learning rates "train_lr" are logged at (100 to 400)`)
	// a bad value is named by its column's line
	_, err = Read("bad.json", []byte("{\n\"iter\": [1, 2],\n\"loss\": [3.5, \"x\"]\n}"), Choice{})
	if err == nil || !strings.HasPrefix(err.Error(), "bad.json: line 3") {
		t.Errorf("got %v, want an error at line 3", err)
	}
	// losses nested by run beside a list of steps (the layout of the page's own Fig. 2 file) are
	// no layout of columns: the error says what is and where the steps are, not that the list
	// "is not a number"
	_, err = Read("fig2.json", []byte("{\"about\": \"x\", \"warmup\": 500,\n\"steps\": [1000, 2000],\n\"loss\": {\"cosine\": [3.5, 3.3], \"constant\": [3.5, 3.4]}}"), Choice{})
	want := `fig2.json: line 2, "steps": the steps are a list, but no list of losses of the same length is beside it: give each loss as a list next to the steps' ({"step": [...], "loss": [...]})`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v\nwant %s…", err, want)
	}
}

// The JSON of an Import is what the page reads: arrays are left out.
func TestReadJSONShape(t *testing.T) {
	imp := importSample(t, "trainer_state.json", Choice{})
	b, err := json.Marshal(imp)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"trainer_state.json","format":"hf-trainer-state","curves":[],"ambiguity":{"message":"trainer_state.json has 2 columns that may be the loss: choose one","columns":[{"name":"loss","kind":"train","points":6,"firstStep":10,"lastStep":60},{"name":"eval_loss","kind":"validation","points":2,"firstStep":30,"lastStep":60}],"default":"eval_loss","reason":"\"eval_loss\" is chosen: the validation loss, which the paper fits; \"loss\" is the training loss."},"notes":[]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	imp = importSample(t, "trainer_state.json", Choice{Column: "eval_loss"})
	b, _ = json.Marshal(imp)
	want = `{"name":"trainer_state.json","format":"hf-trainer-state","curves":[{"name":"trainer_state","file":"trainer_state.json","metric":"eval_loss","points":2,"hasLoss":true,"hasLR":true,"source":{"step":"step","loss":"eval_loss","lr":"learning_rate"}}],"loss":{"column":"eval_loss","candidates":[{"name":"loss","kind":"train","points":6,"firstStep":10,"lastStep":60},{"name":"eval_loss","kind":"validation","points":2,"firstStep":30,"lastStep":60}]},"notes":[]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// A value a thousand times its series' median (a typo's exponent, a logging glitch) is kept as
// logged, and named with its line; a learning-rate column of zeros is no schedule, and is left
// out with a note (it imported, and then every fit failed on it).
func TestReadNamesImplausibleValues(t *testing.T) {
	imp, err := Read("typo.csv", []byte("step,loss,lr\n100,3.5,3e-4\n200,3.4,3e2\n300,3.3,3e-4\n400,1e308,3e-4\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "typo", []float64{100, 200, 300, 400}, []float64{3.5, 3.4, 3.3, 1e308}, []float64{3e-4, 3e2, 3e-4, 3e-4})
	wantNote(t, imp, `"lr": 1 value more than 1000 times the median (0.0003), the first 300 at line 3: a typo or a logging glitch? kept as logged`)
	wantNote(t, imp, `"loss": 1 value more than 1000 times the median (3.5), the first 1e+308 at line 5`)
	// a multi-step schedule's levels span 100: nothing to say
	imp, err = Read("steps.csv", []byte("step,loss,lr\n100,3.5,1e-3\n200,3.4,1e-4\n300,3.3,1e-5\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Notes) != 0 {
		t.Errorf("notes %q on a multi-step schedule", imp.Notes)
	}
	imp, err = Read("zero.csv", []byte("step,loss,lr\n100,3.5,0\n200,3.4,0\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "zero", []float64{100, 200}, []float64{3.5, 3.4}, nil)
	wantNote(t, imp, `the learning rates "lr" are left out: every one is 0; give the run's schedule`)
}

// Exports and logs, written by programs, skip bad values with a note where a hand-made CSV
// file gets an error.
func TestReadLenientNotes(t *testing.T) {
	imp, err := Read("n.log", []byte("iter 1: loss 3.5, lr e, time 1ms\niter 2: loss 0, lr 1e-4\niter 3: loss nan, lr 1e-4\niter 4: loss 3.25, lr 1e-4\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "n", []float64{1, 4}, []float64{3.5, 3.25}, nil)
	wantNote(t, imp, `"loss": skipped 1 value that is not finite (the first at line 3)`)
	wantNote(t, imp, `"loss": skipped 1 value that is not positive (the first at line 2)`)
	wantNote(t, imp, `the learning rates "lr" are left out: n.log: line 1: "e" is not a number`)

	imp, err = Read("w.csv", []byte("Step,a - loss,a - lr\n1,3.5,\n2,3.4,0.5\n4,3.3,0.25\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	// an LR logged from the second row on, an interval (2 steps) after the first loss: the
	// learning rates reach it, continued linearly (a run resumed from a checkpoint logs so)
	wantCurve(t, imp.Curves[0], "a", []float64{1, 2, 4}, []float64{3.5, 3.4, 3.3}, []float64{0.625, 0.5, 0.25})
	wantNote(t, imp, `"lr" of run "a": the learning rate at step 1 (a loss before the first logged learning rate, at step 2) 0.625, continuing the logged ones linearly`)
	// farther than an interval, the losses before the learning rates are left out, not them
	imp, err = Read("w.csv", []byte("Step,a - loss,a - lr\n1,3.5,\n2,3.45,\n3,3.4,0.5\n4,3.3,0.25\n5,3.2,0.2\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "a", []float64{3, 4, 5}, []float64{3.4, 3.3, 3.2}, []float64{0.5, 0.25, 0.2})
	wantNote(t, imp, `"loss" of run "a": left out 2 losses at steps 1 to 2, outside the steps its learning rates "lr" of run "a" are logged at (3 to 5): the law needs the learning rate up to each step`)
	// from both ends: a loss at step 0 (nothing trained) is left out, and the last loss, an
	// interval after the last learning rate, reached (the trend continued, at least 0)
	imp, err = Read("w.csv", []byte("Step,a - loss,a - lr\n0,3.6,\n1,3.5,1\n2,3.4,0.5\n3,3.35,0.25\n4,3.3,\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "a", []float64{1, 2, 3, 4}, []float64{3.5, 3.4, 3.35, 3.3}, []float64{1, 0.5, 0.25, 0})
	wantNote(t, imp, `"lr" of run "a": the learning rate at step 4 (a loss after the last logged learning rate, at step 3) 0, continuing the logged ones linearly`)
	wantNote(t, imp, `"loss" of run "a": left out 1 loss at step 0, outside the steps its learning rates "lr" of run "a" are logged at (1 to 4)`)
	// learning rates logged over less than half of the loss are too few to be its schedule
	imp, err = Read("w.csv", []byte("Step,a - loss,a - lr\n1,3.5,\n2,3.4,\n3,3.35,\n4,3.3,0.5\n5,3.2,0.25\n6,3.1,\n7,3.05,\n8,3,\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "a", []float64{1, 2, 3, 4, 5, 6, 7, 8}, []float64{3.5, 3.4, 3.35, 3.3, 3.2, 3.1, 3.05, 3}, nil)
	wantNote(t, imp, `the learning rates "lr" of run "a" (steps 4 to 5) do not cover the steps of "loss" of run "a" (1 to 8)`)
	imp, err = Read("w.csv", []byte("Step,a - loss,a - lr\n1,3.5,1\n2,3.4,\n4,3.3,0.25\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "a", []float64{1, 2, 4}, []float64{3.5, 3.4, 3.3}, []float64{1, 0.75, 0.25})
	wantNote(t, imp, `"lr" of run "a": the learning rate at 1 step of "loss" of run "a" interpolated linearly between the logged ones`)
}
