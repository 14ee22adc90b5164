package annealing

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
)

// Params are the annealing law's parameters, typed: L(s) = L0 + A*S1^(-Alpha) - C*S2, with
// the decay factor Lambda of the annealing momentum that S2 is computed with. The analyses
// and the model-size law work with them; the engine works with any law's [Values].
type Params struct {
	L0     float64 `json:"L0"`
	A      float64 `json:"A"`
	Alpha  float64 `json:"alpha"`
	C      float64 `json:"C"`
	Lambda float64 `json:"lambda"`
}

// Loss is the law's loss at areas s1 and s2.
func (p Params) Loss(s1, s2 float64) float64 {
	t1, t2 := p.Terms(s1, s2)
	return p.L0 + t1 - t2
}

// Terms are the two terms of the law apart: A*S1^(-alpha) and C*S2 (the loss drop due to
// annealing), so that Loss = L0 + s1Term - s2Term.
func (p Params) Terms(s1, s2 float64) (s1Term, s2Term float64) {
	// exp and log: several times faster than math.Pow, which matters over a million steps
	return p.A * math.Exp(-p.Alpha*math.Log(s1)), p.C * s2
}

// Validate checks that every parameter is a finite number, L0, A, alpha, C are not negative,
// and lambda is in [0, 1).
func (p Params) Validate() error {
	_, err := annealingSpec.Theta(p.Values())
	return err
}

// Values are the parameters by name.
func (p Params) Values() lawcore.Values {
	return lawcore.Values{"L0": p.L0, "A": p.A, "alpha": p.Alpha, "C": p.C, "lambda": p.Lambda}
}

// ParamsOf types the annealing law's parameters given by name (as a fit of the
// annealing law returns them), checking them.
func ParamsOf(v lawcore.Values) (Params, error) {
	theta, err := annealingSpec.Theta(v)
	if err != nil {
		return Params{}, err
	}
	return Params{L0: theta[annL0], A: theta[annA], Alpha: theta[annAlpha], C: theta[annC], Lambda: theta[annLambda]}, nil
}
