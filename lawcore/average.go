package lawcore

import (
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Candidate is one law with its settings, as auto compares them.
type Candidate struct {
	// Law names the law; Convention and Lambda are its warmup convention and decay factor
	// (nil for a law without one); Search its search.
	Law        string              `json:"law"`
	Convention schedule.Convention `json:"warmupConvention"`
	Lambda     *LambdaSetting      `json:"lambda,omitempty"`
	Search     string              `json:"search,omitempty"`
	// Label says it in words; Free counts the parameters it fits.
	Label string `json:"label"`
	Free  int    `json:"free"`
}

// Apply is req with the candidate's law and settings.
func (c Candidate) Apply(req FitRequest) FitRequest {
	req.Auto, req.Law, req.WarmupConvention, req.Search = false, c.Law, string(c.Convention), c.Search
	if c.Lambda != nil {
		req.Lambda = *c.Lambda
	}
	return req
}

// Member is one law of an averaged prediction: a candidate with its fitted parameters and
// its weight.
type Member struct {
	Candidate
	// Params are the candidate's parameters fitted on every fit curve.
	Params Values `json:"params"`
	// Weight is its share of the average (the weights sum to 1).
	Weight float64 `json:"weight"`
}

// predictor is one law a prediction evaluates, with its parameter vector, warmup convention
// and weight; where names it in messages ("" for the request's own law).
type predictor struct {
	law    Law
	theta  []float64
	conv   schedule.Convention
	weight float64
	where  string
}

// predictors are the laws req predicts with: its members, their weights scaled to sum to
// one, or else its law alone.
func (req PredictRequest) predictors() ([]predictor, error) {
	if len(req.Members) == 0 {
		p, err := bindPredictor(req.Law, req.Params, req.WarmupConvention, 1)
		return []predictor{p}, err
	}
	return weighted(req.Members, "member")
}

// bindPredictor is the law named with its parameters, warmup convention and weight.
func bindPredictor(name string, params Values, conv string, weight float64) (predictor, error) {
	law, err := Lookup(name)
	if err != nil {
		return predictor{}, err
	}
	spec := law.Spec()
	theta, err := spec.Theta(params)
	if err != nil {
		return predictor{}, err
	}
	c, err := schedule.ParseConvention(conv, spec.Convention)
	if err != nil {
		return predictor{}, err
	}
	return predictor{law: law, theta: theta, conv: c, weight: weight}, nil
}

// weighted are the members as predictors, their weights scaled to sum to one; what names them
// in messages ("member" makes "member 2 (multi-power)").
func weighted(members []Member, what string) ([]predictor, error) {
	sum := 0.0
	for i, m := range members {
		if !(m.Weight >= 0) || math.IsInf(m.Weight, 0) {
			return nil, input.Errorf(fmt.Sprintf("%s %d", what, i+1), "weight", "must be a number of 0 or more, got %g", m.Weight)
		}
		sum += m.Weight
	}
	if !(sum > 0) {
		return nil, input.Errorf("", what+"s", "the weights sum to %g: at least one must be positive", sum)
	}
	out := make([]predictor, len(members))
	for i, m := range members {
		where := fmt.Sprintf("%s %d (%s)", what, i+1, m.Law)
		p, err := bindPredictor(m.Law, m.Params, string(m.Convention), m.Weight/sum)
		if err != nil {
			return nil, input.Within(where, err)
		}
		p.where = where
		out[i] = p
	}
	return out, nil
}

// scale multiplies a prediction's losses and terms by w (a member's share of an average).
// The areas (FinalS1, FinalS2) stay: an average's are its first member's.
func (p *Prediction) scale(w float64) {
	p.FinalLoss *= w
	for _, col := range [][]float64{p.Loss, p.S1Term, p.S2Term} {
		for j := range col {
			col[j] *= w
		}
	}
}

// add adds w times q's losses and terms to p's (q predicts the same steps: every law leaves
// out the same untrained ones).
func (p *Prediction) add(q Prediction, w float64) {
	p.FinalLoss += w * q.FinalLoss
	for j := range p.Loss {
		p.Loss[j] += w * q.Loss[j]
		p.S1Term[j] += w * q.S1Term[j]
		p.S2Term[j] += w * q.S2Term[j]
	}
}
