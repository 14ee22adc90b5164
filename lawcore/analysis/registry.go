package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
)

// A request names an analysis and gives its options: {"analysis": "<name>", ...options}.
// Every option left out takes its default (the paper's setting, with the Fig. 2 parameters
// of the annealing law); a partial "params" object fills in the rest from the defaults too,
// which for another law (given by "law") are that law's own defaults.

// runner decodes an analysis's options over its defaults and runs it.
type runner struct {
	defaults func() any
	run      func(ctx context.Context, request []byte, law lawcore.Law, progress func(float64)) (any, error)
}

// newRunner builds the runner of an analysis from its defaults and its function.
func newRunner[O any, PO interface {
	*O
	setup() *Setup
}, R any](defaults func() O, f func(context.Context, O, func(float64)) (R, error)) runner {
	return runner{
		defaults: func() any { return defaults() },
		run: func(ctx context.Context, request []byte, law lawcore.Law, progress func(float64)) (any, error) {
			o := defaults()
			if s := PO(&o).setup(); law != nil && s != nil && law.Spec().Name != annealing.Name {
				s.Law, s.Params = law.Spec().Name, law.Spec().Values(law.Spec().Defaults())
				s.WarmupConvention = string(law.Spec().Convention)
			}
			if err := decodeOver(request, &o); err != nil {
				return nil, err
			}
			res, err := f(ctx, o, progress)
			if err != nil {
				return nil, err
			}
			if progress != nil {
				progress(1)
			}
			return res, nil
		},
	}
}

// setup gives the runner access to an options struct's Setup.
func (s *Setup) setup() *Setup { return s }

// ignoredSetup accepts (and ignores) a setup beside the options of an analysis that takes
// none, so that a page may send the same setup with every analysis.
type ignoredSetup struct {
	Law              json.RawMessage `json:"law,omitempty"`
	Params           json.RawMessage `json:"params,omitempty"`
	Peak             json.RawMessage `json:"peak,omitempty"`
	Warmup           json.RawMessage `json:"warmup,omitempty"`
	WarmupConvention json.RawMessage `json:"warmupConvention,omitempty"`
	Points           json.RawMessage `json:"points,omitempty"`
	Members          json.RawMessage `json:"members,omitempty"`
	Band             json.RawMessage `json:"band,omitempty"`
	Replicates       json.RawMessage `json:"replicates,omitempty"`
}

// computeRequest is the compute table's options beside an ignored setup.
type computeRequest struct {
	ComputeOptions
	ignoredSetup
}

// setup is nil: the compute table needs no law.
func (*computeRequest) setup() *Setup { return nil }

// paperRequest is the paper analysis's options beside an ignored setup: its claims are checked
// under the paper's setting alone.
type paperRequest struct {
	PaperOptions
	ignoredSetup
}

// setup is nil: the paper's claims take the paper's setting.
func (*paperRequest) setup() *Setup { return nil }

// analyses are the analyses by name.
var analyses = map[string]runner{
	"decomposition":      newRunner(DefaultDecompositionOptions, Decompose),
	"cosine-cycle":       newRunner(DefaultCosineCycleOptions, CosineCycle),
	"constant-vs-cosine": newRunner(DefaultConstantVsCosineOptions, ConstantVsCosine),
	"wsd-ratio":          newRunner(DefaultWSDRatioOptions, WSDRatio),
	"anneal-function":    newRunner(DefaultAnnealFunctionOptions, AnnealFunction),
	"rewarmup":           newRunner(DefaultRewarmupOptions, Rewarmup),
	"lambda":             newRunner(DefaultLambdaOptions, Lambda),
	"optimize":           newRunner(DefaultOptimizeOptions, OptimizeSchedule),
	"size-drop":          newRunner(DefaultSizeDropOptions, SizeDrop),
	"chinchilla":         newRunner(DefaultChinchillaOptions, ChinchillaReduction),
	"paper": newRunner(func() paperRequest { return paperRequest{PaperOptions: DefaultPaperOptions()} },
		func(ctx context.Context, o paperRequest, progress func(float64)) (*PaperResult, error) {
			return Paper(ctx, o.PaperOptions, progress)
		}),
	"compute": newRunner(func() computeRequest { return computeRequest{ComputeOptions: DefaultComputeOptions()} },
		func(_ context.Context, o computeRequest, _ func(float64)) (*ComputeResult, error) {
			return ComputeToFit(o.ComputeOptions) // arithmetic, no law: nothing to cancel
		}),
}

// Names lists the analyses, sorted.
func Names() []string {
	names := make([]string, 0, len(analyses))
	for name := range analyses {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Defaults returns every analysis's default options, by name.
func Defaults() map[string]any {
	out := map[string]any{}
	for name, a := range analyses {
		out[name] = a.defaults()
	}
	return out
}

// Run runs the analysis a request names, its options decoded over the defaults (unknown
// options are errors). {"analysis": "defaults"} answers {analyses: [names], defaults: {name:
// options}}. A cancelled ctx stops the analysis within one schedule's evaluation, with the
// context's error; progress, if not nil, is called before every evaluation with the share of
// the analysis done, from 0 to 1.
func Run(ctx context.Context, request []byte, progress func(float64)) (any, error) {
	var head struct {
		Analysis string `json:"analysis"`
		Law      string `json:"law"`
	}
	if err := json.Unmarshal(request, &head); err != nil {
		return nil, &input.Error{Where: "analyze request", Msg: "not valid JSON: " + err.Error()}
	}
	if head.Analysis == "defaults" {
		return map[string]any{"analyses": Names(), "defaults": Defaults()}, nil
	}
	a, ok := analyses[head.Analysis]
	if !ok {
		return nil, &input.Error{Where: "analyze request", Field: "analysis",
			Msg: "unknown analysis " + strconv.Quote(head.Analysis) + ": one of " + strings.Join(Names(), ", ") + " (or defaults)"}
	}
	var law lawcore.Law
	if head.Law != "" {
		var err error
		if law, err = lawcore.Lookup(head.Law); err != nil {
			return nil, err
		}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(request, &fields); err != nil {
		return nil, &input.Error{Where: "analyze request", Msg: "not a JSON object: " + err.Error()}
	}
	delete(fields, "analysis")
	rest, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	return a.run(ctx, rest, law, progress)
}

// decodeOver decodes one JSON object over v, rejecting unknown fields and trailing data.
func decodeOver(request []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(request))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &input.Error{Where: "analyze request", Msg: "not valid JSON for this analysis: " + err.Error()}
	}
	if dec.More() {
		return &input.Error{Where: "analyze request", Msg: "unexpected data after the JSON value"}
	}
	return nil
}
