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
	ki, r := expReduce(x)
	return expScale(ki, r)
}

// expReduce splits x into k ln2/N + r, |r| <= ln2/(2N), for |x| < 700: k = x*N/ln2 rounded to
// an integer, by adding 1.5*2^52, the sum's last 32 bits being k, sign-extended as k may be
// negative (the conversion to float64 rounds the product on its own, whatever the compiler
// fuses). It and expScale are small enough to inline, so that a loop such as
// LogOnePlusPowTo makes no call for an exp.
func expReduce(x float64) (int64, float64) {
	t := float64(x*(expN/math.Ln2)) + 0x1.8p52
	k := t - 0x1.8p52
	return int64(math.Float64bits(t)&(1<<32-1)) << 32 >> 32, (x - k*ln2NHi) - k*ln2NLo
}

// expScale is e^(k ln2/N + r): e^r to degree 6 (the remainder r^7/5040 is below 1e-19) times
// 2^(k/N) from the table and the exponent.
func expScale(ki int64, r float64) float64 {
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
	e, j, r := logReduce(z)
	return logSum(e, j, r)
}

// logReduce splits z in [2^-1000, 2^1000] into 2^e c_j (1+r), r in [0, 1/128): m - c_j is
// exact for the mantissa m in [1, 2) and c_j <= m < c_(j+1). Like expReduce, it and logSum
// inline.
func logReduce(z float64) (int64, int64, float64) {
	bits := math.Float64bits(z)
	m := math.Float64frombits(bits&(1<<52-1) | 1023<<52)
	j := int64((m - 1) * logN)
	return int64(bits>>52) - 1023, j, (m - (1 + float64(j)/logN)) * logTable[j][1]
}

// logSum is e ln2 + ln c_j + ln(1+r), the last to degree 8 (the remainder r^9/9 is below
// 1e-20).
func logSum(e, j int64, r float64) float64 {
	p := r * (1 - r*(1.0/2-r*(1.0/3-r*(1.0/4-r*(1.0/5-r*(1.0/6-r*(1.0/7-r*(1.0/8))))))))
	return float64(e)*math.Ln2 + logTable[j][0] + p
}

// LogOnePlusPowTo sets l[i] to Log(1+y[i]) (to one ulp of 1 absolutely) and e[i] to
// Exp(-beta*l[i]), that is (1+y)^(-beta) as the Multi-Power Law's G needs it, to the same bits
// as those calls, for every i of y, with no call per element where both are in range: in wasm
// a call costs about as much as the operation.
func LogOnePlusPowTo(l, e, y []float64, beta float64) {
	l, e = l[:len(y)], e[:len(y)]
	for i, yi := range y {
		z := 1 + yi
		var li float64
		if z >= 0x1p-1000 && z <= 0x1p1000 {
			li = logSum(logReduce(z))
		} else {
			li = math.Log(z)
		}
		l[i] = li
		if x := -beta * li; x > -700 && x < 700 {
			e[i] = expScale(expReduce(x))
		} else {
			e[i] = math.Exp(x)
		}
	}
}
