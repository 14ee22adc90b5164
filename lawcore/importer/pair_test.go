package importer

import (
	"reflect"
	"strings"
	"testing"
)

// lossCurve and lrCurve build imported curves from a file over the given steps.
func lossCurve(file, run string, steps ...float64) *Curve {
	loss := make([]float64, len(steps))
	for i := range loss {
		loss[i] = 3
	}
	return &Curve{Name: fileStem(file), File: file, Run: run, Steps: steps, Loss: loss, HasLoss: true, Points: len(steps)}
}

func lrCurve(file, run string, steps ...float64) *Curve {
	lr := make([]float64, len(steps))
	for i := range lr {
		lr[i] = 1e-4
	}
	return &Curve{Name: fileStem(file), File: file, Run: run, Steps: steps, LR: lr, HasLR: true, Points: len(steps)}
}

func TestPairLR(t *testing.T) {
	cases := []struct {
		name   string
		curves []*Curve
		pairs  []LRPair
		notes  []string // a part of each note
	}{
		{"TensorBoard: the run in the file names",
			[]*Curve{
				lossCurve("run-a-tag-train_loss.csv", "", 100, 200),
				lossCurve("run-b-tag-train_loss.csv", "", 100, 200),
				lrCurve("run-b-tag-learning_rate.csv", "", 0, 200),
				lrCurve("run-a-tag-learning_rate.csv", "", 0, 300),
			},
			[]LRPair{{Loss: 1, LR: 2}, {Loss: 0, LR: 3}}, nil},
		{"W&B exports: the runs in the files; both loss columns of a run get its LR",
			[]*Curve{
				lossCurve("loss.csv", "cosine", 10, 20), lossCurve("loss.csv", "wsd", 10, 20),
				lossCurve("val.csv", "cosine", 10, 20),
				lrCurve("lr.csv", "wsd", 0, 20), lrCurve("lr.csv", "cosine", 0, 20),
			},
			[]LRPair{{Loss: 1, LR: 3}, {Loss: 0, LR: 4}, {Loss: 2, LR: 4}}, nil},
		{"one loss file and one LR file, no runs",
			[]*Curve{lrCurve("lr.csv", "", 1, 500), lossCurve("my-run.csv", "", 100, 500)},
			[]LRPair{{Loss: 1, LR: 0}}, nil},
		{"a TensorBoard LR file and a CSV loss file without a run",
			[]*Curve{lossCurve("my-run.csv", "", 100, 500), lrCurve("run-x-tag-lr.csv", "", 0, 500)},
			[]LRPair{{Loss: 0, LR: 1}}, nil},
		{"one LR file for one run's two loss curves",
			[]*Curve{lossCurve("run-x-tag-train_loss.csv", "", 1, 5), lossCurve("run-x-tag-val_loss.csv", "", 2, 4), lrCurve("lr.csv", "", 0, 5)},
			[]LRPair{{Loss: 0, LR: 2}, {Loss: 1, LR: 2}}, nil},
		{"one LR file, two loss files of no named run: which is unknown",
			[]*Curve{lossCurve("a.csv", "", 1, 5), lossCurve("b.csv", "", 1, 5), lrCurve("lr.csv", "", 0, 5)},
			nil, []string{"lr.csv holds learning rates only, and which loss curve they belong to is not clear"}},
		{"two LR files, one loss file: which is unknown",
			[]*Curve{lossCurve("a.csv", "", 1, 5), lrCurve("lr1.csv", "", 0, 5), lrCurve("lr2.csv", "", 0, 5)},
			nil, []string{"lr1.csv holds learning rates only, and which", "lr2.csv holds learning rates only, and which"}},
		{"runs that differ are not paired",
			[]*Curve{lossCurve("run-a-tag-loss.csv", "", 1, 5), lrCurve("run-b-tag-lr.csv", "", 0, 5)},
			nil, []string{"run-b-tag-lr.csv holds learning rates only, and which loss curve they belong to is not clear"}},
		{"an LR file alone",
			[]*Curve{lrCurve("lr.csv", "", 0, 5)},
			nil, []string{"lr.csv holds learning rates only: give it together with the loss file it belongs to"}},
		{"learning rates that stop before the loss does, by more than an interval",
			[]*Curve{lossCurve("run-a-tag-loss.csv", "", 100, 600), lrCurve("run-a-tag-lr.csv", "", 0, 100, 200)},
			nil, []string{`run-a-tag-lr.csv: the learning rates cover steps 0 to 200, but "run-a-tag-loss" has step 600: not merged`}},
		{"learning rates that start after the loss does, by more than an interval",
			[]*Curve{lossCurve("loss.csv", "", 100, 600), lrCurve("lr.csv", "", 400, 500, 600)},
			nil, []string{`lr.csv: the learning rates cover steps 400 to 600, but "loss" has step 100: not merged`}},
		{"a cooldown's learning rates, logged from one interval after its branch step: continued to it",
			[]*Curve{lossCurve("run-c-tag-loss.csv", "", 20000, 20050, 20100, 20150), lrCurve("run-c-tag-lr.csv", "", 20050, 20100, 20150)},
			[]LRPair{{Loss: 0, LR: 1, Reach: []LRPoint{{Step: 20000, LR: 1e-4}}}},
			[]string{`"run-c-tag-loss", from run-c-tag-lr.csv: the learning rate at step 20000 (a loss before the first logged learning rate, at step 20050) 0.0001, continuing the logged ones linearly`}},
		{"learning rates given as steps alone (a request without their values): no continuing",
			[]*Curve{lossCurve("run-c-tag-loss.csv", "", 20000, 20050, 20100, 20150), {Name: "lr", File: "run-c-tag-lr.csv", Steps: []float64{20050, 20100, 20150}, HasLR: true, Points: 3}},
			[]LRPair{{Loss: 0, LR: 1, Keep: []int{1, 4}}}, []string{`left out 1 loss at step 20000`}},
		{"learning rates logged from the loss's second step: the first is left out",
			[]*Curve{lossCurve("run-a-tag-loss.csv", "", 0, 100, 200, 300), lrCurve("run-a-tag-lr.csv", "", 100, 300)},
			[]LRPair{{Loss: 0, LR: 1, Keep: []int{1, 4}}}, []string{`"run-a-tag-loss": left out 1 loss at step 0, outside the steps its learning rates from run-a-tag-lr.csv are logged at (100 to 300)`}},
		{"curves with both loss and LR are left alone",
			[]*Curve{{Name: "both", File: "both.csv", Steps: []float64{1}, Loss: []float64{3}, LR: []float64{1}, HasLoss: true, HasLR: true}, lossCurve("a.csv", "", 1, 2), lrCurve("lr.csv", "", 0, 2)},
			[]LRPair{{Loss: 1, LR: 2}}, nil},
		{"nothing to pair", []*Curve{lossCurve("a.csv", "", 1, 2), nil}, nil, nil},
	}
	for _, c := range cases {
		pairs, notes := PairLR(c.curves)
		if !reflect.DeepEqual(pairs, c.pairs) {
			t.Errorf("%s: pairs %v, want %v", c.name, pairs, c.pairs)
		}
		if len(notes) != len(c.notes) {
			t.Errorf("%s: notes %q, want %d", c.name, notes, len(c.notes))
			continue
		}
		for i, part := range c.notes {
			if !strings.Contains(notes[i], part) {
				t.Errorf("%s: note %q, want it to contain %q", c.name, notes[i], part)
			}
		}
	}
}

// The TensorBoard downloads of one run's loss and learning rate pair, and merge.
func TestPairLRTensorBoardFiles(t *testing.T) {
	loss := importSample(t, "run-cosine_20k-tag-train_loss.json", Choice{}).Curves[0]
	lr := importSample(t, "run-cosine_20k-tag-learning_rate.json", Choice{}).Curves[0]
	pairs, notes := PairLR([]*Curve{lr, loss})
	if !reflect.DeepEqual(pairs, []LRPair{{Loss: 1, LR: 0}}) || len(notes) != 0 {
		t.Fatalf("pairs %v, notes %q", pairs, notes)
	}
	if _, err := MergeLR(loss, lr); err != nil {
		t.Errorf("a pair does not merge: %v", err)
	}
}

func TestTensorBoardRun(t *testing.T) {
	for name, want := range map[string]string{
		"run-cosine_20k-tag-train_loss.csv": "cosine_20k",
		"downloads/run_wsd-tag-lr.json":     "wsd",
		"my-run-tag-loss.csv":               "my-run",
		"run-a-tag-b-tag-loss.csv":          "a-tag-b",
		"cosine.csv":                        "",
		"-tag-loss.csv":                     "",
		`C:\Users\me\run-x-tag-lr.csv`:      "x",
		"run--tag-lr.csv":                   "run-",
	} {
		if got := tensorBoardRun(name); got != want {
			t.Errorf("tensorBoardRun(%q) = %q, want %q", name, got, want)
		}
	}
}

// FuzzPairLR pairs curves built from arbitrary bytes: each pair joins a loss curve without
// learning rates to a learning-rate curve without loss that covers its steps (with the
// learning rates its reach adds), and no loss curve gets two.
func FuzzPairLR(f *testing.F) {
	f.Add([]byte{0, 1, 10, 20, 1, 1, 0, 30, 2, 0, 5, 5})
	f.Add([]byte{0, 0, 1, 2, 0, 0, 1, 2, 1, 2, 0, 9})
	runs := []string{"", "a", "b"}
	files := []string{"loss.csv", "lr.csv", "run-a-tag-loss.csv", "run-b-tag-lr.csv", ""}
	f.Fuzz(func(t *testing.T, data []byte) {
		var curves []*Curve
		for ; len(data) >= 4; data = data[4:] {
			kind, who, first, span := data[0]%4, data[1], float64(data[2]), float64(data[3])
			c := &Curve{Name: "c", File: files[int(who)%len(files)], Run: runs[int(who/8)%len(runs)], Steps: []float64{first, first + span + 1}}
			switch kind {
			case 0:
				c.Loss, c.HasLoss = []float64{3, 2}, true
			case 1:
				c.LR, c.HasLR = []float64{1, 1}, true
			case 2:
				c.Loss, c.LR, c.HasLoss, c.HasLR = []float64{3, 2}, []float64{1, 1}, true, true
			default:
				c = nil
			}
			curves = append(curves, c)
		}
		pairs, _ := PairLR(curves)
		seen := map[int]bool{}
		for _, p := range pairs {
			loss, lr := curves[p.Loss], curves[p.LR]
			if !loss.HasLoss || loss.HasLR || !lr.HasLR || lr.HasLoss || seen[p.Loss] {
				t.Fatalf("pair %v joins %+v and %+v", p, loss, lr)
			}
			first, last := lr.Steps[0], lr.Steps[1]
			for _, r := range p.Reach {
				first, last = min(first, r.Step), max(last, r.Step)
			}
			if loss.Steps[0] < first || loss.Steps[1] > last {
				t.Fatalf("pair %v: the learning rates %v (reaching %v to %v) do not cover the steps %v", p, lr.Steps, first, last, loss.Steps)
			}
			seen[p.Loss] = true
			if _, err := MergeLR(loss, lr); err != nil {
				t.Fatalf("pair %v does not merge: %v", p, err)
			}
		}
	})
}
