package lawcore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
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
	// Auto picks the law and its settings by how well they predict (docs/api.md#auto); Law,
	// Lambda and WarmupConvention are then ignored.
	Auto bool `json:"auto,omitempty"`
	// Search names the search: "optimum" (the default: the objective's minimum) or one of the
	// law's own (the Multi-Power Law's "release").
	Search string `json:"search,omitempty"`

	// Intervals asks for each fitted parameter's 90% interval (a delete-a-block jackknife:
	// ten more polishes of the optimum).
	Intervals bool `json:"intervals,omitempty"`

	// starts bounds the starts the optimum search polishes (0: maxStarts). Auto's fold fits
	// polish only their best start: they estimate how well a law predicts, and one start
	// does that at a quarter of the cost.
	starts int
	// thinnedOnly: on a curve past thinAbove points, the optimum is polished on the thinned
	// objective only, not again on every point. Auto's fold fits rank laws by how they predict,
	// which searchPoints evenly spread points settle: on a million points the polish on all of
	// them cost minutes (lambda drifts on a flat objective, each step O(points)).
	thinnedOnly bool
}

// DecodeFitRequest parses a fit request's JSON, rejecting unknown fields.
func DecodeFitRequest(data []byte) (FitRequest, error) {
	var r FitRequest
	if err := decodeStrict(data, &r); err != nil {
		return FitRequest{}, &InputError{Where: "fit request", Msg: err.Error()}
	}
	return r, nil
}

// decodeStrict decodes one JSON value, rejecting unknown fields, trailing data and nulls in
// lists.
func decodeStrict(data []byte, v any) error {
	if bytes.Contains(data, []byte("null")) {
		if err := nullInList(data); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not valid JSON for this request: %s", jsonProblem(err))
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

// nullInList finds a null among the elements of a list, naming where it is
// ("curves[0].schedule.lr[2]"): Go would decode it as 0, a learning rate or a step that no
// one gave. A null as a field's value stays allowed: the field is then left out.
func nullInList(data []byte) error {
	type level struct {
		list  bool
		key   string
		index int
	}
	var path []level
	where := func() string {
		var b strings.Builder
		for i, l := range path {
			switch {
			case l.list:
				fmt.Fprintf(&b, "[%d]", l.index)
			case i > 0:
				b.WriteString("." + l.key)
			default:
				b.WriteString(l.key)
			}
		}
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the decoder proper reports malformed JSON
		}
		top := len(path) - 1
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				path = append(path, level{list: d == '['})
				expectKey = d == '{'
				continue
			default:
				path = path[:top]
			}
		} else if top >= 0 && !path[top].list && expectKey {
			path[top].key, _ = tok.(string)
			expectKey = false
			continue
		} else if tok == nil && top >= 0 && path[top].list {
			return Errorf("", where(), "null is not a value: give a number (or leave the point out)")
		}
		// a value ended: the next token of an object is a key, of a list the next element
		if top = len(path) - 1; top >= 0 {
			if path[top].list {
				path[top].index++
			} else {
				expectKey = true
			}
		}
	}
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

// jsonProblem words encoding/json's error for a reader: a value of the wrong type names the
// field by its path in the JSON and what it takes ("segments.total" must be a whole number,
// got number 20000.7) rather than the Go type it is decoded into.
func jsonProblem(err error) string {
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
		return fmt.Sprintf("%q must be %s, got %s", te.Field, jsonKind(te.Type), te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKind says in words what JSON a Go value of type t is decoded from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a text in quotes"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Float64 {
			return "a list of numbers"
		}
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object ({...})"
	}
	return "a JSON " + t.String()
}
