package lawcore

import (
	"math"
	"slices"

	"github.com/lawcalc/annealing/lawcore/internal/order"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Prediction bands. A prediction misses the loss a run reaches for two reasons, and its band
// adds both:
//
//   - the parameters are uncertain: the curves determine them only so far, and along the
//     directions they leave open (L0 against alpha on a short run, the loss drop's parameters
//     on two runs) a prediction far from the curves moves a lot. The band propagates that
//     uncertainty through the law itself: it predicts with each replicate of the fit's
//     delete-a-block jackknife (Replicates) and takes their spread, Student's t for their
//     degrees of freedom times the jackknife's standard error (Efron and Stein 1981; Künsch
//     1989 for blocks of dependent points);
//   - the curves may not tell which law is right: where held-out data left laws that predict
//     the question differently each plausible (auto's candidates with their weights of
//     evidence, Alternatives), the prediction is uncertain by their spread around it (Hoeting
//     et al. 1999: Bayesian model averaging's variance between models);
//   - the law is not the truth: on a schedule it was not fitted to it misses by more than its
//     parameters' spread, the more so the farther the schedule goes beyond the fitted data
//     (Kennedy and O'Hagan 2001 call this the model discrepancy). Discrepancy is its half-width
//     relative to the prediction, as a function of that distance: learnt from the errors of
//     held-out data where a fit had some (package lawcore/auto), else the prior
//     (PriorDiscrepancy).
//
// They are taken as independent and add in quadrature: half-width = sqrt((q·sd)² + (z·sm)² +
// (h(d)·pred)²), sd the replicates' standard error, sm the alternatives' spread and z the
// normal's quantile at (1+Level)/2.
//
// The distance of a point is the e-folds of forward area S1 it goes beyond the fitted data's
// largest (see Reach.Distance): three times the steps of the longest fitted run is d = ln 3.

// Band is a prediction band: a predicted point at distance d from the fitted data lies within
// pred ± sqrt((Quantile·sd)² + (Discrepancy(d)·pred)²) for the share Level of schedules, sd the
// spread of the prediction over Replicates.
type Band struct {
	Level float64 `json:"level"`
	// Quantile scales the replicates' standard error: Student's t at (1+Level)/2 for their
	// degrees of freedom.
	Quantile float64 `json:"quantile"`
	// Discrepancy is the relative half-width of the law's own error at increasing distances
	// from the fitted data, linear between them and beyond the last.
	Discrepancy []BandNode `json:"discrepancy"`
	// Replicates are, for each law the prediction averages (PredictRequest.Members, in their
	// order; one for a single law), its parameters' jackknife replicates; none leaves the
	// parameters' uncertainty out.
	Replicates []Replicates `json:"replicates,omitempty"`
	// Alternatives are the laws the held-out data left plausible, each with its weight of
	// evidence (summing to one): the band adds their predictions' spread around the prediction.
	Alternatives []Member `json:"alternatives,omitempty"`
	// Reach is how far the fitted data go.
	Reach Reach `json:"reach"`
	// Base is Discrepancy at distance 0: the half-width a prediction within the fitted data
	// has beyond its parameters' spread (for display).
	Base float64 `json:"base"`
	// Folds counts the held-out folds whose errors Discrepancy was learnt from (0: the prior
	// alone); Design says how they were made (AutoChoice.Design).
	Folds  int    `json:"folds"`
	Design string `json:"design,omitempty"`
}

// BandNode is the discrepancy's relative half-width at a distance from the fitted data.
type BandNode struct {
	Distance  float64 `json:"distance"`
	HalfWidth float64 `json:"halfWidth"`
}

// Replicates are one law's jackknife replicates (FitResult.Replicates): a prediction's
// standard error is the jackknife's over their predictions, sqrt((K-1)/K · Σ (p_k - mean)²).
type Replicates struct {
	Sets []Values `json:"sets"`
}

// HalfWidth is the discrepancy's relative half-width at distance d.
func (b Band) HalfWidth(d float64) float64 {
	n := b.Discrepancy
	switch {
	case len(n) == 0:
		return 0
	case len(n) == 1 || d <= n[0].Distance:
		return n[0].HalfWidth
	}
	k := 1
	for k < len(n)-1 && n[k].Distance < d {
		k++
	}
	a, c := n[k-1], n[k]
	return a.HalfWidth + (c.HalfWidth-a.HalfWidth)*(d-a.Distance)/(c.Distance-a.Distance)
}

// The prior of a law's discrepancy: its relative error on schedules it was not fitted to is
// normal with standard deviation sqrt(S² + (G·d)²) at distance d. S is the paper's error on
// unseen schedules (Tissue et al., 2024, Sec. 3 and Fig. 4: a mean |error| "as low as ~0.2%"
// fitting one or two simple schedules: σ = 0.2%·sqrt(π/2) = 0.25%). G, how fast it grows
// with the distance, has no published figure; the paper predicts a run ten times as long as
// the fitted ones "accurately" (its appendix, 30K steps to 350K: d = ln 10), as accurately as
// its unseen schedules, which G = 0.1% per unit of distance gives (σ 0.34% there).
const (
	PriorShape  = 0.0025
	PriorGrowth = 0.001
)

// bandDistances are the distances at which a band's discrepancy is given.
var bandDistances = []float64{0, 0.25, 0.5, 1, 2, 4}

// PriorDiscrepancy is the discrepancy of a band at level from the prior alone.
func PriorDiscrepancy(level float64) []BandNode {
	z := math.Sqrt2 * math.Erfinv(level)
	nodes := make([]BandNode, len(bandDistances))
	for i, d := range bandDistances {
		nodes[i] = BandNode{Distance: d, HalfWidth: z * math.Hypot(PriorShape, PriorGrowth*d)}
	}
	return nodes
}

// PriorBand is the 90% band of a fit's predictions with the prior's discrepancy (no held-out
// data calibrated it) and the fit's replicates (nil without them).
func PriorBand(res *FitResult) *Band {
	if len(res.Replicates) == 0 {
		return nil
	}
	nodes := PriorDiscrepancy(DefaultBandLevel)
	return &Band{Level: DefaultBandLevel, Quantile: TQuantile(len(res.Replicates)), Discrepancy: nodes,
		Replicates: []Replicates{res.ReplicatesOf()}, Reach: res.Reach, Base: nodes[0].HalfWidth}
}

// ReplicatesOf is the fit's replicates as a band takes them.
func (res *FitResult) ReplicatesOf() Replicates { return Replicates{Sets: res.Replicates} }

// DefaultBandLevel is the share of schedules a prediction band is meant to cover.
const DefaultBandLevel = 0.9

// BandDistances are the distances at which a band's discrepancy is given (for a calibration
// of its own).
func BandDistances() []float64 { return slices.Clone(bandDistances) }

// Reach is how far the fitted points go in the areas (lambda 0.999): the largest forward and
// annealing areas, and the frontier of points that no other point exceeds in both.
type Reach struct {
	S1       float64      `json:"S1"`
	S2       float64      `json:"S2"`
	Frontier [][2]float64 `json:"frontier"`
}

// NewReach is the reach of points (S1, S2).
func NewReach(s1, s2 []float64) Reach {
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
	if f, ok := frontierOfRuns(s1, s2, maxFrontierRuns); ok {
		r.Frontier = f
		return r
	}
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

// maxFrontierRuns is the most runs of increasing S1 that frontierOfRuns merges.
const maxFrontierRuns = 64

// frontierOfRuns is NewReach's frontier without sorting the points, when they come as at most
// most runs of non-decreasing S1 (each curve's points, in the order of its steps): merged from
// the runs' ends, S1 descending. Sorting leaves points of equal S1 in an order of its own, and
// the frontier can depend on it only when two of them exceed every S2 before them with
// different S2s: then, or with NaNs, zeros or more runs than most, it reports false (sort).
// On three curves of 34,000 points a fit's sort took a tenth of its time in wasm.
func frontierOfRuns(s1, s2 []float64, most int) ([][2]float64, bool) {
	var starts, ends []int // each run's first and last point
	for i := range s1 {
		if !(s1[i] > 0) || math.IsNaN(s2[i]) {
			return nil, false
		}
		if i == 0 || s1[i] < s1[i-1] {
			if len(starts) == most {
				return nil, false
			}
			starts, ends = append(starts, i), append(ends, i)
		}
		ends[len(ends)-1] = i
	}
	var out [][2]float64
	top := math.Inf(-1)
	for {
		// the largest S1 at the runs' ends, and every point that has it
		best := -1
		for k, e := range ends {
			if e >= starts[k] && (best < 0 || s1[e] > s1[ends[best]]) {
				best = k
			}
		}
		if best < 0 {
			return out, true
		}
		v := s1[ends[best]]
		above, seen := 0.0, false
		for k := range ends {
			for ; ends[k] >= starts[k] && s1[ends[k]] == v; ends[k]-- {
				if x := s2[ends[k]]; x > top {
					if seen && math.Float64bits(x) != math.Float64bits(above) {
						return nil, false // the order of equal S1s would decide
					}
					above, seen = x, true
				}
			}
		}
		if seen {
			out = append(out, [2]float64{v, above})
			top = above
		}
	}
}

// Distance is how far the areas s1, s2 go beyond the reach (0 within it): the e-folds of
// forward area beyond the largest fitted, ln(s1/S1). A schedule within that reach but of
// another shape is an unseen schedule, which the discrepancy's value at 0 covers (the paper's
// error on unseen schedules is on schedules as long as the fitted ones); a longer run is an
// extrapolation, whose error grows with how far it goes. The annealing area is not a distance:
// the law's annealing term is linear in it, and a deeper or longer anneal than any fitted is
// a schedule of another shape, not a farther one.
func (r Reach) Distance(s1, s2 float64) float64 {
	if r.S1 > 0 && s1 > r.S1 {
		return math.Log(s1 / r.S1)
	}
	return 0
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
	return NewReach(s1, s2)
}

// Reach is how far the request's fit curves go (in their windows), as Fit reports it.
func (r FitRequest) Reach() (Reach, error) {
	job, err := r.job()
	if err != nil {
		return Reach{}, err
	}
	return job.reach(), nil
}

// Observed is one curve's observed points as a fit prepares them, with the areas that place
// each point against a Reach.
type Observed struct {
	// Role is the curve's role, RoleFit or RoleValidate.
	Role string
	// First is the index of the first point of the curve's window: the points before it are
	// predicted but neither fitted nor scored.
	First int
	// Loss is the observed loss of every point; S1 and S2 are its areas as Reach counts them
	// (lambda 0.999, the warmup at its peak).
	Loss, S1, S2 []float64
}

// Observed is every curve of the request as a fit prepares it, in order.
func (r FitRequest) Observed() ([]Observed, error) {
	job, err := r.job()
	if err != nil {
		return nil, err
	}
	out := make([]Observed, len(job.curves))
	for i, c := range job.curves {
		s1, s2 := c.pointAreas()
		out[i] = Observed{Role: c.role, First: c.first, Loss: c.loss, S1: s1, S2: s2}
	}
	return out, nil
}
