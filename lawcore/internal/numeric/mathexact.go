//go:build !wasm

package numeric

import "math"

// MathLog is math.Log and MathExp math.Exp, to the last bit, for the loops over every point of
// a fit; MathLogTo and MathExpTo take them over a slice. Where the math package has them in
// assembly (amd64, arm64) they are its own; in wasm they are copies of its Go code, one call
// instead of three, and none in the loops of MathLogTo and MathExpTo (mathexact_wasm.go).
func MathLog(x float64) float64 { return math.Log(x) }

// MathExp is math.Exp (see MathLog).
func MathExp(x float64) float64 { return math.Exp(x) }

// MathLogTo sets dst[i] to math.Log(src[i]) for each i of src (dst may be src).
func MathLogTo(dst, src []float64) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = math.Log(x)
	}
}

// MathExpTo sets dst[i] to math.Exp(scale*src[i]) for each i of src (dst may be src).
func MathExpTo(dst, src []float64, scale float64) {
	dst = dst[:len(src)]
	for i, x := range src {
		dst[i] = math.Exp(scale * x)
	}
}
