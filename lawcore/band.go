package lawcore

import (
	"math"

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
