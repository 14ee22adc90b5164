package auto

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

func TestBinned(t *testing.T) {
	steps := []float64{1000, 1010, 1020, 1030, 1040, 1050, 1060, 1070, 1080, 1090}
	loss := []float64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0.5}
	for _, c := range []struct {
		name                string
		steps, loss         []float64
		from                float64
		most                int
		wantSteps, wantLoss []float64
	}{
		{"under the cap: as it is", steps, loss, 0, 10, steps, loss},
		// ten points, at most four: runs of three (the last of one), each mean at its middle step
		{"the whole curve", steps, loss, 0, 4, []float64{1010, 1040, 1070, 1090}, []float64{8, 5, 2, 0.5}},
		// the points before the window are kept as they are; the window's six go in runs of two
		{"from step 1040", steps, loss, 1040, 3, []float64{1000, 1010, 1020, 1030, 1040, 1060, 1080}, []float64{9, 8, 7, 6, 4.5, 2.5, 0.75}},
		// runs of three, but none wider than 5% of its first step: pairs (100-104 of 105, 108-112 of 113.4)
		{"early, where the curve bends", []float64{100, 104, 108, 112, 116, 120}, []float64{6, 5, 4, 3, 2, 1}, 0, 2,
			[]float64{100, 108, 116}, []float64{5.5, 3.5, 1.5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := binned(lawcore.Curve{Name: "c", Steps: c.steps, Loss: c.loss, From: c.from}, c.most)
			if !slices.Equal(got.Steps, c.wantSteps) || !slices.Equal(got.Loss, c.wantLoss) {
				t.Errorf("got steps %v loss %v, want %v %v", got.Steps, got.Loss, c.wantSteps, c.wantLoss)
			}
			if got.From != c.from || got.Name != "c" {
				t.Errorf("the curve's window and name changed: %+v", got)
			}
		})
	}
	// the curve binned is a copy: the caller's arrays are untouched
	if loss[0] != 9 || steps[1] != 1010 {
		t.Errorf("binned wrote into its input")
	}
}

// On dense logs (a loss every step) auto's fold fits are fitted on the runs' means and scored
// on an even sample of each curve held out (heldOutPoints of its window, its last point among
// them), and a fit on the means recovers the law that drew the points as a fit on all of them
// does (on three 30,000-step runs with 0.02% noise, the means of about 60 points each). A
// validation's folds score every point.
func TestAutoFoldsOfDenseCurves(t *testing.T) {
	truth := annealing.Params{L0: 2.4, A: 0.5, Alpha: 0.45, C: 0.35, Lambda: 0.999}
	rng := rand.New(rand.NewPCG(1, 2))
	req := lawcore.FitRequest{Lambda: lawcore.FixedLambda(truth.Lambda), WarmupConvention: string(schedule.WarmupPeak)}
	for _, s := range []schedule.Schedule{
		{Kind: schedule.KindCosine, Total: 30000, Peak: 3e-4, Warmup: 500, Final: 3e-5},
		{Kind: schedule.KindConstant, Total: 30000, Peak: 3e-4, Warmup: 500},
		{Kind: schedule.KindWSD, Total: 30000, Peak: 3e-4, Warmup: 500, Decay: "1-sqrt", DecayFraction: 0.2},
	} {
		lr, err := s.LR()
		if err != nil {
			t.Fatal(err)
		}
		a, err := schedule.ComputeAreas(schedule.CountedLR(lr, s.Warmup, schedule.WarmupPeak), truth.Lambda)
		if err != nil {
			t.Fatal(err)
		}
		c := lawcore.Curve{Name: s.Kind, Schedule: &s, From: 500}
		for st := 1; st <= s.Total; st++ {
			c.Steps = append(c.Steps, float64(st))
			c.Loss = append(c.Loss, truth.Loss(a.S1[st], a.S2[st])*(1+2e-4*rng.NormFloat64()))
		}
		req.Curves = append(req.Curves, c)
	}
	_, every := autoFolds(req, 0)
	_, folds := autoFolds(req, heldOutPoints)
	if len(folds) != 6 || len(every) != 6 {
		t.Fatalf("%d and %d folds, want 6 (each curve left out, each forecast)", len(folds), len(every))
	}
	for fi, f := range folds {
		for ci, c := range f.req.Curves {
			switch {
			case c.Role == lawcore.RoleValidate:
				// the sample: heldOutPoints of the window, from its first point to its last, in
				// order, each a point of the curve as held out in full
				all := every[fi].req.Curves[ci]
				w := windowStart(all)
				if len(all.Steps)-w <= heldOutPoints {
					t.Fatalf("%s: %s holds out %d points: too few to sample", f.label, c.Name, len(all.Steps)-w)
				}
				in := len(c.Steps) - windowStart(c)
				if in != heldOutPoints || c.Steps[len(c.Steps)-1] != all.Steps[len(all.Steps)-1] || c.Steps[windowStart(c)] != all.Steps[w] {
					t.Errorf("%s: %s scored on %d points of its window from step %v to %v, want %d from %v to %v",
						f.label, c.Name, in, c.Steps[windowStart(c)], c.Steps[len(c.Steps)-1], heldOutPoints, all.Steps[w], all.Steps[len(all.Steps)-1])
				}
				for k, st := range c.Steps {
					j, found := slices.BinarySearch(all.Steps, st)
					if !found || all.Loss[j] != c.Loss[k] || k > 0 && !(st > c.Steps[k-1]) {
						t.Fatalf("%s: %s: point %d (step %v) is not the held-out curve's, in order", f.label, c.Name, k, st)
					}
				}
			default:
				// at most foldFitPoints means, and the narrower runs early (binned's bound)
				w := windowStart(c)
				most := foldFitPoints + int(math.Ceil(math.Log(c.Steps[len(c.Steps)-1]/c.Steps[w])/math.Log1p(binSpan)))
				if n := len(c.Steps) - w; n > most {
					t.Errorf("%s: %s is fitted on %d points of its window, want at most %d", f.label, c.Name, n, most)
				}
			}
		}
	}
	// the first fold's fit: two curves' means, the third held out
	res, err := Fit(context.Background(), folds[0].req, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"L0": truth.L0, "A": truth.A, "alpha": truth.Alpha, "C": truth.C} {
		if got := res.Params[name]; !(math.Abs(got-want) <= 0.01*want) {
			t.Errorf("%s: %s = %.5f from the means, want %.5f within 1%%", folds[0].label, name, got, want)
		}
	}
	if e := res.ValidateMetrics.PredE; !(e < 1e-3) {
		t.Errorf("%s: held-out PredE %.5f, want below 0.1%% (the noise is 0.02%%)", folds[0].label, e)
	}
}
