package auto

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
)

// The discrepancy of a law (lawcore.Band) learnt from held-out data. Its relative error on a
// schedule it was not fitted to is taken as normal, with standard deviation sqrt(S² + (G·d)²)
// at distance d from the fitted data: S the error on an unseen schedule within the data's
// reach, G how fast it grows beyond. Each informative fold gives one draw of that error: the
// relative error of its held-out data's farthest point, where the fold's prediction went
// farthest from what its fit saw (the points of one held-out curve err together, so a fold is
// one draw, not hundreds). S and G get log-normal priors around lawcore.PriorShape and
// lawcore.PriorGrowth (shapeSpread, growthSpread), and their posterior
// is computed on a grid (Gelman et al., Bayesian Data Analysis, 3rd ed., ch. 3 and 5: a few
// draws of a scale, with a prior that says how large such errors usually are). The band's
// discrepancy at d is the level quantile of |error| under the posterior predictive: a mixture
// of normals, wider than any one of them when the folds are few.

// foldDraw is one informative fold's draw of the discrepancy: the relative error of its
// held-out data's farthest point and that point's distance from the fold's fitted data.
type foldDraw struct {
	err, dist float64
	// par is the relative standard error there of the fold's prediction from its parameters'
	// uncertainty (its fit's jackknife): the part of err the discrepancy does not explain.
	par float64
	// curve is the fit curve the fold holds out (some of): folds that share one are not
	// independent draws.
	curve int
}

// The standard deviations of the logs of S and G under their priors: S, the error on unseen
// schedules, is the paper's figure over several model sizes and schedules, which the
// Multi-Power Law's paper finds too (90% within a factor 2.3 either way); G has no published
// figure (90% within a factor 5).
const (
	shapeSpread  = 0.5
	growthSpread = 1.0
)

// The grid of the posterior: gridSize values of S and of G, geometric from gridLow to gridHigh.
const (
	gridSize = 64
	gridLow  = 1e-4
	gridHigh = 0.1
)

// posterior is the grid posterior of S and G given some folds' draws.
type posterior struct {
	s, g, w []float64 // the cells and their weights, summing to one
}

// newPosterior is the posterior of S and G from the draws and the prior (the prior alone when
// there are none). Draws of folds that hold out the same curve err together (a curve left out
// and its own tail forecast): the draws count for the curves they hold out, each draw's log
// likelihood weighted by curves/draws (a power likelihood, as for dependent data).
func newPosterior(draws []foldDraw) *posterior {
	curves := map[int]bool{}
	for _, f := range draws {
		curves[f.curve] = true
	}
	weight := 1.0
	if len(draws) > 0 {
		weight = float64(len(curves)) / float64(len(draws))
	}
	grid := make([]float64, gridSize)
	for i := range grid {
		grid[i] = gridLow * math.Pow(gridHigh/gridLow, float64(i)/float64(gridSize-1))
	}
	p := &posterior{}
	maxLog := math.Inf(-1)
	for _, s := range grid {
		for _, g := range grid {
			zs := math.Log(s/lawcore.PriorShape) / shapeSpread
			zg := math.Log(g/lawcore.PriorGrowth) / growthSpread
			logW := -(zs*zs + zg*zg) / 2 // the grid is even in the logs: the prior's density there
			for _, f := range draws {
				v := s*s + g*g*f.dist*f.dist + f.par*f.par
				logW += weight * (-0.5*math.Log(v) - f.err*f.err/(2*v))
			}
			p.s, p.g, p.w = append(p.s, s), append(p.g, g), append(p.w, logW)
			maxLog = math.Max(maxLog, logW)
		}
	}
	total := 0.0
	for i := range p.w {
		p.w[i] = math.Exp(p.w[i] - maxLog)
		total += p.w[i]
	}
	for i := range p.w {
		p.w[i] /= total
	}
	return p
}

// variance is the posterior mean of the discrepancy's variance at distance d.
func (p *posterior) variance(d float64) float64 {
	v := 0.0
	for i, w := range p.w {
		v += w * (p.s[i]*p.s[i] + p.g[i]*p.g[i]*d*d)
	}
	return v
}

// halfWidth is the level quantile of |error| at distance d under the posterior predictive, a
// mixture of normals.
func (p *posterior) halfWidth(d, level float64) float64 {
	within := func(h float64) float64 { // the share within h, increasing in h
		share := 0.0
		for i, w := range p.w {
			share += w * math.Erf(h/(math.Sqrt2*math.Hypot(p.s[i], p.g[i]*d)))
		}
		return share
	}
	lo, hi := 0.0, 10*math.Hypot(gridHigh, gridHigh*d)
	for range 40 {
		if mid := (lo + hi) / 2; within(mid) < level {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// calibrateDiscrepancy is the band's discrepancy at level, at lawcore.BandDistances, from the
// folds' draws and the prior (the prior's alone when there are none).
func calibrateDiscrepancy(draws []foldDraw, level float64) []lawcore.BandNode {
	if len(draws) == 0 {
		return lawcore.PriorDiscrepancy(level)
	}
	p := newPosterior(draws)
	distances := lawcore.BandDistances()
	nodes := make([]lawcore.BandNode, len(distances))
	for k, d := range distances {
		nodes[k] = lawcore.BandNode{Distance: d, HalfWidth: p.halfWidth(d, level)}
	}
	return nodes
}

// farthest is the fold's draw: the relative error of its farthest held-out sample (the last
// of those equally far), with pred the prediction there.
func farthest(samples []bandSample) (foldDraw, bool) {
	best := -1
	for i, s := range samples {
		if best < 0 || s.dist >= samples[best].dist {
			best = i
		}
	}
	if best < 0 {
		return foldDraw{}, false
	}
	s := samples[best]
	return foldDraw{err: (s.pred - s.obs) / s.obs, dist: s.dist, par: s.par}, true
}

// bandSample is one held-out point: its relative error, its distance from the data its fit
// saw, its weight (each held-out curve weighing the same, the fold's weights summing to
// one) and the fold it was held out in.
type bandSample struct {
	err, dist, weight float64
	fold              int
	// obs and pred are the point's observed and predicted loss (an average of laws is scored
	// on them again).
	obs, pred float64
	// curve and step say where the point is: the index of its curve in the fold's request and
	// its step; par is the relative standard error of its prediction from the fit's parameters,
	// when the fold's fit had replicates (see withSpread).
	curve int
	step  float64
	par   float64
}

// heldOutSamples are the band samples of a fit's validate curves, held out in fold: each
// point's relative error and its distance from the fit curves' reach; an even sample of at
// most heldOutPoints points of each curve.
func heldOutSamples(req lawcore.FitRequest, res *lawcore.FitResult, fold int) ([]bandSample, error) {
	curves, err := req.Observed()
	if err != nil {
		return nil, err
	}
	var s1, s2 []float64 // the fit curves' points, whose reach the distances are from
	held := 0
	for _, c := range curves {
		if c.Role == lawcore.RoleFit {
			s1, s2 = append(s1, c.S1[c.First:]...), append(s2, c.S2[c.First:]...)
		} else {
			held++
		}
	}
	reach := lawcore.NewReach(s1, s2)
	var out []bandSample
	for i, c := range curves {
		if c.Role != lawcore.RoleValidate {
			continue
		}
		pred := res.Curves[i].Predicted
		n := len(c.Loss) - c.First
		stride := max(1, (n+heldOutPoints-1)/heldOutPoints)
		weight := 1 / float64((n+stride-1)/stride) / float64(held)
		for k := c.First; k < len(c.Loss); k += stride {
			obs := c.Loss[k]
			out = append(out, bandSample{err: math.Abs(pred[k]-obs) / obs, dist: reach.Distance(c.S1[k], c.S2[k]),
				weight: weight, fold: fold, obs: obs, pred: pred[k], curve: i, step: req.Curves[i].Steps[k]})
		}
	}
	return out, nil
}

// withSpread sets the par of the farthest of a fold's samples (see farthest) from the
// replicates of res, the fold's fit of req: the jackknife's standard error of the prediction
// there, relative to the observed loss.
func withSpread(req lawcore.FitRequest, res *lawcore.FitResult, samples []bandSample) error {
	if len(res.Replicates) == 0 || len(samples) == 0 {
		return nil
	}
	best := 0
	for i, s := range samples {
		if s.dist >= samples[best].dist {
			best = i
		}
	}
	s := &samples[best]
	c := req.Curves[s.curve]
	pr, err := lawcore.Predict(lawcore.PredictRequest{Law: res.Law, Params: res.Params, WarmupSteps: req.WarmupSteps,
		WarmupConvention: string(res.Settings.WarmupConvention),
		Curves:           []lawcore.PredictCurve{{Name: c.Name, Schedule: c.Schedule, LR: c.LR, Steps: []float64{s.step}, Size: c.Size}},
		Band:             &lawcore.Band{Quantile: 1, Replicates: []lawcore.Replicates{res.ReplicatesOf()}}})
	if err != nil {
		return err
	}
	if p := pr[0]; len(p.Upper) == 1 {
		s.par = (p.Upper[0] - p.Lower[0]) / 2 / s.obs
	}
	return nil
}
