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

// within4 reports whether got is want, or both are NaN, or got is within 4 ulp of want (false
// for a NaN or infinite got beside a finite want, and for a finite got beside an infinite want).
func within4(got, want float64) bool {
	return got == want || math.IsNaN(got) && math.IsNaN(want) || ulps(got, want) <= 4
}

func TestFastMath(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	worstExp, worstLog := 0.0, 0.0
	badExp, badLog := 0, 0
	for i := 0; i < 2_000_000; i++ {
		x := (rng.Float64()*2 - 1) * math.Pow(10, rng.Float64()*5-3) * 7 // down to 7e-3 .. 700
		e := ulps(Exp(x), math.Exp(x))
		// written !(e <= 4) so that a NaN counts as a failure
		if !(e <= 4) {
			if badExp++; badExp <= 3 {
				t.Errorf("exp(%v) = %v, want %v", x, Exp(x), math.Exp(x))
			}
		}
		worstExp = math.Max(worstExp, e)
		z := math.Exp(rng.Float64()*80 - 40)
		if i%2 == 0 {
			z = 1 + rng.Float64()*math.Pow(10, -rng.Float64()*12)
		}
		// absolute error where |log z| < 1 (the relative error of log near 1 is unbounded)
		l := math.Abs(Log(z)-math.Log(z)) / math.Max(1, math.Abs(math.Log(z))) / 0x1p-52
		if !(l <= 4) {
			if badLog++; badLog <= 3 {
				t.Errorf("log(%v) = %v, want %v", z, Log(z), math.Log(z))
			}
		}
		worstLog = math.Max(worstLog, l)
	}
	t.Logf("exp: worst %.2f ulp; log: worst %.2f ulp (absolute below 1); %d and %d beyond 4", worstExp, worstLog, badExp, badLog)
	for _, x := range []float64{0, 1, -1, 700, -700, 710, -746, math.Inf(1), math.Inf(-1), math.NaN()} {
		if got, want := Exp(x), math.Exp(x); !within4(got, want) {
			t.Errorf("exp(%v) = %v, want %v", x, got, want)
		}
	}
	for _, z := range []float64{1, 2, 0.5, 0, -1, 1e-310, 1e300, math.Inf(1), math.NaN()} {
		if got, want := Log(z), math.Log(z); !within4(got, want) {
			t.Errorf("log(%v) = %v, want %v", z, got, want)
		}
	}
}

// TestLogOnePlusPowToIsLogAndExp checks the batched (1+y)^(-beta) against Log and Exp called
// one by one, to the bit, over G's whole range: y from 1e-300 to past the saturation, zero and
// infinity, and exponents beyond Exp's fast range.
func TestLogOnePlusPowToIsLogAndExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var y []float64
	for range 20000 {
		y = append(y, math.Exp(rng.Float64()*1400-700))
	}
	y = append(y, 0, 1e-300, 1e250, 1e308, math.Inf(1), math.NaN())
	l, e := make([]float64, len(y)), make([]float64, len(y))
	for _, beta := range []float64{0.5, 1e-6, 3, 1500} {
		LogOnePlusPowTo(l, e, y, beta)
		for i, yi := range y {
			wantL := Log(1 + yi)
			wantE := Exp(-beta * wantL)
			if math.Float64bits(l[i]) != math.Float64bits(wantL) || math.Float64bits(e[i]) != math.Float64bits(wantE) {
				t.Fatalf("beta %v, y %v: got ln(1+y) %v, (1+y)^-beta %v; Log and Exp give %v, %v", beta, yi, l[i], e[i], wantL, wantE)
			}
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
