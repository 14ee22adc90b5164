package analysis

import (
	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// annealingEvaluator is the evaluator of the annealing law with p under conv.
func annealingEvaluator(p lawcore.Params, conv schedule.Convention) *evaluator {
	theta, err := lawcore.Annealing.Spec().Theta(p.Values())
	if err != nil {
		panic(err)
	}
	return &evaluator{law: lawcore.Annealing, theta: theta, conv: conv}
}

var closeRel = numeric.CloseRel
