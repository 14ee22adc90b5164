package lawcore_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// The points one prediction returns are bounded in all: three schedules of 9,999,999 steps,
// every step asked for, pass MaxPredictPoints with the third, which is named; asked for 10,000
// points each they are computed (a few seconds) and returned.
func TestPredictTotalPointsBounded(t *testing.T) {
	long := lawcore.Schedule{Kind: lawcore.KindConstant, Total: lawcore.MaxScheduleSteps - 1, Peak: 2e-4}
	req := lawcore.PredictRequest{Params: lawcore.Values{"L0": 2.6, "A": 0.43, "alpha": 0.55, "C": 0.41, "lambda": 0.999},
		Curves: []lawcore.PredictCurve{{Name: "one", Schedule: &long}, {Name: "two", Schedule: &long}, {Name: "three", Schedule: &long}}}
	_, err := lawcore.Predict(req)
	if err == nil || !strings.Contains(err.Error(), `curves: more than the 20000000 predicted points in all that one prediction may return (curve "three"`) {
		t.Errorf("every step: got %v", err)
	}
	if testing.Short() {
		return
	}
	req.Points = 10000
	pr, err := lawcore.Predict(req)
	if err != nil || len(pr) != 3 || len(pr[2].Steps) > 10001 {
		t.Errorf("10,000 points each: got %v", err)
	}
}

// A loss of 0 or below is returned with a warning that names where it starts: a drop of the LR
// to 0 under a large C pulls the annealing law's loss down by C·S2 with nothing to bound it.
// The step named must be the first returned step at or below 0, the lowest value the lowest
// returned; the same parameters on a constant LR (S2 = 0) predict positive losses, unwarned.
func TestPredictWarnsOfNonPositiveLoss(t *testing.T) {
	params := lawcore.Values{"L0": 2.6, "A": 0.43, "alpha": 0.55, "C": 3000, "lambda": 0.999}
	drop := make([]float64, 2001)
	for i := range drop {
		if i <= 1000 {
			drop[i] = 2e-4
		}
	}
	flat := make([]float64, 2001)
	for i := range flat {
		flat[i] = 2e-4
	}
	for _, tc := range []struct {
		name string
		lr   []float64
		warn bool
	}{{"drop to 0", drop, true}, {"constant", flat, false}} {
		band := &lawcore.Band{Level: 0.9, Base: 0.01}
		pr, err := lawcore.Predict(lawcore.PredictRequest{Params: params, Curves: []lawcore.PredictCurve{{Name: tc.name, LR: tc.lr}}, Band: band})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		p := pr[0]
		for k, l := range p.Loss {
			if !(p.Lower[k] <= l && l <= p.Upper[k]) || p.Upper[k]-p.Lower[k] < 0.02*math.Abs(l)-1e-12 {
				t.Errorf("%s, step %.0f: band [%g, %g] does not hold the loss %g by its 1%% either side", tc.name, p.Steps[k], p.Lower[k], p.Upper[k], l)
				break
			}
		}
		if got := p.Warning != ""; got != tc.warn {
			t.Errorf("%s: warning %q, want one: %v", tc.name, p.Warning, tc.warn)
			continue
		}
		if !tc.warn {
			continue
		}
		first, low := -1, 0
		for k, l := range p.Loss {
			if l <= 0 && first < 0 {
				first = k
			}
			if l < p.Loss[low] {
				low = k
			}
		}
		want := fmt.Sprintf("the predicted loss falls to %.4g (at step %.0f; 0 or below from step %.0f)", p.Loss[low], p.Steps[low], p.Steps[first])
		if first <= 0 || !strings.HasPrefix(p.Warning, want) {
			t.Errorf("%s: warning %q, want it to begin %q", tc.name, p.Warning, want)
		}
	}
}
