package lawcore

import (
	"fmt"
	"math"
)

// PredictCurve is a schedule to predict: either Schedule or LR (the learning rate of every
// step from 0), and optionally the steps at which to predict.
type PredictCurve struct {
	// Name identifies the curve in results and error messages.
	Name string `json:"name"`
	// Schedule describes the learning-rate schedule.
	Schedule *Schedule `json:"schedule,omitempty"`
	// LR is the learning rate of every step from 0, when no Schedule is given.
	LR []float64 `json:"lr,omitempty"`
	// Steps, if given, are the only steps predicted (whole, increasing, within the schedule).
	Steps []float64 `json:"steps,omitempty"`
}

// PredictRequest asks for the loss curves of schedules under given parameters. Its JSON form
// is the README's predict request.
type PredictRequest struct {
	// Model is the law: "annealing" (default) or "multi-power".
	Model string `json:"model,omitempty"`
	// Params are the annealing law's parameters (with the lambda the areas use).
	Params Params `json:"params"`
	// MultiPower are the Multi-Power Law's parameters, used (and needed) when Model is
	// "multi-power"; Params is then ignored.
	MultiPower *MultiPowerParams `json:"multiPower,omitempty"`
	// WarmupSteps is the warmup of LR-list curves and the default warmup of schedules.
	WarmupSteps int `json:"warmupSteps"`
	// WarmupConvention is "peak" or "actual"; the default is each law's own: "peak" (the
	// paper's) for the annealing law, "actual" for the Multi-Power Law (as FitMultiPower).
	WarmupConvention string `json:"warmupConvention,omitempty"`
	// Curves are the schedules to predict.
	Curves []PredictCurve `json:"curves"`
	// Points thins each curve to about this many evenly spaced steps (0: every step).
	Points int `json:"points,omitempty"`
}

// DecodePredictRequest parses a predict request's JSON, rejecting unknown fields.
func DecodePredictRequest(data []byte) (PredictRequest, error) {
	var r PredictRequest
	if err := decodeStrict(data, &r); err != nil {
		return PredictRequest{}, &InputError{Where: "predict request", Msg: err.Error()}
	}
	return r, nil
}

// Prediction is one predicted loss curve. The per-step arrays are left out of JSON: they are
// large, and cross to JavaScript as typed arrays.
type Prediction struct {
	Name string `json:"name"`
	// Total is the schedule's last step.
	Total int `json:"total"`
	// FinalLoss, FinalS1 and FinalS2 are the loss and the areas at the last step.
	FinalLoss float64 `json:"finalLoss"`
	FinalS1   float64 `json:"finalS1"`
	FinalS2   float64 `json:"finalS2"`

	// Steps are the predicted steps; LR, Loss, S1Term (A*S1^-alpha) and S2Term (C*S2) are
	// their values there, so that Loss = L0 + S1Term - S2Term. For the Multi-Power Law
	// S1Term is A*(S1+S_W)^-alpha, S2Term the loss drop LD, and FinalS2 is 0 (it has no S2).
	Steps, LR, Loss, S1Term, S2Term []float64 `json:"-"`
}

// Predict evaluates the request's law on every curve of the request. Steps where nothing has
// been trained yet (S1 = 0, such as step 0 of a warmup from zero) are left out.
func Predict(req PredictRequest) ([]Prediction, error) {
	multiPower, err := req.checkModel()
	if err != nil {
		return nil, err
	}
	conv := WarmupPeak
	if multiPower {
		conv = WarmupActual
	}
	if req.WarmupConvention != "" {
		if conv, err = ParseConvention(req.WarmupConvention); err != nil {
			return nil, err
		}
	}
	if req.Points < 0 {
		return nil, Errorf("", "points", "must be zero or more, got %d", req.Points)
	}
	if len(req.Curves) == 0 {
		return nil, Errorf("", "curves", "no schedules to predict")
	}
	out := make([]Prediction, len(req.Curves))
	f := &mpowFrozen{}
	for i, c := range req.Curves {
		where := curveLabel(i, c.Name)
		lr, warmup, err := expandSchedule(where, c.Schedule, c.LR, req.WarmupSteps)
		if err != nil {
			return nil, err
		}
		steps, err := predictSteps(where, c.Steps, len(lr)-1, req.Points)
		if err != nil {
			return nil, err
		}
		if multiPower {
			out[i] = predictOneMultiPower(c.Name, *req.MultiPower, lr, warmup, conv, steps, f)
		} else {
			out[i] = predictOne(c.Name, req.Params, lr, warmup, conv, steps)
		}
		if err := out[i].checkFinite(where); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkFinite reports a prediction whose loss is not a finite number anywhere (parameters or
// learning rates so large that the law overflows float64): it could not be drawn or exported.
func (pr *Prediction) checkFinite(where string) error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	bad := -1.0
	switch {
	case !finite(pr.FinalLoss) || !finite(pr.FinalS1) || !finite(pr.FinalS2):
		bad = float64(pr.Total)
	default:
		for k := range pr.Loss {
			if !finite(pr.Loss[k]) || !finite(pr.S1Term[k]) || !finite(pr.S2Term[k]) {
				bad = pr.Steps[k]
				break
			}
		}
	}
	if bad < 0 {
		return nil
	}
	return Errorf(where, "", "the predicted loss is not a finite number at step %.0f: the parameters or the learning rates are too large", bad)
}

// checkModel checks the request's model and its parameters; it reports whether the model is
// the Multi-Power Law.
func (req PredictRequest) checkModel() (multiPower bool, err error) {
	switch req.Model {
	case "", ModelAnnealing:
		return false, req.Params.Validate()
	case ModelMultiPower:
		if req.MultiPower == nil {
			return true, Errorf("", "multiPower", "the Multi-Power Law's parameters are missing")
		}
		return true, req.MultiPower.Validate()
	}
	return false, Errorf("", "model", `must be %q or %q, got %q`, ModelAnnealing, ModelMultiPower, req.Model)
}

// predictSteps returns the steps to predict: the given ones (checked), or 1..last thinned to
// about points steps, the last always included.
func predictSteps(where string, given []float64, last, points int) ([]int, error) {
	if len(given) > 0 {
		steps := make([]int, len(given))
		for k, st := range given {
			if st != math.Trunc(st) || st < 0 || st > float64(last) || (k > 0 && st <= given[k-1]) {
				return nil, Errorf(where, fmt.Sprintf("steps[%d]", k),
					"must be whole, increasing steps within the schedule (0..%d), got %v", last, st)
			}
			steps[k] = int(st)
		}
		return steps, nil
	}
	stride := 1
	if points > 0 && last > points {
		stride = (last + points - 1) / points
	}
	steps := make([]int, 0, last/stride+2)
	for s := stride; s < last; s += stride {
		steps = append(steps, s)
	}
	return append(steps, last), nil
}

// predictOne computes one curve's areas and the law along them.
func predictOne(name string, p Params, lr []float64, warmup int, conv Convention, steps []int) Prediction {
	n := len(lr)
	s1, s2 := make([]float64, n), make([]float64, n)
	FillAreas(s1, s2, nil, lr, p.Lambda, warmup, conv)
	pr := Prediction{Name: name, Total: n - 1, FinalS1: s1[n-1], FinalS2: s2[n-1]}
	pr.FinalLoss = p.Loss(s1[n-1], s2[n-1])
	m := len(steps)
	pr.Steps, pr.LR, pr.Loss = make([]float64, 0, m), make([]float64, 0, m), make([]float64, 0, m)
	pr.S1Term, pr.S2Term = make([]float64, 0, m), make([]float64, 0, m)
	for _, s := range steps {
		if !(s1[s] > 0) {
			continue
		}
		t1, t2 := p.Terms(s1[s], s2[s])
		pr.Steps = append(pr.Steps, float64(s))
		pr.LR = append(pr.LR, lr[s])
		pr.S1Term = append(pr.S1Term, t1)
		pr.S2Term = append(pr.S2Term, t2)
		pr.Loss = append(pr.Loss, p.L0+t1-t2)
	}
	if !(s1[n-1] > 0) {
		pr.FinalLoss = 0 // nothing was trained: the law has no value
	}
	return pr
}

// FitLines predicts every curve of a fit request, at every step (or about req.Points steps),
// with the fitted parameters: the lines a page draws through the observed points.
func FitLines(req FitRequest, p Params) ([]Prediction, error) {
	pr := PredictRequest{Params: p, WarmupSteps: req.WarmupSteps, WarmupConvention: req.WarmupConvention, Points: req.Points}
	for _, c := range req.Curves {
		pr.Curves = append(pr.Curves, PredictCurve{Name: c.Name, Schedule: c.Schedule, LR: c.LR})
	}
	return Predict(pr)
}
