package importer

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	lw "github.com/lawcalc/annealing/lawcore/importer/internal/logwrite"
)

// runFolder is a folder of runs as researchers keep them: TensorBoard event files (one run
// restarted into a second file), a Lightning version directory, an MLflow run, and a run whose
// learning rates were written apart from its loss.
func runFolder() []File {
	first := lw.EventFile(
		lw.Event(10, lw.Scalar{Tag: "train/loss", Value: 4}, lw.Scalar{Tag: "train/lr", Value: 1e-3, As: lw.TensorDouble}),
		lw.Event(20, lw.Scalar{Tag: "train/loss", Value: 3.5}, lw.Scalar{Tag: "train/lr", Value: 8e-4, As: lw.TensorDouble}),
		lw.Event(30, lw.Scalar{Tag: "train/loss", Value: 3.25}, lw.Scalar{Tag: "train/lr", Value: 6e-4, As: lw.TensorDouble}),
	)
	restarted := lw.EventFile(
		lw.Event(30, lw.Scalar{Tag: "train/loss", Value: 3.125}, lw.Scalar{Tag: "train/lr", Value: 6e-4, As: lw.TensorDouble}),
		lw.Event(40, lw.Scalar{Tag: "train/loss", Value: 3}, lw.Scalar{Tag: "train/lr", Value: 4e-4, As: lw.TensorDouble}),
	)
	return []File{
		{"runs/cosine/events.out.tfevents.1700000900.host.7.0", restarted},
		{"runs/cosine/events.out.tfevents.1700000000.host.5.0", first},
		{"runs/wsd/version_0/metrics.csv", []byte("epoch,step,train_loss,lr-AdamW\n0,0,,0.001\n0,10,4.5,\n0,20,3.75,0.001\n0,30,,0.0005\n0,30,3.5,\n")},
		{"runs/wsd/version_0/hparams.yaml", []byte("lr: 0.001\n")},
		{"runs/mlruns/0/9f1c/metrics/train/loss", []byte("1700000000000 4.25 10\n1700000000100 3.75 20\n")},
		{"runs/mlruns/0/9f1c/metrics/lr", []byte("1700000000000 0.002 10\n1700000000100 0.001 20\n")},
		{"runs/mlruns/0/9f1c/tags/mlflow.runName", []byte("constant")},
		{"runs/mlruns/0/9f1c/params/lr", []byte("0.002")},
		{"runs/mlruns/0/9f1c/meta.yaml", []byte("run_id: 9f1c\n")},
		{"runs/mlruns/0/meta.yaml", []byte("name: Default\n")},
		{"runs/apart/events.out.tfevents.1700000000.host.9.0", lw.EventFile(lw.Event(10, lw.Scalar{Tag: "loss", Value: 4}), lw.Event(20, lw.Scalar{Tag: "loss", Value: 3}))},
		{"runs/apart/schedule.csv", []byte("step,lr\n0,0.001\n20,0.0005\n")},
		{"runs/notes.md", []byte("# what I ran\n")},
	}
}

func TestReadFiles(t *testing.T) {
	imp, err := ReadFiles(runFolder(), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Name != "runs" || imp.Format != FormatFolder || imp.Ambiguity != nil {
		t.Fatalf("got %+v", imp)
	}
	want := []struct {
		name, run string
		files     []string
		steps     []float64
		loss, lr  []float64
	}{
		{"apart loss", "apart", []string{"runs/apart/events.out.tfevents.1700000000.host.9.0", "runs/apart/schedule.csv"},
			[]float64{10, 20}, []float64{4, 3}, []float64{0.00075, 0.0005}},
		{"cosine train/loss", "cosine", []string{"runs/cosine/events.out.tfevents.1700000000.host.5.0", "runs/cosine/events.out.tfevents.1700000900.host.7.0"},
			[]float64{10, 20, 30, 40}, []float64{4, 3.5, 3.125, 3}, []float64{1e-3, 8e-4, 6e-4, 4e-4}},
		{"constant train/loss", "constant", []string{"runs/mlruns/0/9f1c/metrics/train/loss", "runs/mlruns/0/9f1c/metrics/lr"},
			[]float64{10, 20}, []float64{4.25, 3.75}, []float64{0.002, 0.001}},
		{"wsd/version_0 train_loss", "wsd/version_0", []string{"runs/wsd/version_0/metrics.csv"},
			[]float64{10, 20, 30}, []float64{4.5, 3.75, 3.5}, []float64{0.001, 0.001, 0.0005}},
	}
	if len(imp.Curves) != len(want) {
		t.Fatalf("%d curves: %+v", len(imp.Curves), imp.Curves)
	}
	for i, w := range want {
		c := imp.Curves[i]
		wantCurve(t, c, w.name, w.steps, w.loss, w.lr)
		if c.Run != w.run || !reflect.DeepEqual(c.Files, w.files) || c.File != w.files[0] {
			t.Errorf("%s: run %q, file %q, files %q", w.name, c.Run, c.File, c.Files)
		}
	}
	for _, n := range []string{
		`runs/cosine: "train/loss": the run restarted at step 30 (record 2 of runs/cosine/events.out.tfevents.1700000900.host.7.0, after step 30): the 1 value the earlier run logged from there on is dropped`,
		"skipped 2 files (not a log format I know): runs/notes.md, runs/wsd/version_0/hparams.yaml",
		"skipped 4 files (MLflow run metadata, not a metric): runs/mlruns/0/9f1c/tags/mlflow.runName, runs/mlruns/0/9f1c/params/lr, runs/mlruns/0/9f1c/meta.yaml, runs/mlruns/0/meta.yaml",
	} {
		wantNote(t, imp, n)
	}
}

// The choice of a loss column applies to every file that has it; the others keep their only
// candidate. Runs may be chosen by name.
func TestReadFilesChoice(t *testing.T) {
	lightning := func(val float64) []byte {
		v := strconv.FormatFloat(val, 'g', -1, 64)
		return []byte("epoch,step,train_loss,val_loss\n0,10,4,\n0,10,," + v + "\n0,20,3.5,\n0,20,," + v + "\n")
	}
	files := []File{
		{"logs/a/version_0/metrics.csv", lightning(4.5)},
		{"logs/b/version_0/metrics.csv", lightning(4.25)},
		{"logs/c/events.out.tfevents.1.h", lw.EventFile(lw.Event(5, lw.Scalar{Tag: "loss", Value: 5}))},
	}
	imp, err := ReadFiles(files, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Ambiguity == nil || len(imp.Curves) != 0 {
		t.Fatalf("got %+v", imp)
	}
	wantOptions(t, "columns", imp.Ambiguity.Columns, "train_loss", 4, "val_loss", 4)
	if !strings.HasPrefix(imp.Ambiguity.Message, "2 files have several columns that may be the loss (logs/a/version_0/metrics.csv, logs/b/version_0/metrics.csv)") {
		t.Errorf("message %q", imp.Ambiguity.Message)
	}
	// offered first: the validation loss both files hold (c's one-point loss is no rival)
	if imp.Ambiguity.Default != "val_loss" || !strings.Contains(imp.Ambiguity.Reason, "validation loss") {
		t.Errorf("default %q, reason %q", imp.Ambiguity.Default, imp.Ambiguity.Reason)
	}

	imp, err = ReadFiles(files, Choice{Column: "val_loss"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range imp.Curves {
		names = append(names, c.Name)
	}
	if want := []string{"a/version_0 val_loss", "b/version_0 val_loss", "c loss"}; !reflect.DeepEqual(names, want) {
		t.Errorf("curves %q, want %q", names, want)
	}

	imp, err = ReadFiles(files, Choice{Column: "train_loss", Runs: []string{"c", "b/version_0"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Curves) != 2 || imp.Curves[0].Name != "b/version_0 train_loss" || imp.Curves[1].Name != "c loss" {
		t.Errorf("curves %+v", imp.Curves)
	}
	if _, err := ReadFiles(files, Choice{Runs: []string{"d"}, Column: "val_loss"}); err == nil || err.Error() != `logs: no run "d": the runs are "a/version_0", "b/version_0", "c"` {
		t.Errorf("unknown run: %v", err)
	}
	// a and b have two candidates and neither is "loss": they are left out, and say why.
	imp, err = ReadFiles(files, Choice{Column: "loss"})
	if err != nil || len(imp.Curves) != 1 {
		t.Fatalf("got %v, %v", imp, err)
	}
	wantNote(t, imp, `skipped 2 files ("train_loss", "val_loss" may be the loss, and none is called "loss": choose one of them to read it): logs/a/version_0/metrics.csv, logs/b/version_0/metrics.csv`)
}

// Files given one by one (no folder): each is its own run, and a TensorBoard download of the
// learning rates joins the loss of the same run.
func TestReadFilesLoose(t *testing.T) {
	files := []File{
		{"run-a-tag-train_loss.csv", []byte("Wall time,Step,Value\n1,10,4\n2,20,3\n")},
		{"run-a-tag-learning_rate.csv", []byte("Wall time,Step,Value\n1,0,0.5\n2,20,0.25\n")},
		{"run-b-tag-train_loss.csv", []byte("Wall time,Step,Value\n1,10,5\n")},
		{"events.out.tfevents.1.h", lw.EventFile(lw.Event(5, lw.Scalar{Tag: "loss", Value: 5}))},
		{"events.out.tfevents.2.h", lw.EventFile(lw.Event(5, lw.Scalar{Tag: "loss", Value: 4}))},
	}
	imp, err := ReadFiles(files, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range imp.Curves {
		names = append(names, c.Name)
	}
	want := []string{"events.out.tfevents.1 loss", "events.out.tfevents.2 loss", "run-a-tag-train_loss", "run-b-tag-train_loss"}
	if imp.Name != "the files given" || !reflect.DeepEqual(names, want) {
		t.Fatalf("name %q, curves %q, want %q", imp.Name, names, want)
	}
	wantCurve(t, imp.Curves[2], "run-a-tag-train_loss", []float64{10, 20}, []float64{4, 3}, []float64{0.375, 0.25})
	if f := imp.Curves[2].Files; !reflect.DeepEqual(f, []string{"run-a-tag-train_loss.csv", "run-a-tag-learning_rate.csv"}) {
		t.Errorf("files %q", f)
	}
}

// A folder of runs saved a CSV each (step, lr, loss): the files of one directory that hold
// the same metric and name no run are each the run of its file, in a folder as in a zip; a run
// folder's files that hold different metrics stay its run's.
func TestReadFilesOneRunPerFile(t *testing.T) {
	csv := func(loss string) []byte { return []byte("step,lr,loss\n10,0.5,4\n20,0.25," + loss + "\n") }
	files := []File{{"runs/cosine.csv", csv("3")}, {"runs/wsd.csv", csv("2.5")}}
	for _, tt := range []struct {
		what  string
		read  func() (*Result, error)
		names []string
	}{
		{"a folder", func() (*Result, error) { return ReadFiles(files, Choice{}) }, []string{"runs/cosine loss", "runs/wsd loss"}},
		{"a zip", func() (*Result, error) {
			return Read("two.zip", lw.Zip(lw.File{Name: files[0].Path, Data: files[0].Data}, lw.File{Name: files[1].Path, Data: files[1].Data}), Choice{})
		}, []string{"runs/cosine loss", "runs/wsd loss"}},
		{"one run's files", func() (*Result, error) {
			return ReadFiles([]File{{"run/loss.csv", []byte("step,loss\n10,4\n20,3\n")}, {"run/val.csv", []byte("step,val_loss\n10,4.5\n20,3.5\n")}}, Choice{})
		}, []string{"run loss", "run val_loss"}},
	} {
		imp, err := tt.read()
		if err != nil {
			t.Fatalf("%s: %v", tt.what, err)
		}
		var names, runs []string
		for _, c := range imp.Curves {
			names, runs = append(names, c.Name), append(runs, c.Run)
		}
		sort.Strings(names)
		if !reflect.DeepEqual(names, tt.names) {
			t.Errorf("%s: curves %q, want %q", tt.what, names, tt.names)
		}
		if tt.what == "a folder" && !reflect.DeepEqual(runs, []string{"runs/cosine", "runs/wsd"}) {
			t.Errorf("%s: runs %q", tt.what, runs)
		}
	}
}

func TestReadFilesErrors(t *testing.T) {
	cases := []struct {
		files []File
		want  string
	}{
		{nil, "the files given: no files given"},
		{[]File{{"x/a.png", []byte("\x89PNG\r\n\x1a\n\x00")}, {"x/b.txt", []byte("hello\n")}},
			"x: found no log I can read: x/a.png: a binary file, not a log; x/b.txt: not a log format I know"},
		{[]File{{"x/events.out.tfevents.1.h", lw.EventFile(lw.Event(1, lw.Scalar{Tag: "accuracy", Value: 1}))}},
			`x: found no log I can read: x/events.out.tfevents.1.h: no column is named like a loss or a learning rate: the file has "accuracy"`},
		{[]File{{"x/a.csv", []byte("step,loss,val_loss\n1,2,3\n")}}, ""}, // a question
	}
	for _, c := range cases {
		imp, err := ReadFiles(c.files, Choice{})
		wantRefused(t, fmt.Sprint(len(c.files), " files"), imp, err, c.want)
	}
	// A corrupt file among good ones is skipped, and says why.
	files := append(runFolder(), File{"runs/broken/events.out.tfevents.1.h", []byte("\x17\x00\x00\x00\x00\x00\x00\x00garbage")})
	imp, err := ReadFiles(files, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantNote(t, imp, "skipped runs/broken/events.out.tfevents.1.h: named like a TensorBoard event file, but the checksum of its first record's length does not match")
}

func TestRunDisplayNames(t *testing.T) {
	cases := []struct {
		dirs []string
		want map[string]string
	}{
		{[]string{"runs/a", "runs/b"}, map[string]string{"runs/a": "a", "runs/b": "b"}},
		{[]string{"lightning_logs/version_0"}, map[string]string{"lightning_logs/version_0": "version_0"}},
		{[]string{"logs.zip"}, map[string]string{"logs.zip": "logs"}},
		{[]string{"x/runs", "x/runs/a"}, map[string]string{"x/runs": "runs", "x/runs/a": "runs/a"}},
		{[]string{"m/0/r1", "m/0/r2"}, map[string]string{"m/0/r1": "same", "m/0/r2": "same (r2)"}},
	}
	for _, c := range cases {
		got := runDisplayNames(c.dirs, map[string]string{"m/0/r1": "same", "m/0/r2": "same"})
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.dirs, got, c.want)
		}
	}
}
