package annealing

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// AreaTable holds the areas of some runs at their steps (every every-th point, flattened run
// by run): ln S1, S2 and, when asked for, dS2/dlambda, for the lambda it last computed them
// with. Laws built on the areas (the annealing law, its variants, the model-size law) share
// it; it walks the schedules again only when lambda changes, O(steps).
type AreaTable struct {
	// LogS1, S2 and DS2 (nil without the derivative) are the areas at the points.
	LogS1, S2, DS2 []float64

	runs           []lawcore.Run
	every, n       int
	withDerivative bool
	lambda         float64
	// haveS1: LogS1 is filled. S1 does not depend on lambda, so a fit that moves lambda
	// takes its logarithm once.
	haveS1 bool
}

// NewAreaTable prepares the areas of runs at their steps; withDerivative asks for dS2/dlambda
// too (for fitting lambda).
func NewAreaTable(runs []lawcore.Run, withDerivative bool) *AreaTable {
	n := 0
	for _, r := range runs {
		n += len(r.Steps)
	}
	return newAreaTable(runs, 1, n, withDerivative)
}

func newAreaTable(runs []lawcore.Run, every, n int, withDerivative bool) *AreaTable {
	t := &AreaTable{runs: runs, every: every, n: n, withDerivative: withDerivative, lambda: math.NaN(),
		LogS1: make([]float64, n), S2: make([]float64, n)}
	if withDerivative {
		t.DS2 = make([]float64, n)
	}
	return t
}

// Points is the number of points.
func (t *AreaTable) Points() int { return t.n }

// Thin returns the table of every every-th point.
func (t *AreaTable) Thin(every int) *AreaTable {
	return newAreaTable(t.runs, t.every*every, (t.n+every-1)/every, t.withDerivative)
}

// Subset returns the table of the points keep marks (one per point of t, which holds every
// point of its runs), as NewAreaTable gives on the runs with those steps, but with the areas t
// holds at its lambda copied rather than computed again: a point's areas do not depend on
// which other points there are. The jackknife of a fit's intervals refits ten such subsets; for
// the Fig. 2 fit, walking the schedules for each was ten of its fourteen walks.
func (t *AreaTable) Subset(keep []bool) *AreaTable {
	if t.every != 1 || len(keep) != t.n {
		panic("lawcore: AreaTable.Subset needs one keep per point of an unthinned table")
	}
	s := NewAreaTable(lawcore.SubsetRuns(t.runs, keep), t.withDerivative)
	if math.IsNaN(t.lambda) {
		return s // nothing computed yet
	}
	k := 0
	for i, kp := range keep {
		if !kp {
			continue
		}
		s.LogS1[k], s.S2[k] = t.LogS1[i], t.S2[i]
		if t.withDerivative {
			s.DS2[k] = t.DS2[i]
		}
		k++
	}
	s.lambda, s.haveS1 = t.lambda, true
	return s
}

// At returns the table with its areas computed for lambda.
func (t *AreaTable) At(lambda float64) *AreaTable {
	if lambda == t.lambda {
		return t
	}
	t.lambda = lambda
	k, flat := 0, 0
	for _, r := range t.runs {
		w := schedule.NewAreaWalker(lambda)
		next := 0
		for i, eta := range r.LR {
			if next == len(r.Steps) {
				break
			}
			w.Add(eta)
			if i != r.Steps[next] {
				continue
			}
			if flat%t.every == 0 {
				if !t.haveS1 {
					t.LogS1[k] = numeric.MathLog(w.S1)
				}
				t.S2[k] = w.S2
				if t.withDerivative {
					t.DS2[k] = w.DS2
				}
				k++
			}
			flat++
			next++
		}
	}
	t.haveS1 = true
	return t
}
