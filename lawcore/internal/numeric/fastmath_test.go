package numeric

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps is the distance of got from want in units of want's last place.
func ulps(got, want float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / (math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want))
}

func TestFastMath(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	worstExp, worstLog := 0.0, 0.0
	for i := 0; i < 2_000_000; i++ {
		x := (rng.Float64()*2 - 1) * math.Pow(10, rng.Float64()*5-3) * 7 // down to 7e-3 .. 700
		worstExp = math.Max(worstExp, ulps(Exp(x), math.Exp(x)))
		z := math.Exp(rng.Float64()*80 - 40)
		if i%2 == 0 {
			z = 1 + rng.Float64()*math.Pow(10, -rng.Float64()*12)
		}
		worstLog = math.Max(worstLog, math.Abs(Log(z)-math.Log(z))/math.Max(1, math.Abs(math.Log(z)))/0x1p-52)
	}
	t.Logf("exp: worst %.2f ulp; log: worst %.2f ulp (absolute below 1)", worstExp, worstLog)
	if worstExp > 4 || worstLog > 4 {
		t.Errorf("exp %.2f ulp, log %.2f ulp: want at most 4", worstExp, worstLog)
	}
	for _, x := range []float64{0, 1, -1, 700, -700, 710, -746, math.Inf(1), math.Inf(-1), math.NaN()} {
		if got, want := Exp(x), math.Exp(x); got != want && !(math.IsNaN(got) && math.IsNaN(want)) && ulps(got, want) > 4 {
			t.Errorf("exp(%v) = %v, want %v", x, got, want)
		}
	}
	for _, z := range []float64{1, 2, 0.5, 0, -1, 1e-310, 1e300, math.Inf(1), math.NaN()} {
		if got, want := Log(z), math.Log(z); got != want && !(math.IsNaN(got) && math.IsNaN(want)) && ulps(got, want) > 4 {
			t.Errorf("log(%v) = %v, want %v", z, got, want)
		}
	}
}

func BenchmarkExp(b *testing.B) {
	x, s := -0.3, 0.0
	for b.Loop() {
		s += Exp(x)
		x -= 1e-9
	}
	mpowSink = s
}

func BenchmarkLog(b *testing.B) {
	x, s := 3.3, 0.0
	for b.Loop() {
		s += Log(x)
		x += 1e-9
	}
	mpowSink = s
}

var mpowSink float64
