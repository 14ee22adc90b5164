package auto

import (
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// normalQuantile is the standard normal's quantile, by bisection on math.Erf.
func normalQuantile(p float64) float64 {
	lo, hi := -10.0, 10.0
	for range 100 {
		if mid := (lo + hi) / 2; 0.5*(1+math.Erf(mid/math.Sqrt2)) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// The discrepancy without held-out data is the prior's: a normal with standard deviation
// sqrt(S² + (G·d)²), S = 0.25%, G = 0.1%, whose 90% half-width is 1.6448536 of it (the normal
// table's 95% point).
func TestDiscrepancyWithoutDrawsIsThePrior(t *testing.T) {
	got := calibrateDiscrepancy(nil, 0.9)
	for _, n := range got {
		want := 1.6448536 * math.Hypot(0.0025, 0.001*n.Distance)
		if math.Abs(n.HalfWidth-want) > 1e-6 {
			t.Errorf("distance %g: %.6f, want %.6f", n.Distance, n.HalfWidth, want)
		}
	}
	if len(got) != len(lawcore.BandDistances()) || got[0].Distance != 0 {
		t.Fatalf("nodes %+v", got)
	}
}

// drawsOf are n draws spread as a normal of standard deviation sigma is (its quantiles at
// (k+1/2)/n), at distance d, each of a curve of its own from first on.
func drawsOf(n int, sigma, d float64, first int) []foldDraw {
	out := make([]foldDraw, n)
	for k := range out {
		out[k] = foldDraw{err: sigma * normalQuantile((float64(k)+0.5)/float64(n)), dist: d, curve: first + k}
	}
	return out
}

// Draws of folds that share a curve count as fewer: four draws of two curves move the prior
// as two independent draws of the same errors would.
func TestDiscrepancyCountsCurves(t *testing.T) {
	shared := drawsOf(4, 0.02, 0, 0)
	for k := range shared {
		shared[k].curve = k / 2
	}
	half := []foldDraw{shared[0], shared[2]}
	a, b := newPosterior(shared), newPosterior(half)
	four := newPosterior(drawsOf(4, 0.02, 0, 0))
	if !(a.variance(0) < four.variance(0)) {
		t.Errorf("four draws of two curves (%.3g) moved the prior as far as four of four curves (%.3g)", a.variance(0), four.variance(0))
	}
	if math.Abs(a.variance(0)/b.variance(0)-1) > 0.5 {
		t.Errorf("four draws of two curves: variance %.3g; two of two curves, spread alike: %.3g", a.variance(0), b.variance(0))
	}
}

// Many draws outweigh the prior: with 400 at distance 0 spread as a normal of 0.6% and 400 at
// distance 2 spread as one of sqrt(0.6%² + (2·0.3%)²), the band's half-width is the normal's
// 90% point of those (S = 0.6%, G = 0.3%) to within the grid's step (12%); with three draws
// of the same spread it is wider (the scale is uncertain, the predictive has heavier tails)
// or pulled towards the prior, never as confident.
func TestDiscrepancyLearnsTheScale(t *testing.T) {
	s, g := 0.006, 0.003
	draws := append(drawsOf(400, s, 0, 0), drawsOf(400, math.Hypot(s, 2*g), 2, 400)...)
	nodes := calibrateDiscrepancy(draws, 0.9)
	b := lawcore.Band{Discrepancy: nodes}
	for _, d := range []float64{0, 1, 2, 4} {
		want := 1.6448536 * math.Hypot(s, g*d)
		if got := b.HalfWidth(d); math.Abs(got/want-1) > 0.12 {
			t.Errorf("many draws, distance %g: half-width %.5f, want %.5f", d, got, want)
		}
	}
	few := lawcore.Band{Discrepancy: calibrateDiscrepancy(drawsOf(3, 0.02, 0.5, 0), 0.9)}
	many := lawcore.Band{Discrepancy: calibrateDiscrepancy(drawsOf(300, 0.02, 0.5, 0), 0.9)}
	if !(few.HalfWidth(0.5) < many.HalfWidth(0.5)) {
		// three draws of 2% against a prior of 0.25%: pulled towards the prior
		t.Errorf("three draws of 2%%: %.4f, not below 300 draws' %.4f", few.HalfWidth(0.5), many.HalfWidth(0.5))
	}
	if prior := lawcore.PriorDiscrepancy(0.9); !(few.HalfWidth(0.5) > 2*(lawcore.Band{Discrepancy: prior}).HalfWidth(0.5)) {
		t.Errorf("three draws of 2%%: %.4f, not well above the prior's %.4f", few.HalfWidth(0.5), (lawcore.Band{Discrepancy: prior}).HalfWidth(0.5))
	}
}
