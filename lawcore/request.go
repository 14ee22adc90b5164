package lawcore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore/input"
)

// DefaultLambda is the decay factor the paper uses everywhere.
const DefaultLambda = 0.999

// The settings of FitRequest.Priors.
const (
	PriorsWeak = "weak"
	PriorsNone = "none"
)

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

// Fixed returns the fixed value, DefaultLambda when none was given.
func (l LambdaSetting) Fixed() float64 {
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
	return json.Marshal(l.Fixed())
}

// FitRequest is everything a fit needs: the law, the curves (each with its schedule and role)
// and the settings. Its JSON form is described in docs/api.md#fit-request.
type FitRequest struct {
	// Law names the law to fit (see Lookup): "annealing" (the default), "multi-power", ...
	Law string `json:"law,omitempty"`
	// Curves are the observed curves; those with role "fit" enter the objective.
	Curves []Curve `json:"curves" columns:"each"`
	// Lambda is the decay factor of laws that have one: fixed, or fitted.
	Lambda LambdaSetting `json:"lambda"`
	// Fixed holds parameters at the values given, by name (such as {"beta": 0.34}).
	Fixed Values `json:"fixed,omitempty"`
	// WarmupSteps is the warmup of LR-list curves and the default warmup of schedules.
	WarmupSteps int `json:"warmupSteps"`
	// WarmupConvention is "peak" or "actual"; empty means the law's own (Spec.Convention).
	WarmupConvention string `json:"warmupConvention,omitempty"`
	// HuberDelta is the Huber loss delta (default 1e-3).
	HuberDelta float64 `json:"huberDelta,omitempty"`
	// Lines asks the fit to predict every curve along its whole schedule too (FitResult.Lines).
	Lines bool `json:"lines,omitempty"`
	// Points thins each of those lines to about this many steps (0: every step, or the law's
	// Spec.LinePoints).
	Points int `json:"points,omitempty"`
	// Auto asks for the law and its settings that predict best (docs/api.md#auto): the
	// bridge and the CLI send it to lawcore/auto's Fit, which ignores Law, Lambda and
	// WarmupConvention; lawcore.Fit refuses it.
	Auto bool `json:"auto,omitempty"`
	// Search names the search: "optimum" (the default: the objective's minimum) or one of the
	// law's own (the Multi-Power Law's "release").
	Search string `json:"search,omitempty"`

	// Priors is "weak" (the default, also when empty) to fit with the law's weakly informative
	// priors (Param.Prior), or "none" to fit the curves alone.
	Priors string `json:"priors,omitempty"`

	// Intervals asks for each fitted parameter's 90% interval (a delete-a-block jackknife:
	// ten more polishes of the optimum).
	Intervals bool `json:"intervals,omitempty"`

	// Effort bounds the search's work (never read from JSON).
	Effort Effort `json:"-"`
}

// Effort bounds the work of a fit's search, for callers that fit many times to rank laws by
// how they predict rather than to report parameters (lawcore/auto's folds). The zero value is
// a full fit.
type Effort struct {
	// Starts bounds the starts the optimum search polishes (0: all it keeps). One start ranks
	// a law as well as several, at a fraction of the cost.
	Starts int
	// ThinnedOnly polishes a curve of more than thinAbove points on its thinned objective only,
	// not again on every point: evenly spread points settle how a law predicts.
	ThinnedOnly bool
}

// DecodeFitRequest parses a fit request's JSON, rejecting unknown fields.
func DecodeFitRequest(data []byte) (FitRequest, error) {
	var r FitRequest
	if err := input.DecodeStrict(data, &r); err != nil {
		return FitRequest{}, &input.Error{Where: "fit request", Msg: err.Error()}
	}
	return r, nil
}

// huberDelta returns the delta, checking it.
func (r FitRequest) huberDelta() (float64, error) {
	d := r.HuberDelta
	if d == 0 {
		return DefaultHuberDelta, nil
	}
	if !(d > 0) || math.IsInf(d, 0) {
		return 0, input.Errorf("", "huberDelta", "must be a positive number, got %v", d)
	}
	return d, nil
}

// prepareCurves checks and expands every curve of the request, which must hold at least one
// curve with role "fit"; both laws' fits start here.
func (r FitRequest) prepareCurves() ([]*preparedCurve, error) {
	if len(r.Curves) == 0 {
		return nil, input.Errorf("", "curves", "no curves to fit")
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
		return nil, input.Errorf("", "curves", `no curve has role "fit": mark at least one curve for fitting`)
	}
	return curves, nil
}

// DecodeJSON decodes one JSON value into v, rejecting unknown fields and trailing data; the
// error says what is wrong.
func DecodeJSON(data []byte, v any) error { return input.DecodeStrict(data, v) }
