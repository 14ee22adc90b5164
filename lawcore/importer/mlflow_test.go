package importer

import (
	"testing"
)

func TestReadMLflow(t *testing.T) {
	cases := []struct {
		name, text string
		choice     Choice
		curve      string
		steps      []float64
		loss, lr   []float64
		note       string
	}{
		{"loss", "1700000000000 3.5 10\n1700000000100 3.25 20\n1700000000200 3.125 30\n", Choice{}, "loss",
			[]float64{10, 20, 30}, []float64{3.5, 3.25, 3.125}, nil, ""},
		// MLflow writes Python's nan; a restarted run logs steps again: each step keeps its last
		// value, and the steps after it stay
		{"val_loss", "1700000000000 3.5 10\n1700000000100 nan 20\n1700000000200 3.25 20\n1700000000300 3.0 30\n1700000000400 3.1 20\n", Choice{}, "val_loss",
			[]float64{10, 20, 30}, []float64{3.5, 3.1, 3.0}, nil, `"val_loss": 1 step was logged again (the first at line 5: step 20 after step 30): kept the last value of each step`},
		// a value logged late, and one filed at step 0 at the end (a summary logged without a
		// step): each takes its place in step order, and no step after it is lost
		{"loss", "1700000000000 3.5 10\n1700000000100 3.25 30\n1700000000200 3.3 20\n1700000000300 3.0 40\n1700000000400 2.9 0\n", Choice{}, "loss",
			[]float64{0, 10, 20, 30, 40}, []float64{2.9, 3.5, 3.3, 3.25, 3.0}, nil, `"loss": 2 steps were logged after later steps (the first at line 3: step 20 after step 30): put in step order`},
		{"lr", "1700000000000 0.001 0\n1700000000100 0.0005 100\n", Choice{}, "lr", []float64{0, 100}, nil, []float64{0.001, 0.0005}, "a learning-rate file"},
		{"accuracy", "1700000000000 0.5 0\n1700000000100 0.75 100\n", Choice{Column: "accuracy"}, "accuracy", []float64{0, 100}, []float64{0.5, 0.75}, nil, ""},
		// Logged without a step, every value lands at step 0.
		{"loss", "1700000000000 3.5 0\n1700000000100 3.25 0\n", Choice{}, "loss", []float64{0}, []float64{3.25}, nil, `"loss": all 2 values were logged at step 0 (logged without a step?)`},
	}
	for _, c := range cases {
		imp, err := Read(c.name, []byte(c.text), c.choice)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if imp.Format != FormatMLflow {
			t.Errorf("%s: format %q", c.name, imp.Format)
		}
		wantCurve(t, imp.Curves[0], c.curve, c.steps, c.loss, c.lr)
		if c.note != "" {
			wantNote(t, imp, c.note)
		}
	}
}

func TestReadMLflowErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"loss", "1700000000000 3.5 10\n1700000000100 3.25\n", `loss: line 2: expected an MLflow metric line, ` + "`timestamp value step`" + `, got "1700000000100 3.25"`},
		{"loss", "1700000000000 3.5 10\n1700000000100 3.25 2.5\n", "loss: line 2, step: a step must be a whole number, zero or more, got 2.5"},
		{"loss", "1700000000000 3.5 10\n1700000000100 oops 20\n", `loss: line 2: "oops" is not a number`},
		{"loss", "1700000000000 -3.5 10\n", `loss: "loss" has no loss values (positive numbers)`},
		{"accuracy", "1700000000000 0.5 10\n", ""}, // a question: is it the loss?
	}
	for _, c := range cases {
		imp, err := Read(c.name, []byte(c.text), Choice{})
		wantRefused(t, c.text, imp, err, c.want)
	}
}

// A PyTorch Lightning metrics.csv: sparse rows, metrics interleaved, the LR monitor's columns
// read as learning rates (not its momentum).
func TestReadLightning(t *testing.T) {
	text := "epoch,lr-AdamW,lr-AdamW-momentum,step,train_loss,val_loss\n" +
		"0,1.0,0.9,0,,\n" +
		"0,,,7,4.5,\n" +
		"0,,,12,4.0,\n" +
		"0,,,12,,4.25\n" +
		"0,0.5,0.9,16,,\n" +
		"1,,,23,3.5,\n" +
		"1,,,28,3.25,\n" +
		"1,,,28,,3.75\n" +
		"1,0.25,0.9,32,,\n"
	imp, err := Read("metrics.csv", []byte(text), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Format != FormatLightning || imp.Ambiguity == nil {
		t.Fatalf("got %+v", imp)
	}
	wantOptions(t, "columns", imp.Ambiguity.Columns, "train_loss", 4, "val_loss", 2)
	imp, err = Read("metrics.csv", []byte(text), Choice{Column: "val_loss"})
	if err != nil {
		t.Fatal(err)
	}
	c := imp.Curves[0]
	// The learning rates are joined linearly between the steps they were logged at.
	wantCurve(t, c, "metrics", []float64{12, 28}, []float64{4.25, 3.75}, []float64{0.625, 0.3125})
	if c.Source.LR != "lr-AdamW" {
		t.Errorf("source %+v", c.Source)
	}

	// A parameter group's learning rate; a value that is not finite is skipped, not an error.
	imp, err = Read("metrics.csv", []byte("epoch,step,train_loss,lr-SGD/pg1\n0,0,inf,0.1\n0,10,3.5,0.1\n"), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "metrics", []float64{10}, []float64{3.5}, []float64{0.1})
	wantNote(t, imp, "skipped 1 value that is not finite (the first at line 2)")
}

func TestLRNames(t *testing.T) {
	for name, want := range map[string]bool{
		"lr-AdamW": true, "lr-SGD/pg1": true, "lr-AdamW/pg2": true, "train/learning_rate": true, "lr": true,
		"lr-AdamW-momentum": false, "lr-AdamW-weight_decay": false, "lr-Adam/pg1-momentum": false, "lr-Adam-beta1": false,
	} {
		if got := isLRName(name); got != want {
			t.Errorf("isLRName(%q) = %v", name, got)
		}
	}
}
