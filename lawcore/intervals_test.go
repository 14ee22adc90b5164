package lawcore_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// TestIntervalsCoverTheTruth: curves made by the law with known parameters, plus noise, are
// fitted with intervals, forty times with fresh noise. The claim: each parameter's stated 90%
// interval holds its true value in at least 80% of the trials (two binomial standard errors
// below 90% over forty trials), and in at most 100% with intervals narrower than the value
// itself (an interval as wide as the domain covers everything and says nothing). The noise
// is relative, 0.3% per point, AR(1) with correlation 0.5 between neighbouring points, as a
// smoothed loss curve's is. Measured: L0 1.00, A 0.97, alpha 1.00, C 0.85.
func TestIntervalsCoverTheTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("forty fits with intervals")
	}
	truth := lawcore.Values{"L0": 2.6, "A": 0.43, "alpha": 0.55, "C": 0.41, "lambda": 0.999}
	schedules := []schedule.Schedule{
		{Kind: schedule.KindConstant, Total: 20000, Peak: 2e-4, Warmup: 500},
		{Kind: schedule.KindCosine, Total: 20000, Peak: 2e-4, Final: 2e-5, Warmup: 500},
	}
	var clean []lawcore.Prediction
	var steps []float64
	for step := 600; step <= 20000; step += 100 {
		steps = append(steps, float64(step))
	}
	for i := range schedules {
		pr, err := lawcore.Predict(lawcore.PredictRequest{Params: truth, WarmupSteps: 500,
			Curves: []lawcore.PredictCurve{{Name: schedules[i].Kind, Schedule: &schedules[i], Steps: steps}}})
		if err != nil {
			t.Fatal(err)
		}
		clean = append(clean, pr[0])
	}
	const trials = 40
	covered := map[string]int{}
	width := map[string]float64{}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < trials; trial++ {
		var curves []lawcore.Curve
		for i, p := range clean {
			loss := make([]float64, len(p.Loss))
			e := 0.0
			for k := range loss {
				e = 0.5*e + math.Sqrt(1-0.25)*rng.NormFloat64()*0.003
				loss[k] = p.Loss[k] * (1 + e)
			}
			curves = append(curves, lawcore.Curve{Name: p.Name, Steps: p.Steps, Loss: loss, Schedule: &schedules[i]})
		}
		res, err := lawcore.Fit(context.Background(), lawcore.FitRequest{Curves: curves, WarmupSteps: 500, Intervals: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"L0", "A", "alpha", "C"} {
			iv, ok := res.Intervals[name]
			if !ok {
				t.Fatalf("no interval for %s: %v", name, res.Intervals)
			}
			if iv.Low <= truth[name] && truth[name] <= iv.High {
				covered[name]++
			}
			width[name] += (iv.High - iv.Low) / trials
		}
		if _, ok := res.Intervals["lambda"]; ok {
			t.Errorf("an interval for lambda, which was held")
		}
	}
	for _, name := range []string{"L0", "A", "alpha", "C"} {
		share := float64(covered[name]) / trials
		t.Logf("%-5s true %.3f: covered in %.2f of %d trials, mean width %.4f", name, truth[name], share, trials, width[name])
		if share < 0.8 {
			t.Errorf("%s: the 90%% interval covers the truth in %.2f of trials", name, share)
		}
		if width[name] >= truth[name] {
			t.Errorf("%s: intervals %.3f wide on average, as wide as the value: they say nothing", name, width[name])
		}
	}
}
