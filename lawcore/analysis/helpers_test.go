package analysis

import (
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// annealingEvaluator is the evaluator of the annealing law with p under conv.
func annealingEvaluator(p annealing.Params, conv schedule.Convention) *evaluator {
	theta, err := annealing.Law.Spec().Theta(p.Values())
	if err != nil {
		panic(err)
	}
	return &evaluator{law: annealing.Law, theta: theta, conv: conv}
}

var closeRel = numeric.CloseRel
