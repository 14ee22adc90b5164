package numeric

import (
	"math"
	"math/rand/v2"
	"testing"
)

// MathLog and MathExp are math.Log and math.Exp to the last bit (in wasm, where they are
// copies, this is what the test is for): on a million random numbers over the whole range of
// each, every power of two's neighbourhood the ranges meet, and the special values.
func TestMathLogExpAreMaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var src []float64
	same := func(what string, x, got, want float64) {
		t.Helper()
		src = append(src, x)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("%s(%v) = %v, math's %v", what, x, got, want)
		}
	}
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64,
		0x1p-1022, math.MaxFloat64, math.Sqrt2 / 2, math.Nextafter(math.Sqrt2/2, 0), 700, -700, math.Nextafter(700, 0),
		math.Nextafter(-700, 0), 0x1p-28, -0x1p-28, math.Nextafter(0x1p-28, 1), 709.78, -745.1, 1e-9, 1e9}
	for _, x := range special {
		same("MathLog", x, MathLog(x), math.Log(x))
		same("MathExp", x, MathExp(x), math.Exp(x))
	}
	for e := -1074; e <= 1023; e++ {
		for _, m := range []float64{1, math.Sqrt2 / 2, 0.75, 1.5, math.Nextafter(1, 0), math.Nextafter(1, 2)} {
			x := math.Ldexp(m, e)
			same("MathLog", x, MathLog(x), math.Log(x))
		}
	}
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	for i := 0; i < n; i++ {
		// log: positive numbers over every exponent; exp: arguments over (-750, 750), and small ones
		x := math.Ldexp(1+rng.Float64(), rng.IntN(2098)-1074)
		same("MathLog", x, MathLog(x), math.Log(x))
		y := (rng.Float64()*2 - 1) * 750
		if i%4 == 0 {
			y = math.Ldexp(rng.Float64()*2-1, -rng.IntN(40))
		}
		same("MathExp", y, MathExp(y), math.Exp(y))
		// where a fit's points are: the log of a loss, the exp of -alpha ln S1
		l := 1 + 9*rng.Float64()
		same("MathLog", l, MathLog(l), math.Log(l))
		e := -10 * rng.Float64()
		same("MathExp", e, MathExp(e), math.Exp(e))
	}
	// the same numbers through MathLogTo and MathExpTo, in place as well
	logs, exps, scaled := make([]float64, len(src)), append([]float64(nil), src...), make([]float64, len(src))
	MathLogTo(logs, src)
	MathExpTo(exps, exps, 1)
	MathExpTo(scaled, src, -0.37)
	for i, x := range src {
		same("MathLogTo", x, logs[i], math.Log(x))
		same("MathExpTo", x, exps[i], math.Exp(x))
		same("MathExpTo scaled", x, scaled[i], math.Exp(-0.37*x))
	}
}
