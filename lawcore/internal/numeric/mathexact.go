//go:build !wasm

package numeric

import "math"

// MathLog is math.Log and MathExp math.Exp, to the last bit, for the loops over every point of
// a fit: where the math package has them in assembly (amd64, arm64) they are its own, and in
// wasm a copy of its Go code, one call instead of three (mathexact_wasm.go).
func MathLog(x float64) float64 { return math.Log(x) }

// MathExp is math.Exp (see MathLog).
func MathExp(x float64) float64 { return math.Exp(x) }
