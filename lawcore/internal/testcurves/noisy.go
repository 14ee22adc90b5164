package testcurves

import (
	"math"
	"math/rand/v2"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Per-step training loss as logs hold it: the loss of each step's batch, which scatters around
// the smooth curve a validation loss follows.

// The noise of a per-step training loss, measured on the cooldown study's train.train_loss
// (testdata/lrsched-124m-lr1e-4: a 124M model, batches of 50 x 2 sequences of 512 tokens,
// logged every 50 steps; TestPerStepNoiseIsTheStudys measures it again). Around the annealing
// law fitted to each run's own training loss (steps 2,000 on, lambda 0.999, no priors), the log
// residuals of stable-50k and cosine-to-0.1-50k have a standard deviation of 0.0378 and 0.0380
// (0.035 early, 0.039 late), tails close to a normal's (kurtosis 3.3), and no autocorrelation
// 50 steps apart (-0.03, within two standard errors of 0): from the logs, the noise of one step
// is independent of the noise 50 steps on; at shorter lags they cannot tell, and the
// generator draws each step independently. The runs were trained on the same data in the same
// order, and their residuals at a step correlate at 0.999: the noise is the batch's, shared by
// every run of the study. A batch of k times as many tokens has about 1/sqrt(k) of the noise.
const (
	// PerStepNoise is the standard deviation of a step's log loss around the curve.
	PerStepNoise = 0.037
	// SharedNoise is the correlation of two runs' noise at the same step (same data order).
	SharedNoise = 0.999
)

// NoisyLaw is the annealing law fitted to the MultiPowerLaw release's nine 100M curves
// (warmup counted at the peak, lambda 0.999; TestNoisyLawIsTheReleases fits it again): the
// smooth curve NoisyPerStep scatters the noise around.
var NoisyLaw = annealing.Params{L0: 2.8734, A: 0.6208, Alpha: 0.6837, C: 0.4434, Lambda: 0.999}

// NoisyTotal is the length of NoisyPerStep's runs, and NoisyFrom their first logged step
// (after the warmup, as the release's curves start): 33,840 points each.
const (
	NoisyTotal = 36_000
	NoisyFrom  = MPLWarmup + 1
)

// NoisyPerStep is three runs of a 100M model logged at every step after warmup (NoisyFrom to
// NoisyTotal), with the release's warmup (linear from 0 to 3e-4 over 2,160 steps) and peak:
// a cosine to 3e-5, a constant and a WSD decaying linearly to 3e-5 over the last 20%. Each
// step's loss is NoisyLaw's times exp(e), e a normal draw of standard deviation PerStepNoise
// shared by the three runs as SharedNoise says. The same seed draws the same curves. The
// request is the page's: lambda 0.999, warmup counted at the peak, Huber delta 1e-3, the
// default priors.
func NoisyPerStep(seed uint64) lawcore.FitRequest {
	rng := rand.New(rand.NewPCG(seed, 46))
	scheds := []schedule.Schedule{
		{Kind: schedule.KindCosine, Total: NoisyTotal, Peak: mplPeak, Final: mplFinal, Warmup: MPLWarmup},
		{Kind: schedule.KindConstant, Total: NoisyTotal, Peak: mplPeak, Warmup: MPLWarmup},
		{Kind: schedule.KindWSD, Total: NoisyTotal, Peak: mplPeak, Final: mplFinal, Warmup: MPLWarmup, Decay: "linear", DecayFraction: 0.2},
	}
	shared := make([]float64, NoisyTotal+1)
	for st := NoisyFrom; st <= NoisyTotal; st++ {
		shared[st] = rng.NormFloat64()
	}
	own := math.Sqrt(1 - SharedNoise)
	req := lawcore.FitRequest{Lambda: lawcore.FixedLambda(NoisyLaw.Lambda), WarmupConvention: string(schedule.WarmupPeak), HuberDelta: 1e-3}
	for i, s := range scheds {
		lr, err := s.LR()
		if err != nil {
			panic(err)
		}
		a, err := schedule.ComputeAreas(schedule.CountedLR(lr, s.Warmup, schedule.WarmupPeak), NoisyLaw.Lambda)
		if err != nil {
			panic(err)
		}
		c := lawcore.Curve{Name: s.Kind, Schedule: &scheds[i]}
		for st := NoisyFrom; st <= NoisyTotal; st++ {
			e := PerStepNoise * (math.Sqrt(SharedNoise)*shared[st] + own*rng.NormFloat64())
			c.Steps = append(c.Steps, float64(st))
			c.Loss = append(c.Loss, NoisyLaw.Loss(a.S1[st], a.S2[st])*math.Exp(e))
		}
		req.Curves = append(req.Curves, c)
	}
	return req
}
