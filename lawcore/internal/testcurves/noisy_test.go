package testcurves

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// studyTrainResiduals is the log of a cooldown-study run's training loss (train.train_loss,
// every 50 steps) over the annealing law fitted to it, from step 2,000 (lambda 0.999, warmup
// at the peak, no priors), by step.
func studyTrainResiduals(t *testing.T, name string) (steps, resid []float64) {
	t.Helper()
	run := readStudyRun(t, name)
	var lr []float64
	if name == "stable-50k" {
		s := CooldownSchedule(run.Config.Iterations, 0)
		lr, _ = s.LR()
	} else {
		lr = CooldownCosine(t, name).LR
	}
	c := lawcore.Curve{Name: name, LR: lr}
	for k, st := range run.Train.Iter {
		if st >= 2000 && st < len(lr) {
			c.Steps, c.Loss = append(c.Steps, float64(st)), append(c.Loss, run.Train.Loss[k])
		}
	}
	req := lawcore.FitRequest{Curves: []lawcore.Curve{c}, Lambda: lawcore.FixedLambda(0.999), WarmupSteps: cooldownWarmup,
		WarmupConvention: string(schedule.WarmupPeak), HuberDelta: 1e-3, Priors: lawcore.PriorsNone}
	res, err := lawcore.Fit(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range res.Curves[0].Predicted {
		resid = append(resid, math.Log(c.Loss[k])-math.Log(p))
	}
	return c.Steps, resid
}

// sdAndLag1 is the standard deviation of r and its autocorrelation at lag 1.
func sdAndLag1(r []float64) (sd, lag1 float64) {
	m := 0.0
	for _, v := range r {
		m += v
	}
	m /= float64(len(r))
	var v0, v1 float64
	for k, v := range r {
		v0 += (v - m) * (v - m)
		if k > 0 {
			v1 += (v - m) * (r[k-1] - m)
		}
	}
	return math.Sqrt(v0 / float64(len(r))), v1 / v0
}

// The noise NoisyPerStep draws is the study's: measured on the training loss of its two
// 50,000-step runs logged from step 50 (their other runs are cooldowns of these, or restarted).
func TestPerStepNoiseIsTheStudys(t *testing.T) {
	steps, stable := studyTrainResiduals(t, "stable-50k")
	cosSteps, cosine := studyTrainResiduals(t, "cosine-to-0.1-50k")
	n := min(len(stable), len(cosine)) // the cosine's schedule ends a step before the last log
	if !reflect.DeepEqual(steps[:n], cosSteps[:n]) {
		t.Fatal("the two runs logged different steps")
	}
	for _, r := range []struct {
		name  string
		resid []float64
	}{{"stable-50k", stable}, {"cosine-to-0.1-50k", cosine}} {
		sd, lag := sdAndLag1(r.resid)
		t.Logf("%s: %d points, relative noise %.4f, autocorrelation 50 steps apart %.3f", r.name, len(r.resid), sd, lag)
		if math.Abs(sd-PerStepNoise) > 0.002 {
			t.Errorf("%s: noise %.4f, PerStepNoise is %.4f", r.name, sd, PerStepNoise)
		}
		if math.Abs(lag) > 2/math.Sqrt(float64(len(r.resid))) {
			t.Errorf("%s: autocorrelation %.3f 50 steps apart, beyond two standard errors of 0", r.name, lag)
		}
	}
	var sxy, sxx, syy float64
	for k := range n {
		sxy += stable[k] * cosine[k]
		sxx += stable[k] * stable[k]
		syy += cosine[k] * cosine[k]
	}
	corr := sxy / math.Sqrt(sxx*syy)
	t.Logf("the two runs' noise at the same step correlates at %.4f", corr)
	if math.Abs(corr-SharedNoise) > 0.002 {
		t.Errorf("correlation %.4f between the runs, SharedNoise is %.4f", corr, SharedNoise)
	}
}

// NoisyLaw is the annealing law fitted to the release's nine 100M curves.
func TestNoisyLawIsTheReleases(t *testing.T) {
	req := MPLRequest(t, "100", lawcore.FixedLambda(0.999), schedule.WarmupPeak)
	for i := range req.Curves {
		req.Curves[i].Role = lawcore.RoleFit
	}
	res, err := lawcore.Fit(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range NoisyLaw.Values() {
		if got := res.Params[name]; math.Abs(got-want) > 1e-4*want {
			t.Errorf("%s: the release's curves give %.5f, NoisyLaw has %.5f", name, got, want)
		}
	}
}

// NoisyPerStep draws the same curves from the same seed, about 34K points each, scattered
// around NoisyLaw by the noise it says.
func TestNoisyPerStep(t *testing.T) {
	req := NoisyPerStep(1)
	if !reflect.DeepEqual(req, NoisyPerStep(1)) {
		t.Fatal("the same seed drew different curves")
	}
	if reflect.DeepEqual(req.Curves[0].Loss, NoisyPerStep(2).Curves[0].Loss) {
		t.Fatal("two seeds drew the same curves")
	}
	if len(req.Curves) != 3 {
		t.Fatalf("%d curves", len(req.Curves))
	}
	for _, c := range req.Curves {
		if len(c.Steps) != 33_840 || c.Steps[0] != NoisyFrom || c.Steps[len(c.Steps)-1] != NoisyTotal {
			t.Fatalf("%s: %d points from step %v to %v", c.Name, len(c.Steps), c.Steps[0], c.Steps[len(c.Steps)-1])
		}
		lr, _ := c.Schedule.LR()
		a, _ := schedule.ComputeAreas(schedule.CountedLR(lr, c.Schedule.Warmup, schedule.WarmupPeak), NoisyLaw.Lambda)
		resid := make([]float64, len(c.Steps))
		for k, st := range c.Steps {
			resid[k] = math.Log(c.Loss[k] / NoisyLaw.Loss(a.S1[int(st)], a.S2[int(st)]))
		}
		sd, lag := sdAndLag1(resid)
		if math.Abs(sd-PerStepNoise) > 0.001 || math.Abs(lag) > 0.02 {
			t.Errorf("%s: noise %.4f, autocorrelation %.3f from one step to the next", c.Name, sd, lag)
		}
	}
}
