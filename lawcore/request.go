package lawcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// DefaultLambda is the decay factor the paper uses everywhere.
const DefaultLambda = 0.999

// DefaultHuberDelta is the paper's Huber delta.
const DefaultHuberDelta = 1e-3

// LambdaSetting is the decay factor lambda of a fit: a fixed value, or fitted. In JSON it is
// a number or the string "fit"; absent, it is DefaultLambda.
type LambdaSetting struct {
	// Value is the fixed lambda (ignored when Fit is set).
	Value float64
	// Fit asks the fit to estimate lambda too.
	Fit   bool
	given bool
}

// FixedLambda returns a setting that holds lambda at v.
func FixedLambda(v float64) LambdaSetting { return LambdaSetting{Value: v, given: true} }

// FittedLambda returns a setting that fits lambda.
func FittedLambda() LambdaSetting { return LambdaSetting{Fit: true, given: true} }

// fixed returns the fixed value, DefaultLambda when none was given.
func (l LambdaSetting) fixed() float64 {
	if !l.given && !l.Fit {
		return DefaultLambda
	}
	return l.Value
}

// UnmarshalJSON accepts a number or "fit".
func (l *LambdaSetting) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte(`"fit"`)) {
		*l = FittedLambda()
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf(`lambda must be a number or "fit", got %s`, b)
	}
	*l = FixedLambda(v)
	return nil
}

// MarshalJSON writes a number or "fit".
func (l LambdaSetting) MarshalJSON() ([]byte, error) {
	if l.Fit {
		return []byte(`"fit"`), nil
	}
	return json.Marshal(l.fixed())
}

// FitRequest is everything a fit needs: the curves (each with its schedule and role) and the
// settings. Its JSON form is the README's fit request.
type FitRequest struct {
	// Curves are the observed curves; those with role "fit" enter the objective.
	Curves []Curve `json:"curves"`
	// Lambda is the decay factor: fixed, or fitted.
	Lambda LambdaSetting `json:"lambda"`
	// WarmupSteps is the warmup of LR-list curves and the default warmup of schedules.
	WarmupSteps int `json:"warmupSteps"`
	// WarmupConvention is "peak" (default, the paper's) or "actual".
	WarmupConvention string `json:"warmupConvention,omitempty"`
	// HuberDelta is the Huber loss delta (default 1e-3).
	HuberDelta float64 `json:"huberDelta,omitempty"`
	// Points thins each fitted line returned by FitLines to about this many steps (0: every step).
	Points int `json:"points,omitempty"`
	// Model is the law to fit: ModelAnnealing ("annealing", the default) or ModelMultiPower.
	Model string `json:"model,omitempty"`
	// Auto fits lambda and picks the warmup convention by the evidence (the lower objective);
	// Lambda and WarmupConvention are then ignored. Annealing law only.
	Auto bool `json:"auto,omitempty"`
	// Search chooses the Multi-Power fitter: "optimum" (default: the objective's minimum) or
	// "release" (the MultiPowerLaw release's own procedure, which stops early).
	Search string `json:"search,omitempty"`
}

// ModelAnnealing names the scaling law with learning-rate annealing in requests and results.
const ModelAnnealing = "annealing"

// CheckModel validates the request's Model and Search fields and returns the model, with the
// default filled in.
func (r FitRequest) CheckModel() (string, error) {
	switch r.Model {
	case "", ModelAnnealing:
		if r.Search != "" && r.Search != "optimum" {
			return "", Errorf("", "search", `the annealing law has one search, "optimum"; got %q`, r.Search)
		}
		return ModelAnnealing, nil
	case ModelMultiPower:
		if r.Search != "" && r.Search != "optimum" && r.Search != "release" {
			return "", Errorf("", "search", `must be "optimum" or "release", got %q`, r.Search)
		}
		return ModelMultiPower, nil
	}
	return "", Errorf("", "model", `must be %q or %q, got %q`, ModelAnnealing, ModelMultiPower, r.Model)
}

// DecodeFitRequest parses a fit request's JSON, rejecting unknown fields.
func DecodeFitRequest(data []byte) (FitRequest, error) {
	var r FitRequest
	if err := decodeStrict(data, &r); err != nil {
		return FitRequest{}, &InputError{Where: "fit request", Msg: err.Error()}
	}
	return r, nil
}

// decodeStrict decodes one JSON value, rejecting unknown fields and trailing data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not valid JSON for this request: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

// huberDelta returns the delta, checking it.
func (r FitRequest) huberDelta() (float64, error) {
	d := r.HuberDelta
	if d == 0 {
		return DefaultHuberDelta, nil
	}
	if !(d > 0) || math.IsInf(d, 0) {
		return 0, Errorf("", "huberDelta", "must be a positive number, got %v", d)
	}
	return d, nil
}

// prepare validates the request and expands every curve.
func (r FitRequest) prepare() (curves []*preparedCurve, conv Convention, delta float64, err error) {
	if model, err := r.CheckModel(); err != nil || model != ModelAnnealing {
		if err == nil {
			err = Errorf("", "model", "Fit fits the annealing law; use FitMultiPower for %q", model)
		}
		return nil, "", 0, err
	}
	if conv, err = ParseConvention(r.WarmupConvention); err != nil {
		return nil, "", 0, err
	}
	if delta, err = r.huberDelta(); err != nil {
		return nil, "", 0, err
	}
	if !r.Lambda.Fit {
		if err = checkLambda(r.Lambda.fixed()); err != nil {
			return nil, "", 0, err
		}
	}
	if curves, err = r.prepareCurves(); err != nil {
		return nil, "", 0, err
	}
	return curves, conv, delta, nil
}

// prepareCurves checks and expands every curve of the request, which must hold at least one
// curve with role "fit"; both laws' fits start here.
func (r FitRequest) prepareCurves() ([]*preparedCurve, error) {
	if len(r.Curves) == 0 {
		return nil, Errorf("", "curves", "no curves to fit")
	}
	var curves []*preparedCurve
	nFit := 0
	for i, c := range r.Curves {
		p, err := c.prepare(i, r.WarmupSteps)
		if err != nil {
			return nil, err
		}
		if p.role == RoleFit {
			nFit++
		}
		curves = append(curves, p)
	}
	if nFit == 0 {
		return nil, Errorf("", "curves", `no curve has role "fit": mark at least one curve for fitting`)
	}
	return curves, nil
}

// DecodeJSON decodes one JSON value into v, rejecting unknown fields and trailing data; the
// error says what is wrong.
func DecodeJSON(data []byte, v any) error { return decodeStrict(data, v) }
