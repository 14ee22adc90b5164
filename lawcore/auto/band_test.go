package auto

import (
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// TestUnseenScheduleBase checks the prior of a band calibrated on one curve's forecasts
// against the half-normal's closed form: with mean |e| = 0.2%, σ = 0.002·sqrt(π/2), and the
// share level of |e| lies within σ·z, z the normal's (1+level)/2 quantile (1.6448536 at 90%,
// 0.6744898 at 50%, from the normal table).
func TestUnseenScheduleBase(t *testing.T) {
	sigma := 0.002 * math.Sqrt(math.Pi/2)
	for _, c := range []struct{ level, z float64 }{{0.9, 1.6448536}, {0.5, 0.6744898}, {0.95, 1.9599640}} {
		if got, want := unseenScheduleBase(c.level), sigma*c.z; !(math.Abs(got-want) <= 1e-9) {
			t.Errorf("level %g: %.7f, want %.7f", c.level, got, want)
		}
	}
	for _, c := range []struct {
		design         string
		base, wantBase float64
		wantFloor      bool
	}{
		{designForecast, 0.0006, unseenScheduleBase(0.9), true},
		{designForecast, 0.01, 0.01, true}, // a wider calibrated base stands
		{designBoth, 0.0006, 0.0006, false},
	} {
		b := lawcore.Band{Level: 0.9, Base: c.base, Growth: 1, Design: c.design}
		floorUnseen(&b)
		if b.Base != c.wantBase || (b.Floor > 0) != c.wantFloor {
			t.Errorf("%s, base %g: base %g floor %g, want base %g (floor %v)", c.design, c.base, b.Base, b.Floor, c.wantBase, c.wantFloor)
		}
	}
}
