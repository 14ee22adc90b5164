package schedule

import (
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// A constant schedule has S1 = eta*(s+1) (the sums include step 0) and S2 = 0.
func TestAreasConstantClosedForm(t *testing.T) {
	lr, _ := Schedule{Kind: KindConstant, Total: 1000, Peak: 3e-4}.LR()
	a, err := ComputeAreas(CountedLR(lr, 0, WarmupPeak), 0.999)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []int{0, 1, 500, 1000} {
		if want := 3e-4 * float64(s+1); !numeric.CloseRel(a.S1[s], want, 1e-12) {
			t.Errorf("S1[%d] = %g, want %g", s, a.S1[s], want)
		}
		if a.S2[s] != 0 {
			t.Errorf("S2[%d] = %g, want 0", s, a.S2[s])
		}
	}
}

// A single drop of d at step k gives m_i = d*lambda^(i-k) and S2(s) = d*(1-lambda^(s-k+1))/(1-lambda).
func TestAreasStepDropClosedForm(t *testing.T) {
	const lambda, k, d = 0.99, 100, 0.5
	lr := make([]float64, 1001)
	for i := range lr {
		lr[i] = 1
		if i >= k {
			lr[i] = 1 - d
		}
	}
	a, _ := ComputeAreas(CountedLR(lr, 0, WarmupActual), lambda)
	for _, s := range []int{k - 1, k, k + 1, 500, 1000} {
		want := 0.0
		if s >= k {
			want = d * (1 - math.Pow(lambda, float64(s-k+1))) / (1 - lambda)
		}
		if !numeric.CloseRel(a.S2[s], want, 1e-12) {
			t.Errorf("S2[%d] = %.15g, want %.15g", s, a.S2[s], want)
		}
	}
	// lambda = 0: no momentum, S2 is the total drop so far
	a0, _ := ComputeAreas(CountedLR(lr, 0, WarmupActual), 0)
	if a0.S2[1000] != d || a0.S2[k-1] != 0 {
		t.Errorf("lambda 0: S2 = %g at the end, %g before the drop; want %g and 0", a0.S2[1000], a0.S2[k-1], d)
	}
}

// The derivative of S2 in lambda agrees with a central difference.
func TestAreasLambdaDerivative(t *testing.T) {
	lr, _ := Schedule{Kind: KindCosine, Total: 5000, Peak: 3e-4, Warmup: 100, Final: 3e-5}.LR()
	const lambda, h = 0.995, 1e-6
	a, _ := ComputeAreas(CountedLR(lr, 100, WarmupActual), lambda)
	up, _ := ComputeAreas(CountedLR(lr, 100, WarmupActual), lambda+h)
	down, _ := ComputeAreas(CountedLR(lr, 100, WarmupActual), lambda-h)
	for _, s := range []int{50, 1000, 5000} {
		fd := (up.S2[s] - down.S2[s]) / (2 * h)
		if !numeric.CloseRel(a.DS2[s], fd, 1e-5*math.Max(1, math.Abs(fd))) {
			t.Errorf("dS2/dlambda at %d = %g, central difference %g", s, a.DS2[s], fd)
		}
	}
}

// Under the peak convention the warmup counts at the LR where warmup ends: the warmup
// contributes no annealing and S1 grows by that LR per step.
func TestAreasWarmupConventions(t *testing.T) {
	lr, _ := Schedule{Kind: KindConstant, Total: 1000, Peak: 2e-4, Warmup: 500}.LR()
	peak, _ := ComputeAreas(CountedLR(lr, 500, WarmupPeak), 0.999)
	actual, _ := ComputeAreas(CountedLR(lr, 500, WarmupActual), 0.999)
	if want := 2e-4 * 1001; !numeric.CloseRel(peak.S1[1000], want, 1e-12) || peak.S2[1000] != 0 {
		t.Errorf("peak: S1 %g S2 %g, want %g and 0", peak.S1[1000], peak.S2[1000], want)
	}
	// linear warmup from 0: the ramp's area is 2e-4 * (0+1+...+499)/500 = 2e-4 * 249.5
	if want := 2e-4 * (249.5 + 501); !numeric.CloseRel(actual.S1[1000], want, 1e-12) {
		t.Errorf("actual: S1 %g, want %g", actual.S1[1000], want)
	}
	if actual.S2[1000] >= 0 {
		t.Errorf("actual: a warmup is a re-warmup for the law, S2 should be negative, got %g", actual.S2[1000])
	}
	if _, err := ComputeAreas(CountedLR(lr, 0, WarmupPeak), 1); err == nil {
		t.Error("lambda 1 accepted")
	}
}

// FinalAreas is the last entry of ComputeAreas, for every kind of schedule and both
// conventions.
func TestFinalAreasMatchesComputeAreas(t *testing.T) {
	for _, p := range Presets() {
		for _, conv := range []Convention{WarmupPeak, WarmupActual} {
			lr, err := p.Schedule.LR()
			if err != nil {
				t.Fatal(p.ID, err)
			}
			counted := CountedLR(lr, p.Schedule.WarmupSteps(), conv)
			a, _ := ComputeAreas(counted, 0.999)
			s1, s2 := FinalAreas(counted, 0.999)
			n := len(lr) - 1
			if !numeric.CloseRel(s1, a.S1[n], 1e-12) || !numeric.CloseRel(s2, a.S2[n], 1e-12) {
				t.Errorf("%s %s: FinalAreas (%g, %g), ComputeAreas (%g, %g)", p.ID, conv, s1, s2, a.S1[n], a.S2[n])
			}
		}
	}
}
