package lawcore

import (
	"math"
	"sort"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/internal/order"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Prediction bands. A band is calibrated on held-out errors (curves left out, or the tails of
// curves forecast from their first part), and it widens with the distance of a predicted
// point from the data the law was fitted on: predictions far beyond what the fit has seen
// (a run three times as long, an annealing area never reached) miss by more, and a band of
// one width either overstates the near ones or understates the far ones.
//
// The distance of a point is how far its areas go beyond those of the nearest fitted point
// that reached as far in both: d = min over fitted points q of max(ln(S1/S1q), (S2 -
// S2q)/S2max, 0), with the annealing law's areas at lambda 0.999, the warmup counted at its
// peak (so that S2 measures annealing alone), as coordinates of schedules that every law
// shares. A long slow cosine is far
// from both a long constant run (no annealing area) and a short cosine (a third of the
// forward area), though neither area alone exceeds the data's. The band's half-width at
// distance d is Base*(1 + Growth*d), relative to the prediction.

// Band is a calibrated prediction band: at a predicted point at distance d from the fitted
// data, the loss lies within pred*(1 ± Base*(1+Growth*d)) for the share Level of held-out
// points.
type Band struct {
	Level  float64 `json:"level"`
	Base   float64 `json:"base"`
	Growth float64 `json:"growth"`
	// Reach is how far the fitted data go.
	Reach Reach `json:"reach"`
	// Design says what held-out data calibrated the band (AutoChoice.Design): "forecast"
	// when they were the tails of a single curve, which cannot show how far other
	// schedules miss.
	Design string `json:"design,omitempty"`
	// Floor is the least base the band was given where its held-out data could not measure
	// the error on other schedules (design "forecast": unseenScheduleBase); 0 otherwise.
	Floor float64 `json:"floor,omitempty"`
}

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

// floorUnseen raises the band's base to unseenScheduleBase when its held-out data were a
// single curve's forecasts.
func (b *Band) floorUnseen() {
	if b.Design == designForecast {
		b.Floor = unseenScheduleBase(b.Level)
		b.Base = math.Max(b.Base, b.Floor)
	}
}

// Reach is how far the fitted points go in the areas (lambda 0.999): the largest forward and
// annealing areas, and the frontier of points that no other point exceeds in both.
type Reach struct {
	S1       float64      `json:"S1"`
	S2       float64      `json:"S2"`
	Frontier [][2]float64 `json:"frontier"`
}

// newReach is the reach of points (S1, S2).
func newReach(s1, s2 []float64) Reach {
	r := Reach{S1: math.Inf(-1), S2: math.Inf(-1)}
	idx := make([]int, len(s1))
	for i := range idx {
		idx[i] = i
		r.S1, r.S2 = math.Max(r.S1, s1[i]), math.Max(r.S2, s2[i])
	}
	if len(s1) == 0 {
		r.S1, r.S2 = 0, 0
	}
	// the frontier: by S1 descending, each point whose S2 exceeds every point's before it
	order.Sort(idx, func(a, b int) bool { return s1[idx[a]] > s1[idx[b]] })
	top := math.Inf(-1)
	for _, i := range idx {
		if s2[i] > top {
			r.Frontier = append(r.Frontier, [2]float64{s1[i], s2[i]})
			top = s2[i]
		}
	}
	return r
}

// Distance is how far the areas s1, s2 go beyond the reach (0 within it).
func (r Reach) Distance(s1, s2 float64) float64 {
	d := math.Inf(1)
	for _, q := range r.Frontier {
		dq := 0.0
		if q[0] > 0 && s1 > q[0] {
			dq = math.Log(s1 / q[0])
		}
		if r.S2 > 0 && s2 > q[1] {
			dq = math.Max(dq, (s2-q[1])/r.S2)
		}
		d = math.Min(d, dq)
	}
	if math.IsInf(d, 1) {
		return 0 // no fitted points: nothing to measure from
	}
	return d
}

// HalfWidth is the band's relative half-width at distance d.
func (b Band) HalfWidth(d float64) float64 { return b.Base * (1 + b.Growth*d) }

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
func calibrateBand(samples []bandSample, level float64) Band {
	b := Band{Level: level, Growth: defaultGrowth}
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

// pointAreas are the areas of a band's distance (lambda 0.999, the warmup at its peak) at a
// curve's observed steps.
func (p *preparedCurve) pointAreas() (s1, s2 []float64) {
	lr := schedule.CountedLR(p.lr, p.warmup, schedule.WarmupPeak)
	w := schedule.NewAreaWalker(DefaultLambda)
	next := 0
	s1, s2 = make([]float64, len(p.index)), make([]float64, len(p.index))
	for i, eta := range lr {
		if next == len(p.index) {
			break
		}
		w.Add(eta)
		if i == p.index[next] {
			s1[next], s2[next] = w.S1, w.S2
			next++
		}
	}
	return s1, s2
}

// reach is how far the job's fit curves go.
func (j *fitJob) reach() Reach {
	var s1, s2 []float64
	for _, c := range j.curves {
		if c.role == RoleFit {
			a, b := c.pointAreas()
			s1, s2 = append(s1, a[c.first:]...), append(s2, b[c.first:]...)
		}
	}
	return newReach(s1, s2)
}

// heldOutSamples are the band samples of a fit's validate curves, held out in fold: each
// point's relative error and its distance from the fit curves' reach; an even sample of at
// most heldOutPoints points of each curve.
func heldOutSamples(req FitRequest, res *FitResult, fold int) ([]bandSample, error) {
	job, err := req.job()
	if err != nil {
		return nil, err
	}
	reach := job.reach()
	held := 0
	for _, c := range job.curves {
		if c.role == RoleValidate {
			held++
		}
	}
	var out []bandSample
	for i, c := range job.curves {
		if c.role != RoleValidate {
			continue
		}
		s1, s2 := c.pointAreas()
		pred := res.Curves[i].Predicted
		n := len(c.loss) - c.first
		stride := max(1, (n+heldOutPoints-1)/heldOutPoints)
		weight := 1 / float64((n+stride-1)/stride) / float64(held)
		for k := c.first; k < len(c.loss); k += stride {
			obs := c.loss[k]
			out = append(out, bandSample{err: math.Abs(pred[k]-obs) / obs, dist: reach.Distance(s1[k], s2[k]),
				weight: weight, fold: fold, obs: obs, pred: pred[k]})
		}
	}
	return out, nil
}
