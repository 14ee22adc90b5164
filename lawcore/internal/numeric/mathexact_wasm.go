//go:build wasm

package numeric

import "math"

// In wasm the math package computes Log and Exp in Go (FreeBSD's algorithms, log.go and
// exp.go), each through two or three calls (Log: log, Frexp; Exp: exp, expmulti, Ldexp) that
// the compiler does not inline. MathLog and MathExp are the same operations in the same order
// with Frexp and Ldexp written out for the numbers they meet (normal, finite, a normal result),
// and math's own for the rest: the same bits (TestMathLogExpAreMaths), in one call. The loops
// over every point of a fit spend a third of their time in these two.

// The constants of math's log.go and exp.go.
const (
	ln2Hi = 6.93147180369123816490e-01 /* 3fe62e42 fee00000 */
	ln2Lo = 1.90821492927058770002e-10 /* 3dea39ef 35793c76 */
	logL1 = 6.666666666666735130e-01   /* 3FE55555 55555593 */
	logL2 = 3.999999999940941908e-01   /* 3FD99999 9997FA04 */
	logL3 = 2.857142874366239149e-01   /* 3FD24924 94229359 */
	logL4 = 2.222219843214978396e-01   /* 3FCC71C5 1D8E78AF */
	logL5 = 1.818357216161805012e-01   /* 3FC74664 96CB03DE */
	logL6 = 1.531383769920937332e-01   /* 3FC39A09 D078C69F */
	logL7 = 1.479819860511658591e-01   /* 3FC2F112 DF3E5244 */

	log2e    = 1.44269504088896338700e+00
	nearZero = 1.0 / (1 << 28)             // 2**-28
	expP1    = 1.66666666666666657415e-01  /* 0x3FC55555; 0x55555555 */
	expP2    = -2.77777777770155933842e-03 /* 0xBF66C16C; 0x16BEBD93 */
	expP3    = 6.61375632143793436117e-05  /* 0x3F11566A; 0xAF25DE2C */
	expP4    = -1.65339022054652515390e-06 /* 0xBEBBBD41; 0xC5D26BF1 */
	expP5    = 4.13813679705723846039e-08  /* 0x3E663769; 0x72BEA4D0 */
)

// MathLog is math.Log (see above).
func MathLog(x float64) float64 {
	if !(x >= 0x1p-1022 && x <= math.MaxFloat64) {
		return math.Log(x) // zero, subnormal, negative, infinite, NaN
	}
	return logNormal(x)
}

// MathLogTo sets dst[i] to math.Log(src[i]) for each i of src (dst may be src): MathLog's
// operations written out in the loop, twice as fast as a call for each.
//
//go:noinline
func MathLogTo(dst, src []float64) {
	dst = dst[:len(src)]
	for i, x := range src {
		if !(x >= 0x1p-1022 && x <= math.MaxFloat64) {
			dst[i] = math.Log(x)
			continue
		}
		// logNormal(x)
		b := math.Float64bits(x)
		ki := int(b>>52&0x7ff) - 1022
		f1 := math.Float64frombits(b&^(0x7ff<<52) | 1022<<52)
		if f1 < math.Sqrt2/2 {
			f1 *= 2
			ki--
		}
		f := f1 - 1
		k := float64(ki)
		s := f / (2 + f)
		s2 := s * s
		s4 := s2 * s2
		t1 := s2 * (logL1 + s4*(logL3+s4*(logL5+s4*logL7)))
		t2 := s4 * (logL2 + s4*(logL4+s4*logL6))
		R := t1 + t2
		hfsq := 0.5 * f * f
		dst[i] = k*ln2Hi - ((hfsq - (s*(hfsq+R) + k*ln2Lo)) - f)
	}
}

// logNormal is math's log of a normal, finite, positive x.
func logNormal(x float64) float64 {
	// Frexp: x = f1 * 2^ki, f1 in [0.5, 1)
	b := math.Float64bits(x)
	ki := int(b>>52&0x7ff) - 1022
	f1 := math.Float64frombits(b&^(0x7ff<<52) | 1022<<52)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	t1 := s2 * (logL1 + s4*(logL3+s4*(logL5+s4*logL7)))
	t2 := s4 * (logL2 + s4*(logL4+s4*logL6))
	R := t1 + t2
	hfsq := 0.5 * f * f
	return k*ln2Hi - ((hfsq - (s*(hfsq+R) + k*ln2Lo)) - f)
}

// MathExp is math.Exp (see above).
func MathExp(x float64) float64 {
	if !(x > -700 && x < 700) || (-nearZero < x && x < nearZero) {
		return math.Exp(x) // far from 0 (overflow, underflow, subnormal), NaN, or 1+x
	}
	return expModerate(x)
}

// MathExpTo sets dst[i] to math.Exp(scale*src[i]) for each i of src (dst may be src):
// MathExp's operations written out in the loop, twice as fast as a call for each.
//
//go:noinline
func MathExpTo(dst, src []float64, scale float64) {
	dst = dst[:len(src)]
	for i, x := range src {
		x *= scale
		if !(x > -700 && x < 700) || (-nearZero < x && x < nearZero) {
			dst[i] = math.Exp(x)
			continue
		}
		// expModerate(x)
		var k int
		if x < 0 {
			k = int(log2e*x - 0.5)
		} else {
			k = int(log2e*x + 0.5)
		}
		hi := x - float64(k)*ln2Hi
		lo := float64(k) * ln2Lo
		r := hi - lo
		t := r * r
		c := r - t*(expP1+t*(expP2+t*(expP3+t*(expP4+t*expP5))))
		y := 1 - ((lo - (r*c)/(2-c)) - hi)
		b := math.Float64bits(y)
		e := int(b>>52&0x7ff) - 1023 + k
		b &^= 0x7ff << 52
		b |= uint64(e+1023) << 52
		dst[i] = math.Float64frombits(b)
	}
}

// expModerate is math's exp of an x in (-700, 700), not within 2^-28 of 0.
func expModerate(x float64) float64 {
	var k int
	if x < 0 {
		k = int(log2e*x - 0.5)
	} else {
		k = int(log2e*x + 0.5)
	}
	hi := x - float64(k)*ln2Hi
	lo := float64(k) * ln2Lo
	// expmulti
	r := hi - lo
	t := r * r
	c := r - t*(expP1+t*(expP2+t*(expP3+t*(expP4+t*expP5))))
	y := 1 - ((lo - (r*c)/(2-c)) - hi)
	// Ldexp(y, k) for a normal y and a normal result (|x| < 700: |k| <= 1010)
	b := math.Float64bits(y)
	e := int(b>>52&0x7ff) - 1023 + k
	b &^= 0x7ff << 52
	b |= uint64(e+1023) << 52
	return math.Float64frombits(b)
}
