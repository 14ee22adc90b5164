package analysis

import (
	"context"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore/schedule"
)

// The optimiser: the step drop is the law's exact optimum over schedules in [0, peak] (the
// final loss is convex in the per-step rates, with a derivative increasing in the step), so
// no family beats it, the free-form schedule comes close to it, and each family improves on
// its textbook member.
func TestOptimizeSchedule(t *testing.T) {
	res, err := OptimizeSchedule(context.Background(), DefaultOptimizeOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]OptimizedSchedule{}
	for _, b := range res.Best {
		by[b.Family] = b
		t.Logf("%-10s %.6f  %s (%d evaluations)", b.Family, b.Final.Loss, b.Description, b.Evaluations)
	}
	t.Logf("ranking %v", res.Ranking)
	drop := by[FamilyStepDrop].Final.Loss
	for fam, b := range by {
		if b.Final.Loss < drop-1e-9 {
			t.Errorf("%s (%.9f) beats the step drop (%.9f), the law's optimum", fam, b.Final.Loss, drop)
		}
		// the reported schedule reproduces the reported loss
		if l := fig2Final(t, b.Schedule); !closeRel(l, b.Final.Loss, 1e-12) {
			t.Errorf("%s: its schedule gives %.12g, reported %.12g", fam, l, b.Final.Loss)
		}
	}
	if free := by[FamilyFree].Final.Loss; !(free-drop <= 2e-4) {
		t.Errorf("free-form %.6f is more than 2e-4 above the optimum %.6f", free, drop)
	}
	paper := map[string]schedule.Schedule{
		FamilyWSD:    {Kind: schedule.KindWSD, Total: 50000, Peak: 2e-4, Warmup: 500, Decay: "cosine", DecayFraction: 0.2},
		FamilyCosine: {Kind: schedule.KindCosine, Total: 50000, Peak: 2e-4, Warmup: 500},
		FamilyMultistep: {Kind: schedule.KindMultistep, Total: 50000, Peak: 2e-4, Warmup: 500,
			Stages: []float64{0.8, 0.1, 0.1}, Levels: []float64{1, 0.316, 0.1}},
	}
	for fam, s := range paper {
		if l := fig2Final(t, s); !(by[fam].Final.Loss <= l) {
			t.Errorf("%s: optimum %.6f is above the textbook schedule's %.6f", fam, by[fam].Final.Loss, l)
		}
	}
}

// The step drop satisfies the optimality conditions: the derivative of the final loss in each
// step's rate is negative where the rate is the peak and positive where it is 0.
func TestStepDropIsOptimal(t *testing.T) {
	p := Fig2Params()
	z := &optimizer{o: DefaultOptimizeOptions(), e: annealingEvaluator(p, schedule.WarmupPeak)}
	best := z.stepDrop()
	lr, err := best.Schedule.LR()
	if err != nil {
		t.Fatal(err)
	}
	grad := make([]float64, len(lr))
	FinalLossGradient(p, lr, 500, schedule.WarmupPeak, grad)
	k := int(best.Settings["dropSteps"])
	last := len(lr) - 1 - k // the last step at the peak
	for j := 501; j < len(lr); j++ {
		if (j < last && !(grad[j] < 0)) || (j > last+1 && !(grad[j] > 0)) {
			t.Fatalf("step %d (last at peak %d): dL/deta = %g has the wrong sign", j, last, grad[j])
		}
	}
	// the closed form of the switch: C*lambda^(n-1-j) = alpha*A*S1^(-alpha-1)
	s1, _ := schedule.FinalAreas(schedule.CountedLR(lr, 500, schedule.WarmupPeak), p.Lambda)
	want := math.Log(p.Alpha*p.A*math.Pow(s1, -p.Alpha-1)/p.C) / math.Log(p.Lambda)
	t.Logf("drop %d steps before the end; the switch condition gives %.1f", k, want)
	if !(math.Abs(float64(k)-want) <= 2) {
		t.Errorf("drop %d steps before the end, the optimality condition says %.1f", k, want)
	}
}

// The free-form gradient in z agrees with central differences.
func TestFreeFormGradient(t *testing.T) {
	p := Fig2Params()
	for _, conv := range []schedule.Convention{schedule.WarmupPeak, schedule.WarmupActual} {
		f := newFreeForm(p, conv, 5000, 100, 2e-4, 12)
		z := f.zFor(func(step int) float64 { return float64(5000-step) / 2000 })
		z[3], z[7] = 0.3, -1.2
		grad := make([]float64, len(z))
		f.value(z, grad)
		for j := 1; j < len(z); j++ {
			h := 1e-6
			keep := z[j]
			z[j] = keep + h
			up := f.value(z, nil)
			z[j] = keep - h
			down := f.value(z, nil)
			z[j] = keep
			fd := (up - down) / (2 * h)
			if !(math.Abs(fd-grad[j]) <= 1e-6*math.Max(1e-3, math.Abs(fd))) {
				t.Errorf("%s: dL/dz_%d = %.9g, finite difference %.9g", conv, j, grad[j], fd)
			}
		}
		// its knots are strictly increasing from warmup to total, and the schedule through
		// them has the loss the parameterisation computes
		for j := 1; j < len(f.knots); j++ {
			if f.knots[j] <= f.knots[j-1] {
				t.Fatalf("knots %v", f.knots)
			}
		}
		e := annealingEvaluator(p, conv)
		out, err := e.final(f.schedule(z))
		if err != nil {
			t.Fatal(err)
		}
		if l := f.value(z, nil); !closeRel(out.Loss, l, 1e-12) {
			t.Errorf("%s: schedule %.12g, parameterisation %.12g", conv, out.Loss, l)
		}
	}
	// more knots than steps after warmup still gives increasing knots
	f := newFreeForm(p, schedule.WarmupPeak, 60, 10, 2e-4, 50)
	if f.knots[0] != 10 || f.knots[50] != 60 {
		t.Errorf("knots %v", f.knots)
	}
}
