package auto

import (
	"math"
	"sort"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// paperUnseenError is the mean relative error of the annealing law on schedules unseen in
// its fit, as the paper reports it (Tissue et al., 2024, Sec. 3 and Fig. 4: "as low as
// ~0.2%", fitted on one or two simple schedules).
const paperUnseenError = 0.002

// unseenScheduleBase is the least base of a band at level whose held-out data are the tails
// of a single curve: a law fitted on one schedule and scored on its own continuation has seen
// that schedule's shape, and its forecast errors say nothing of how far it misses another
// schedule (a constant run from a cosine one, a sudden drop from a smooth one), which is what
// a user asks it. Lacking data for that, the band takes the paper's figure as a prior: errors
// e ~ N(0, σ) with mean |e| = σ·sqrt(2/π) = paperUnseenError, so that the share level of
// them lies within σ·sqrt(2)·erfinv(level) (0.41% at 90%).
func unseenScheduleBase(level float64) float64 {
	sigma := paperUnseenError / math.Sqrt(2/math.Pi)
	return sigma * math.Sqrt2 * math.Erfinv(level)
}

// floorUnseen raises the band b's base to unseenScheduleBase when its held-out data were a
// single curve's forecasts.
func floorUnseen(b *lawcore.Band) {
	if b.Design == designForecast {
		b.Floor = unseenScheduleBase(b.Level)
		b.Base = math.Max(b.Base, b.Floor)
	}
}

// defaultGrowth is the least growth of a band (and its growth when every held-out point lies
// within the fitted data's reach, which says nothing of farther ones): the band doubles at one
// e-fold of area beyond the data (three times the steps of the longest fitted run widens it
// 2.1-fold).
const defaultGrowth = 1

// growthGrid are the growths a calibration tries.
var growthGrid = []float64{0, 0.25, 0.5, 1, 2, 4, 8, 16}

// bandSample is one held-out point: its relative error, its distance from the data its fit
// saw, its weight (each held-out curve weighing the same, the fold's weights summing to
// one) and the fold it was held out in.
type bandSample struct {
	err, dist, weight float64
	fold              int
	// obs and pred are the point's observed and predicted loss (an average of laws is scored
	// on them again).
	obs, pred float64
}

// calibrateBand fits a band to held-out samples: the smallest growth, at least
// defaultGrowth, whose band also covers the share level of the samples beyond the fitted
// reach (so that far points are not left out for the near ones' sake). The floor is a prior:
// held-out curves of the user's own cannot show an extrapolation harder than the hardest
// among them, and the one a user asks for usually is.
//
// The base is set fold by fold, as split conformal prediction does with exchangeable
// scores: each fold's base is the one that covers the share level of its own points, and
// the band takes the ceil((n+1)*level)-th smallest of the n folds' (the largest when n+1 >
// 1/(1-level)). The points of one held-out curve err together (a law that misses a schedule
// misses all of it), so the folds, not the points, are the independent draws; and a new
// schedule is one more draw, which a quantile over a handful of folds would cover less often
// than it says.
func calibrateBand(samples []bandSample, level float64) lawcore.Band {
	b := lawcore.Band{Level: level, Growth: defaultGrowth}
	far := false
	for _, s := range samples {
		far = far || s.dist > 0
	}
	byFold := map[int][]bandSample{}
	for _, s := range samples {
		byFold[s.fold] = append(byFold[s.fold], s)
	}
	base := func(g float64) float64 {
		var bases []float64
		for _, fold := range byFold {
			ws := make([]numeric.Weighted, len(fold))
			for i, s := range fold {
				ws[i] = numeric.Weighted{Value: s.err / (1 + g*s.dist), Weight: s.weight}
			}
			bases = append(bases, numeric.WeightedQuantile(ws, level))
		}
		if len(bases) == 0 {
			return 0
		}
		sort.Float64s(bases)
		k := int(math.Ceil(float64(len(bases)+1)*level)) - 1
		return bases[min(k, len(bases)-1)]
	}
	if !far {
		b.Base = base(b.Growth)
		return b
	}
	for _, g := range growthGrid {
		if g < defaultGrowth {
			continue
		}
		b.Growth, b.Base = g, base(g)
		covered, total := 0.0, 0.0
		for _, s := range samples {
			if s.dist > 0 {
				total += s.weight
				if s.err <= b.HalfWidth(s.dist) {
					covered += s.weight
				}
			}
		}
		if covered >= level*total {
			break
		}
	}
	return b
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
				weight: weight, fold: fold, obs: obs, pred: pred[k]})
		}
	}
	return out, nil
}
