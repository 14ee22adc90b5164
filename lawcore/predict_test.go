package lawcore_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// The points one prediction returns are bounded in all: three schedules of 9,999,999 steps,
// every step asked for, pass MaxPredictPoints with the third, which is named; asked for 10,000
// points each they are computed (a few seconds) and returned.
func TestPredictTotalPointsBounded(t *testing.T) {
	long := schedule.Schedule{Kind: schedule.KindConstant, Total: schedule.MaxSteps - 1, Peak: 2e-4}
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
		band := &lawcore.Band{Level: 0.9, Discrepancy: []lawcore.BandNode{{Distance: 0, HalfWidth: 0.01}}}
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

// A schedule's "warmup": 0 is a run without warmup, not "the request's warmup setting": with
// warmupSteps 500 and the warmup counted as run, a constant LR eta from step 0 has
// S1 = eta·(s+1) at step s (steps 0..s) and S2 = 0, so its loss is L0 + A·(eta·(s+1))^-alpha;
// a description that leaves "warmup" out takes the 500 steps (the same as "warmup": 500). A
// one-cycle has its own rise and takes no warmup either way: PyTorch's OneCycleLR starts at
// eta/25 and rises by a half cosine to its peak at step 29 of 100: at step 1, S1 is its first
// two LRs' sum and S2 their difference (a rise, so the law adds C·(eta_1 - eta_0)).
func TestScheduleWarmupZeroIsNoWarmup(t *testing.T) {
	const L0, A, alpha, eta = 2.6, 0.43, 0.55, 2e-4
	law := func(s1 float64) float64 { return L0 + A*math.Pow(s1, -alpha) }
	predict := func(sched string) float64 {
		t.Helper()
		req, err := lawcore.DecodePredictRequest([]byte(`{"params": {"L0": 2.6, "A": 0.43, "alpha": 0.55, "C": 0.41, "lambda": 0.999},
			"warmupSteps": 500, "warmupConvention": "actual", "curves": [{"name": "run", "schedule": ` + sched + `}]}`))
		if err != nil {
			t.Fatal(err)
		}
		pr, err := lawcore.Predict(req)
		if err != nil {
			t.Fatal(err)
		}
		k := slices.Index(pr[0].Steps, 1000)
		if k < 0 {
			t.Fatal("step 1000 not predicted")
		}
		return pr[0].Loss[k]
	}
	if got, want := predict(`{"kind": "constant", "total": 2000, "peak": 2e-4, "warmup": 0}`), law(eta*1001); math.Abs(got-want) > 1e-12 {
		t.Errorf(`"warmup": 0: loss at step 1000 %.12f, want the law without warmup %.12f`, got, want)
	}
	if got, want := predict(`{"kind": "constant", "total": 2000, "peak": 2e-4}`), predict(`{"kind": "constant", "total": 2000, "peak": 2e-4, "warmup": 500}`); got != want || got <= law(eta*1001) {
		t.Errorf("no warmup given: loss at step 1000 %.12f, want the 500-step setting's %.12f, above the law without warmup", got, want)
	}
	// a one-cycle's LR rises over its first 30% of its own: with a warmup added it would be 0 at step 0
	pr, err := lawcore.Predict(lawcore.PredictRequest{Params: lawcore.Values{"L0": L0, "A": A, "alpha": alpha, "C": 0.41, "lambda": 0.999},
		WarmupSteps: 500, WarmupConvention: "actual",
		Curves: []lawcore.PredictCurve{{Name: "one-cycle", Schedule: &schedule.Schedule{Kind: schedule.KindOneCycle, Total: 99, Peak: eta}}}})
	if err != nil {
		t.Fatal(err)
	}
	eta0 := eta / 25
	eta1 := eta0 + (eta-eta0)*(1-math.Cos(math.Pi/29))/2
	if got, want := pr[0].Loss[0], law(eta0+eta1)+0.41*(eta1-eta0); pr[0].Steps[0] != 1 || math.Abs(got-want) > 1e-9 {
		t.Errorf("one-cycle: loss at step %g %.12f, want %.12f at step 1 (no warmup added)", pr[0].Steps[0], got, want)
	}
}

// TestPredictAverage checks that a prediction with members is the weighted mean of each
// member's own, each under its own warmup convention, with weights given in any scale, and
// that a bad weight is named.
func TestPredictAverage(t *testing.T) {
	sched := &schedule.Schedule{Kind: schedule.KindCosine, Total: 5000, Peak: 3e-4, Final: 3e-5, Warmup: 200}
	curves := []lawcore.PredictCurve{{Name: "cosine", Schedule: sched}}
	a := lawcore.Values{"L0": 2.5, "A": 0.45, "alpha": 0.5, "C": 0.4, "lambda": 0.999}
	b := lawcore.Values{"L0": 2.6, "A": 0.40, "alpha": 0.6, "C": 0.3, "lambda": 0.995}
	one := func(p lawcore.Values, conv schedule.Convention) lawcore.Prediction {
		pr, err := lawcore.Predict(lawcore.PredictRequest{Params: p, WarmupSteps: 200, WarmupConvention: string(conv), Curves: curves})
		if err != nil {
			t.Fatal(err)
		}
		return pr[0]
	}
	pa, pb := one(a, schedule.WarmupPeak), one(b, schedule.WarmupActual)
	got, err := lawcore.Predict(lawcore.PredictRequest{WarmupSteps: 200, Curves: curves, Members: []lawcore.Member{
		{Candidate: lawcore.Candidate{Law: annealing.Name, Convention: schedule.WarmupPeak}, Params: a, Weight: 1},
		{Candidate: lawcore.Candidate{Law: annealing.Name, Convention: schedule.WarmupActual}, Params: b, Weight: 3},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for j := range got[0].Loss {
		if want := 0.25*pa.Loss[j] + 0.75*pb.Loss[j]; !(math.Abs(got[0].Loss[j]-want) <= 1e-12) {
			t.Fatalf("step %g: %g, want %g", got[0].Steps[j], got[0].Loss[j], want)
		}
	}
	if want := 0.25*pa.FinalLoss + 0.75*pb.FinalLoss; !(math.Abs(got[0].FinalLoss-want) <= 1e-12) {
		t.Errorf("final loss %g, want %g", got[0].FinalLoss, want)
	}
	_, err = lawcore.Predict(lawcore.PredictRequest{WarmupSteps: 200, Curves: curves, Members: []lawcore.Member{
		{Candidate: lawcore.Candidate{Law: annealing.Name}, Params: a, Weight: math.NaN()}}})
	if err == nil || !strings.Contains(err.Error(), "member 1") || !strings.Contains(err.Error(), "weight") {
		t.Errorf("a NaN weight: %v", err)
	}
}

// An average of members that count the warmup differently predicts the steps every member has
// trained: from a warmup from zero, a member counting it as run has trained nothing at step 0,
// one counting it at the peak has; asked for step 0 and on, the average starts at step 1.
func TestPredictAverageOfConventionsAlignsSteps(t *testing.T) {
	sched := &schedule.Schedule{Kind: schedule.KindCosine, Total: 1000, Peak: 3e-4, Warmup: 100}
	p := lawcore.Values{"L0": 2.5, "A": 0.45, "alpha": 0.5, "C": 0.4, "lambda": 0.999}
	for _, first := range []schedule.Convention{schedule.WarmupPeak, schedule.WarmupActual} {
		second := schedule.WarmupActual
		if first == second {
			second = schedule.WarmupPeak
		}
		got, err := lawcore.Predict(lawcore.PredictRequest{Curves: []lawcore.PredictCurve{{Name: "c", Schedule: sched, Steps: []float64{0, 1, 500, 1000}}},
			Members: []lawcore.Member{
				{Candidate: lawcore.Candidate{Law: annealing.Name, Convention: first}, Params: p, Weight: 1},
				{Candidate: lawcore.Candidate{Law: annealing.Name, Convention: second}, Params: p, Weight: 1},
			}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []float64{1, 500, 1000}; !slices.Equal(got[0].Steps, want) || len(got[0].Loss) != len(want) {
			t.Errorf("%s first: steps %v (%d losses), want %v", first, got[0].Steps, len(got[0].Loss), want)
		}
	}
}
