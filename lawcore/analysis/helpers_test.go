package analysis

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
)

// annealingEvaluator is the evaluator of the annealing law with p under conv.
func annealingEvaluator(p lawcore.Params, conv lawcore.Convention) *evaluator {
	theta, err := lawcore.Annealing.Spec().Theta(p.Values())
	if err != nil {
		panic(err)
	}
	return &evaluator{law: lawcore.Annealing, theta: theta, conv: conv}
}

// closeRel reports whether a and b agree to a relative tolerance (absolute near zero).
func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
