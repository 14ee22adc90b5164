package multipower

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// naiveDrop is the loss-drop sum as the release computes it: every step k = 1..t.
func naiveDrop(p Params, lr []float64, t int) (ld, mass float64) {
	prefix := make([]float64, t+1)
	sum := 0.0
	for i := 0; i <= t; i++ {
		sum += lr[i]
		prefix[i] = sum
	}
	for k := 1; k <= t; k++ {
		d := lr[k-1] - lr[k]
		if d == 0 {
			continue
		}
		mass += math.Abs(d)
		sp := prefix[t] - prefix[k-1]
		switch {
		case !(sp > 0):
		case lr[k] == 0:
			ld += d
		default:
			x := math.Pow(lr[k], -p.Gamma) * sp
			ld += d * (1 - math.Pow(1+p.C*x, -p.Beta))
		}
	}
	return p.B * ld, p.B * mass
}

// testSchedules are schedules with every kind of LR change: smooth decays, a jump, a
// staircase, rises and falls (cyclic), a decay to zero and noise.
func testSchedules(t testing.TB) map[string][]float64 {
	scheds := map[string]schedule.Schedule{
		"cosine":       {Kind: schedule.KindCosine, Total: 24000, Peak: 3e-4, Final: 3e-5, Warmup: 2160},
		"cosine-to-0":  {Kind: schedule.KindCosine, Total: 20000, Peak: 1e-3, Warmup: 500},
		"wsd-1-sqrt":   {Kind: schedule.KindWSD, Total: 30000, Peak: 3e-4, Warmup: 500, Decay: "1-sqrt", DecayFraction: 0.2},
		"wsd-exp":      testcurves.MPLSchedule("wsd_20000_24000"),
		"wsdcon":       testcurves.MPLSchedule("wsdcon_9"),
		"multistep":    {Kind: schedule.KindMultistep, Total: 20000, Peak: 6e-4, Warmup: 300, Stages: []float64{0.8, 0.1, 0.1}, Levels: []float64{1, 0.316, 0.1}},
		"cyclic":       {Kind: schedule.KindCyclic, Total: 20000, Peak: 5e-4, Final: 1e-4, StepSize: 1500, Warmup: 200},
		"inverse-sqrt": {Kind: schedule.KindInverseSqrt, Total: 50000, Peak: 1e-3, Warmup: 1000},
	}
	out := map[string][]float64{}
	for name, s := range scheds {
		lr, err := s.LR()
		if err != nil {
			t.Fatal(name, err)
		}
		out[name] = lr
	}
	rng := rand.New(rand.NewPCG(3, 4))
	noisy := make([]float64, 6000)
	for i := range noisy {
		noisy[i] = 2e-4 * (1 + 0.3*rng.Float64())
	}
	out["noisy"] = noisy
	return out
}

var testParams = []Params{
	{L0: 3.04, A: 0.525, Alpha: 0.508, B: 363.788, C: 2.066, Beta: 0.583, Gamma: 0.641}, // the release's 25M
	{L0: 2.5, A: 0.4, Alpha: 0.4, B: 800, C: 0.05, Beta: 1.7, Gamma: 0.2},
	{L0: 2.5, A: 0.4, Alpha: 0.4, B: 100, C: 50, Beta: 0.2, Gamma: 1.1},
}

// largeBetaParams have G near its limit 1 - exp(-C*beta*x) (beta large, C small), where the
// derivative bounds that hold for every y are loose by factors of beta and beta^2 and only
// the node's own (shape.localBounds) allow grouping: the first is the Fig. 2 optimum.
var largeBetaParams = []Params{
	{L0: 2.469, A: 0.473, Alpha: 0.465, B: 537.3, C: 3.18e-10, Beta: 2.51e6, Gamma: 0.943},
	{L0: 2.5, A: 0.4, Alpha: 0.4, B: 300, C: 2e-3, Beta: 40, Gamma: 0.5},
}

// The grouped sum agrees with the direct double loop within the stated bound.
func TestGroupedMatchesNaive(t *testing.T) {
	for name, lr := range testSchedules(t) {
		for pi, p := range slices.Concat(testParams, largeBetaParams) {
			for _, tol := range []float64{fitTolerance, 1e-4, Tolerance, 1e-6} {
				s := newSeries(lr)
				law := newStepLaw(p, tol)
				worst, terms, points := 0.0, 0, 0
				for t1 := 1; t1 < len(lr); t1 += 97 + t1/7 {
					_, ld := law.eval(s, t1)
					want, mass := naiveDrop(p, lr, t1)
					err := math.Abs(ld - want)
					if bound := tol*mass + 1e-12*math.Max(mass, 1); !(err <= bound) {
						t.Errorf("%s params %d tol %g step %d: LD %.12g, direct sum %.12g: error %.3g over the bound %.3g",
							name, pi, tol, t1, ld, want, err, bound)
					}
					if mass > 0 {
						worst = math.Max(worst, err/mass)
					}
					points++
				}
				terms = law.count
				perStep := float64(terms) / float64(points)
				if pi == 0 || pi == len(testParams) {
					t.Logf("%-12s params %d tol %-6g changes %6d: worst error/mass %.2e, %.1f terms per step", name, pi, tol, len(s.ch), worst, perStep)
				}
				// the cost the package documentation states: a smooth schedule's loss drop takes
				// tens of grouped terms per step (the release's parameters, 48 on the cosine),
				// not one per change; the every-y bounds alone summed each of the thousands
				// of changes on its own at large beta
				if pi >= len(testParams) && tol == fitTolerance && name != "noisy" && len(s.ch) >= 5000 && perStep > 100 {
					t.Errorf("%s params %d tol %g: %.0f terms per step for %d changes, want at most 100", name, pi, tol, perStep, len(s.ch))
				}
			}
		}
	}
}

// stepLaw evaluates the law one step at a time, counting the terms (for measuring).
type stepLaw struct {
	p     Params
	shape *shape
	refs  []int32
	stack []int32
	count int // terms evaluated (statistics)
}

func newStepLaw(p Params, tol float64) *stepLaw {
	return &stepLaw{p: p, shape: newShape(p.C, p.Beta, p.Gamma, tol)}
}

// eval returns A*(S1+S_W)^(-alpha) and LD at step t of s (s.prefix[t] > 0).
func (l *stepLaw) eval(s *series, t int) (s1Term, ld float64) {
	s1Term = l.p.A * math.Pow(s.prefix[t], -l.p.Alpha)
	if l.p.B == 0 {
		return s1Term, 0
	}
	l.refs, l.stack = s.collect(t, l.shape, l.refs[:0], l.stack)
	l.count += len(l.refs)
	return s1Term, l.p.B * s.lossDrop(t, l.refs, l.shape, false).ld
}

// lossDrop sums the referenced groups at step t: LD(t)/B and, if grad, its derivatives.
func (s *series) lossDrop(t int, refs []int32, sh *shape, grad bool) drop {
	var out drop
	pt := s.prefix[t]
	for _, ref := range refs {
		tm := s.term(ref, pt)
		sh.add(&out, &tm, grad)
	}
	return out
}

// add adds the term tm (w times G, with its second-order spread correction) to out, and
// its derivatives if grad.
func (sh *shape) add(out *drop, tm *groupTerm, grad bool) {
	var y, l, e [1]float64
	sh.addTerms(out, []groupTerm{*tm}, []int32{0}, []float64{sh.factor(tm.a)}, 0, y[:], l[:], e[:], grad)
}
