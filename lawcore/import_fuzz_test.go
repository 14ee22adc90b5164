package lawcore

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzImportFile feeds ImportFile arbitrary files and choices: it must return an *InputError
// or curves whose steps are strictly increasing whole numbers, losses positive and learning
// rates not negative, all finite.
func FuzzImportFile(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "import", "*"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(filepath.Base(file), data, "", false)
	}
	f.Add("trainer_state.json", []byte(`{"log_history":[{"step":1,"loss":2,"learning_rate":1e-4},{"step":1,"eval_loss":NaN}]}`), "eval_loss", false)
	f.Add("megatron.log", []byte(" iteration 10/ 100 | learning rate: 1E-4 | lm loss: 3 |\n validation loss at iteration 10 | lm loss value: 2 |\n"), "validation lm loss", false)
	f.Add("x.csv", []byte("run,step,loss,lr\na,1,2,0.1\nb,1,2,\n"), "loss", true)
	f.Add("h.jsonl", []byte("{\"_step\": 1, \"loss\": 2}\n{\"_step\": 1, \"loss\": 3}\n"), "", false)
	f.Fuzz(func(t *testing.T, name string, data []byte, column string, asLR bool) {
		imp, err := ImportFile(name, data, ImportChoice{Column: column, AsLR: asLR})
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *InputError", err)
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
				if _, err := MergeLR(c, &ImportedCurve{File: "lr", Steps: []float64{0, 1e6}, LR: []float64{1, 0}, HasLR: true}); err != nil {
					var ie *InputError
					if !errors.As(err, &ie) {
						t.Fatalf("MergeLR error %v is not an *InputError", err)
					}
				}
			}
		}
	})
}
