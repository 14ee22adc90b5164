package numeric

import "math"

// Table-driven exp and log for inner loops such as the Multi-Power Law's loss drop, which
// evaluates (1+y)^(-beta) tens of thousands of times per objective evaluation. They agree
// with math.Exp and math.Log to a few ulp (tested), and are several times faster where
// math has no assembly (GOARCH=wasm, where the page runs).

// expTable[j] = 2^(j/expN).
const expN = 64

var expTable = func() (t [expN]float64) {
	for j := range t {
		t[j] = math.Exp2(float64(j) / expN)
	}
	return t
}()

// ln 2 / expN split in two (a high part with trailing zero bits, so that k*hi is exact).
const (
	ln2NHi = 0.01083042469326756 // ln2/64 cut to 32 bits
	ln2NLo = 2.9815858269852933e-12
)

// Exp is e^x.
func Exp(x float64) float64 {
	if !(x > -700 && x < 700) {
		return math.Exp(x) // the range ends, NaN and infinities
	}
	// k = x*N/ln2 rounded to an integer, by adding 1.5*2^52: the sum's last bits are k
	// (the conversion to float64 rounds the product on its own, whatever the compiler fuses)
	t := float64(x*(expN/math.Ln2)) + 0x1.8p52
	ki := int64(math.Float64bits(t) & (1<<32 - 1))
	k := t - 0x1.8p52
	ki = ki << 32 >> 32            // sign-extend the low 32 bits: k may be negative
	r := (x - k*ln2NHi) - k*ln2NLo // |r| <= ln2/(2N)
	// e^r to degree 6: the remainder r^7/5040 is below 1e-19
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720))))))
	j := ki & (expN - 1)
	return p * expTable[j] * math.Float64frombits(uint64(1023+(ki-j)/expN)<<52)
}

// logTable holds, for c_j = 1 + j/logN, ln c_j and 1/c_j.
const logN = 128

var logTable = func() (t [logN + 1][2]float64) {
	for j := range t {
		c := 1 + float64(j)/logN
		t[j] = [2]float64{math.Log(c), 1 / c}
	}
	return t
}()

// Log is ln z for z > 0.
func Log(z float64) float64 {
	if !(z >= 0x1p-1000 && z <= 0x1p1000) {
		return math.Log(z) // the range ends, zero, NaN and infinities
	}
	bits := math.Float64bits(z)
	e := int64(bits>>52) - 1023
	m := math.Float64frombits(bits&(1<<52-1) | 1023<<52) // in [1, 2)
	j := int64((m - 1) * logN)                           // c_j <= m < c_(j+1)
	c := 1 + float64(j)/logN
	r := (m - c) * logTable[j][1] // in [0, 1/128); m - c is exact
	// ln(1+r) to degree 8: the remainder r^9/9 is below 1e-20
	p := r * (1 - r*(1.0/2-r*(1.0/3-r*(1.0/4-r*(1.0/5-r*(1.0/6-r*(1.0/7-r*(1.0/8))))))))
	return float64(e)*math.Ln2 + logTable[j][0] + p
}
