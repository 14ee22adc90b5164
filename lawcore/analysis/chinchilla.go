package analysis

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/lawcalc/annealing/lawcore"

	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Reduction to the Chinchilla law (the paper's Sec. 6.1, Table 2): the final losses this law
// predicts for runs of different lengths follow L = L0 + A*D^(-alpha) (D the total steps).
// For a constant schedule this is exact (S2 = 0, S1 = peak*(D+1)); for others it is checked
// statistically: random parameter tuples, their predicted final losses for cosine and WSD
// (10% cosine decay) runs of 5K to 60K steps, a Chinchilla fit to each (the summed Huber loss
// of log residuals, as for the main fit, with profile starts over alpha as the main fit's),
// and the mean and spread of the fits' R^2.

// ChinchillaOptions asks for the reduction over random parameter tuples.
type ChinchillaOptions struct {
	Setup
	// Tuples is the number of random parameter tuples (default 1000, at most 20000).
	Tuples int `json:"tuples"`
	// Seed seeds the random tuples (the same seed gives the same tuples).
	Seed uint64 `json:"seed"`
	// Totals are the runs' lengths (default 5K to 60K by 5K).
	Totals []int `json:"totals"`
	// WSDRatio is the WSD runs' cosine-decay ratio (default 0.1).
	WSDRatio float64 `json:"wsdRatio"`
	// L0, A, C and Alpha are the ranges [low, high] the tuples are drawn from uniformly
	// (defaults, the paper's: [1, 3], [0.3, 0.5], [0.2, 0.6], [0.4, 0.6]). Lambda is the
	// setup's; the setup's other parameters are not used.
	L0    [2]float64 `json:"L0"`
	A     [2]float64 `json:"A"`
	C     [2]float64 `json:"C"`
	Alpha [2]float64 `json:"alpha"`
	// HuberDelta is the Chinchilla fit's Huber delta (default 1e-3).
	HuberDelta float64 `json:"huberDelta"`
}

// DefaultChinchillaOptions is the paper's Table 2 setting.
func DefaultChinchillaOptions() ChinchillaOptions {
	totals := make([]int, 12)
	for i := range totals {
		totals[i] = 5000 * (i + 1)
	}
	return ChinchillaOptions{Setup: DefaultSetup(), Tuples: 1000, Seed: 1, Totals: totals, WSDRatio: 0.1,
		L0: [2]float64{1, 3}, A: [2]float64{0.3, 0.5}, C: [2]float64{0.2, 0.6}, Alpha: [2]float64{0.4, 0.6}, HuberDelta: lawcore.DefaultHuberDelta}
}

// ChinchillaParams are the parameters of L = L0 + A*D^(-alpha).
type ChinchillaParams struct {
	// L0 is the irreducible loss, A the scale, Alpha the exponent of D.
	L0    float64 `json:"L0"`
	A     float64 `json:"A"`
	Alpha float64 `json:"alpha"`
}

// Loss is the Chinchilla law at D.
func (c ChinchillaParams) Loss(d float64) float64 { return c.L0 + c.A*math.Pow(d, -c.Alpha) }

// ChinchillaSummary summarises the fits of one schedule over every tuple.
type ChinchillaSummary struct {
	Schedule string  `json:"schedule"`
	MeanR2   float64 `json:"meanR2"`
	StdR2    float64 `json:"stdR2"`
	MinR2    float64 `json:"minR2"`
	// MeanHuber is the mean over tuples of each fit's summed Huber loss.
	MeanHuber float64 `json:"meanHuber"`
	// R2 is every tuple's R^2, for a histogram.
	R2 []float64 `json:"R2"`
	// Example is the first tuple's predicted final losses (Y) against the totals (X), and
	// ExampleFit the Chinchilla curve fitted to them (on a finer grid).
	Example    Series           `json:"example"`
	ExampleFit Series           `json:"exampleFit"`
	ExampleLaw ChinchillaParams `json:"exampleLaw"`
}

// ChinchillaResult holds the summaries for the cosine and WSD runs.
type ChinchillaResult struct {
	Summaries []ChinchillaSummary `json:"summaries"`
	// ExampleParams is the first tuple fitted.
	ExampleParams annealing.Params `json:"exampleParams"`
	// Fitted counts the tuples fitted; Skipped those left out because they predict a loss of 0
	// or below at the end of a run (C*S2 outgrows L0 + A*S1^-alpha: the ranges are the paper's,
	// for its peak LR, and a higher peak grows S2 with it).
	Fitted  int `json:"fitted"`
	Skipped int `json:"skipped"`
	// Note says, for a setup that averages members, that the analysis took the heaviest
	// member's lambda and warmup convention.
	Note  string `json:"note,omitempty"`
	Table Table  `json:"table"`
	Setup Setup  `json:"setup"`
}

// checkRange reports a range that is not low <= high, both finite and at least min.
func checkRange(field string, r [2]float64, lo float64) error {
	if !(r[0] >= lo && r[1] >= r[0]) || math.IsInf(r[1], 0) {
		return input.Errorf("", field, "must be a range [low, high] with %g <= low <= high, got %v", lo, r)
	}
	return nil
}

// ChinchillaReduction draws the tuples, predicts the final losses and fits the Chinchilla law.
func ChinchillaReduction(ctx context.Context, o ChinchillaOptions, progress func(float64)) (answer *ChinchillaResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	e, setup, _, note, err := o.annealing("reduction to Chinchilla", w)
	if err != nil {
		return nil, err
	}
	if o.Tuples < 1 || o.Tuples > 20000 {
		return nil, input.Errorf("", "tuples", "must be from 1 to 20000, got %d", o.Tuples)
	}
	if err := checkSteps("totals", o.Totals, o.Warmup+1, schedule.MaxSteps-1, 200); err != nil {
		return nil, err
	}
	if len(o.Totals) < 4 {
		return nil, input.Errorf("", "totals", "a three-parameter fit needs at least 4 totals, got %d", len(o.Totals))
	}
	for i := 1; i < len(o.Totals); i++ {
		if o.Totals[i] <= o.Totals[i-1] {
			return nil, input.Errorf("", fmt.Sprintf("totals[%d]", i), "totals must increase, got %d after %d", o.Totals[i], o.Totals[i-1])
		}
	}
	if err := checkFraction("wsdRatio", o.WSDRatio, 1e-6, 1); err != nil {
		return nil, err
	}
	for _, r := range []struct {
		name string
		v    [2]float64
	}{{"L0", o.L0}, {"A", o.A}, {"C", o.C}, {"alpha", o.Alpha}} {
		if err := checkRange(r.name, r.v, 0); err != nil {
			return nil, err
		}
	}
	if !(o.A[0] > 0 && o.Alpha[0] > 0) {
		return nil, input.Errorf("", "A", "the ranges of A and alpha must be positive, got %v and %v", o.A, o.Alpha)
	}
	delta := o.HuberDelta
	if delta == 0 {
		delta = lawcore.DefaultHuberDelta
	}
	if err := checkPositive("huberDelta", delta); err != nil {
		return nil, err
	}
	sum := 0.0
	for _, t := range o.Totals {
		sum += 2 * float64(t)
	}
	if err := checkBudget("totals", sum); err != nil {
		return nil, err
	}

	// The areas do not depend on L0, A, C, alpha: compute them once per run.
	kinds := []struct {
		name  string
		build func(total int) schedule.Schedule
	}{
		{"cosine", func(t int) schedule.Schedule {
			return schedule.Schedule{Kind: schedule.KindCosine, Total: t, Peak: o.Peak, Warmup: o.Warmup}
		}},
		{fmt.Sprintf("WSD (%g%% cosine)", 100*o.WSDRatio), func(t int) schedule.Schedule {
			return schedule.Schedule{Kind: schedule.KindWSD, Total: t, Peak: o.Peak, Warmup: o.Warmup, Decay: "cosine", DecaySteps: max(1, int(math.Round(o.WSDRatio*float64(t))))}
		}},
	}
	s1 := make([][]float64, len(kinds))
	s2 := make([][]float64, len(kinds))
	for k, kind := range kinds {
		for _, t := range o.Totals {
			if err := w.check(); err != nil {
				return nil, err
			}
			s := kind.build(t)
			lr, warmup, err := e.expand(&s)
			if err != nil {
				return nil, input.Within("totals", err)
			}
			a, b := schedule.FinalAreas(e.run("", lr, warmup, nil).LR, setup.Lambda)
			s1[k], s2[k] = append(s1[k], a), append(s2[k], b)
		}
	}

	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	draw := func(r [2]float64) float64 { return r[0] + (r[1]-r[0])*rng.Float64() }
	d := make([]float64, len(o.Totals))
	for i, t := range o.Totals {
		d[i] = float64(t)
	}
	fitter := newChinchillaFitter(d, delta)
	res := &ChinchillaResult{Setup: o.Setup, Note: note,
		Table: Table{Columns: []string{"schedule", "mean R2", "std R2", "min R2", "mean Huber loss"}}}
	sums := make([]ChinchillaSummary, len(kinds))
	for k := range kinds {
		sums[k] = ChinchillaSummary{Schedule: kinds[k].name, MinR2: math.Inf(1), R2: make([]float64, 0, o.Tuples)}
	}
	loss := make([]float64, len(o.Totals))
	w.plan(o.Tuples)
	for n := 0; n < o.Tuples; n++ {
		if err := w.check(); err != nil {
			return nil, err
		}
		p := annealing.Params{L0: draw(o.L0), A: draw(o.A), C: draw(o.C), Alpha: draw(o.Alpha), Lambda: setup.Lambda}
		if !positiveFinalLosses(p, s1, s2) {
			res.Skipped++
			w.stageDone()
			continue
		}
		first := res.Fitted == 0
		if first {
			res.ExampleParams = p
		}
		res.Fitted++
		for k := range kinds {
			for i := range loss {
				loss[i] = p.Loss(s1[k][i], s2[k][i])
			}
			law, huber, r2 := fitter.fit(loss)
			sm := &sums[k]
			sm.R2 = append(sm.R2, r2)
			sm.MeanHuber += huber
			sm.MinR2 = math.Min(sm.MinR2, r2)
			if first {
				sm.Example = Series{Name: kinds[k].name, X: append([]float64(nil), d...), Y: append([]float64(nil), loss...)}
				sm.ExampleLaw = law
				sm.ExampleFit = Series{Name: "Chinchilla fit", X: numeric.Logspace(d[0], d[len(d)-1], 100)}
				for _, x := range sm.ExampleFit.X {
					sm.ExampleFit.Y = append(sm.ExampleFit.Y, law.Loss(x))
				}
			}
		}
		w.stageDone()
	}
	if res.Fitted == 0 {
		return nil, input.Errorf("", "peak", "all %d tuples predict a loss of 0 or below by the end of a run at peak LR %g: the loss drop C·S2 grows with the peak, and the ranges drawn from (C in %v) are the paper's, for its peak LR %g; lower the peak, or C's range",
			o.Tuples, o.Peak, o.C, DefaultPeak)
	}
	for k := range sums {
		sm := &sums[k]
		mean, sq := 0.0, 0.0
		for _, r := range sm.R2 {
			mean += r
		}
		mean /= float64(len(sm.R2))
		for _, r := range sm.R2 {
			sq += (r - mean) * (r - mean)
		}
		sm.MeanR2, sm.StdR2 = mean, math.Sqrt(sq/float64(len(sm.R2)))
		sm.MeanHuber /= float64(res.Fitted)
		res.Table.addRow(sm.Schedule, sm.MeanR2, sm.StdR2, sm.MinR2, sm.MeanHuber)
	}
	res.Summaries = sums
	return res, nil
}

// positiveFinalLosses reports whether p predicts a positive loss at the end of every run
// (s1[k][i], s2[k][i]: the areas of schedule k's run i): else its losses are no losses to fit.
func positiveFinalLosses(p annealing.Params, s1, s2 [][]float64) bool {
	for k := range s1 {
		for i := range s1[k] {
			if !(p.Loss(s1[k][i], s2[k][i]) > 0) {
				return false
			}
		}
	}
	return true
}

// chinchillaFitter fits L = L0 + A*D^(-alpha) to losses at fixed D, reusing its buffers. It
// is not lawcore's fit engine: it fits Chinchilla's law of the run's length D, not a law of
// schedules, a thousand times over twelve points each, where a three-parameter
// Levenberg-Marquardt on the shared numerics (the Huber loss, the non-negative least squares
// of the profile's starts, the damped step) takes microseconds.
type chinchillaFitter struct {
	d, logD []float64
	delta   float64
	logObs  []float64
	powers  [][]float64 // D^(-alpha) for each alpha of the profile grid
}

// chinchillaAlphas are the alphas of the profile that starts each fit.
var chinchillaAlphas = numeric.Logspace(0.01, 4, 48)

func newChinchillaFitter(d []float64, delta float64) *chinchillaFitter {
	f := &chinchillaFitter{d: d, delta: delta, logD: make([]float64, len(d)), logObs: make([]float64, len(d))}
	for i, x := range d {
		f.logD[i] = math.Log(x)
	}
	for _, alpha := range chinchillaAlphas {
		row := make([]float64, len(d))
		for i := range d {
			row[i] = math.Exp(-alpha * f.logD[i])
		}
		f.powers = append(f.powers, row)
	}
	return f
}

// objective is the summed Huber loss of the log residuals at x = (log L0, log A, log alpha).
func (f *chinchillaFitter) objective(x []float64) float64 {
	l0, a, alpha := math.Exp(x[0]), math.Exp(x[1]), math.Exp(x[2])
	v := 0.0
	for i, logObs := range f.logObs {
		logPred, _ := numeric.SafeLog(l0 + a*math.Exp(-alpha*f.logD[i]))
		v += numeric.Huber(logObs-logPred, f.delta)
	}
	return v
}

// step computes one Levenberg-Marquardt step from x with damping mu on the Huber objective,
// by iteratively reweighted least squares: weight 1 inside delta, delta/|r| outside, so that
// the weighted squares have the Huber loss's gradient.
func (f *chinchillaFitter) step(x []float64, mu float64) ([]float64, bool) {
	l0, a, alpha := math.Exp(x[0]), math.Exp(x[1]), math.Exp(x[2])
	h, g := numeric.Square(3), make([]float64, 3)
	for i, logObs := range f.logObs {
		term := a * math.Exp(-alpha*f.logD[i])
		logPred, dlog := numeric.SafeLog(l0 + term)
		r := logObs - logPred
		w := math.Min(1, f.delta/math.Abs(r))
		// d r / d x
		j := [3]float64{-dlog * l0, -dlog * term, dlog * term * f.logD[i] * alpha}
		for p := 0; p < 3; p++ {
			g[p] += w * j[p] * r
			for q := 0; q < 3; q++ {
				h[p][q] += w * j[p] * j[q]
			}
		}
	}
	d := make([]float64, 3)
	if !numeric.DampedStep(h, g, mu, d) {
		return nil, false
	}
	return []float64{x[0] + d[0], x[1] + d[1], x[2] + d[2]}, true
}

// fit fits the law to loss (one value per D) and returns it, its summed Huber loss and R^2.
// Starts come from a profile over alpha (least squares for L0, A >= 0 on relative residuals,
// ranked by their residual); the best is polished by Levenberg-Marquardt.
func (f *chinchillaFitter) fit(loss []float64) (ChinchillaParams, float64, float64) {
	for i, l := range loss {
		f.logObs[i] = math.Log(l)
	}
	bestX, bestRSS := []float64{0, 0, 0}, math.Inf(1)
	n := float64(len(loss))
	b := make([]float64, 2)
	for g, alpha := range chinchillaAlphas {
		var gram [numeric.MaxNNLSColumns][numeric.MaxNNLSColumns]float64
		var rhs [numeric.MaxNNLSColumns]float64
		for i, l := range loss {
			w := 1 / l
			u := f.powers[g][i] * w
			gram[0][0] += w * w
			gram[0][1] += w * u
			gram[1][1] += u * u
			rhs[0] += w // the target is l/l = 1
			rhs[1] += u
		}
		gram[1][0] = gram[0][1]
		gain := numeric.NNLS(&gram, &rhs, b)
		if rss := n - gain; rss < bestRSS {
			bestRSS = rss
			bestX = []float64{math.Log(math.Max(b[0], 1e-10)), math.Log(math.Max(b[1], 1e-10)), math.Log(alpha)}
		}
	}
	x, v := bestX, f.objective(bestX)
	mu := 1e-3
	for it := 0; it < 200 && mu < 1e12; it++ {
		next, ok := f.step(x, mu)
		if !ok {
			mu *= 10
			continue
		}
		nv := f.objective(next)
		if !(nv < v) {
			mu *= 10
			continue
		}
		done := v-nv <= 1e-15*v || v-nv < 1e-30
		x, v = next, nv
		mu = math.Max(mu/10, 1e-12)
		if done {
			break
		}
	}
	law := ChinchillaParams{L0: math.Exp(x[0]), A: math.Exp(x[1]), Alpha: math.Exp(x[2])}
	pred := make([]float64, len(loss))
	for i, d := range f.d {
		pred[i] = law.Loss(d)
	}
	m := lawcore.ComputeMetrics(loss, pred)
	r2 := 1.0
	if m.R2 != nil {
		r2 = *m.R2
	}
	if math.IsNaN(r2) || math.IsNaN(v) { // a failed fit scores nothing (and JSON has no NaN)
		r2, v = 0, math.MaxFloat64
	}
	return law, v, r2
}
