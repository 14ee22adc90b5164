package importer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// studyLog is a log of the cooldown study as its authors' scripts wrote it: val_loss every 200
// steps, train_loss every 50, and the one-point final_val_loss of a larger evaluation at the
// end (the repository's copies keep it without its step; here it has its table).
func studyLog(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "internal", "testcurves", "testdata", "lrsched-124m-lr1e-4", file))
	if err != nil {
		t.Fatal(err)
	}
	var run map[string]json.RawMessage
	if err := json.Unmarshal(data, &run); err != nil {
		t.Fatal(err)
	}
	var config struct {
		Iterations float64 `json:"iterations"`
	}
	if err := json.Unmarshal(run["config"], &config); err != nil {
		t.Fatal(err)
	}
	final, _ := json.Marshal(map[string]any{"iter": []float64{config.Iterations}, "final_val_loss": run["final_val_loss"]})
	run["final"] = final
	out, _ := json.Marshal(run)
	return out
}

// A one-point series never competes nor is the default; two real series do, and the question
// offers the validation loss first, saying why.
func TestReadStudyLogColumns(t *testing.T) {
	data := studyLog(t, "stable-50k.json")
	imp, err := Read("stable.json", data, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	amb := imp.Ambiguity
	if amb == nil || len(imp.Curves) != 0 {
		t.Fatalf("got %+v", imp)
	}
	wantOptions(t, "columns", amb.Columns, "final_val_loss", 1, "train_loss", 1000, "val_loss", 250)
	if !amb.Columns[0].Summary || amb.Columns[1].Summary || amb.Columns[2].Summary {
		t.Errorf("summaries: %+v", amb.Columns)
	}
	if amb.Default != "val_loss" {
		t.Errorf("default %q", amb.Default)
	}
	for _, part := range []string{`"val_loss" is chosen: the validation loss`, `"train_loss" is the training loss`, `"final_val_loss" has one point a run (a summary, not a curve)`} {
		if !strings.Contains(amb.Reason, part) {
			t.Errorf("reason %q lacks %q", amb.Reason, part)
		}
	}

	// Without the training loss, val_loss is read at once, and the answer says why.
	var run map[string]json.RawMessage
	_ = json.Unmarshal(data, &run)
	delete(run, "train")
	data, _ = json.Marshal(run)
	imp, err = Read("stable.json", data, Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Ambiguity != nil || len(imp.Curves) != 1 || imp.Curves[0].Metric != "val_loss" || imp.Curves[0].Points != 250 {
		t.Fatalf("got %+v", imp)
	}
	if imp.Loss == nil || imp.Loss.Column != "val_loss" || imp.Loss.Reason != `"val_loss" is chosen: "final_val_loss" has one point a run (a summary, not a curve).` {
		t.Errorf("loss %+v", imp.Loss)
	}
}

// The files of one upload read the same column: the one every file has, a validation loss
// first; a file without it keeps its own, and a training loss beside validation losses is said.
func TestAgree(t *testing.T) {
	opt := func(name string, points int) Option { return Option{Name: name, Points: points} }
	study := []Option{opt("final_val_loss", 1), opt("train_loss", 1000), opt("val_loss", 250)}
	ag := Agree([]FileColumns{
		{Name: "a.json", Candidates: study},
		{Name: "b.json", Chosen: "val_loss", Candidates: []Option{opt("final_val_loss", 1), opt("val_loss", 50)}},
		{Name: "lr.csv"},
	})
	if ag.Column != "val_loss" || !ag.Ask || strings.Join(ag.Files, ",") != "val_loss,val_loss," || len(ag.Notes) != 0 {
		t.Errorf("got %+v", ag)
	}
	if !strings.Contains(ag.Reason, "every file has it") || !strings.HasPrefix(ag.Message, "2 files have several columns") {
		t.Errorf("reason %q, message %q", ag.Reason, ag.Message)
	}

	// A file with the training loss alone: the others read it too, where they have it.
	ag = Agree([]FileColumns{
		{Name: "a.json", Candidates: study},
		{Name: "c.csv", Chosen: "train_loss", Candidates: []Option{opt("train_loss", 40)}},
	})
	if ag.Column != "train_loss" || strings.Join(ag.Files, ",") != "train_loss,train_loss" || len(ag.Notes) != 0 {
		t.Errorf("got %+v", ag)
	}
	if !strings.Contains(ag.Reason, "the loss every file has") {
		t.Errorf("reason %q", ag.Reason)
	}

	// No column in common: each file its own, and a training loss beside validation losses is said.
	ag = Agree([]FileColumns{
		{Name: "a.json", Chosen: "val_loss", Candidates: []Option{opt("val_loss", 250), opt("best_val_loss", 3)}},
		{Name: "b.json", Chosen: "val_loss", Candidates: []Option{opt("val_loss", 250)}},
		{Name: "c.csv", Chosen: "loss", Candidates: []Option{opt("loss", 40)}},
	})
	if ag.Ask || ag.Column != "val_loss" || strings.Join(ag.Files, ",") != "val_loss,val_loss,loss" {
		t.Errorf("got %+v", ag)
	}
	if len(ag.Notes) != 1 || ag.Notes[0] != `c.csv has no "val_loss": its "loss" is read, a training loss beside the others' validation loss` {
		t.Errorf("notes %q", ag.Notes)
	}
	if !ag.Columns[1].Summary {
		t.Errorf("best_val_loss is a summary: %+v", ag.Columns)
	}
}
