package main

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/lawcalc/annealing/lawcore"
)

// The `analyze` method runs one of the paper's analyses: {"analysis": "<name>", ...options}.
// Every option left out takes its default (the paper's setting, with the Fig. 2 parameters);
// a partial "params" object fills in the rest from Fig. 2 too. {"analysis": "defaults"}
// returns every analysis's defaults. The `sizefit` method fits the model-size law.

// analysisRunner decodes an analysis's options over its defaults and runs it.
type analysisRunner struct {
	defaults func() any
	run      func(request []byte) (any, error)
}

// runWith decodes request over the defaults o (rejecting unknown fields) and runs f.
func runWith[O any](o O, request []byte, f func(O) (any, error)) (any, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(request, &fields); err != nil {
		return nil, &lawcore.InputError{Where: "analyze request", Msg: "not a JSON object: " + err.Error()}
	}
	delete(fields, "analysis")
	rest, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	if err := decodeAnalysis(rest, &o); err != nil {
		return nil, err
	}
	return f(o)
}

// runner builds the runner of an analysis from its defaults and its function.
func runner[O any, R any](defaults func() O, f func(O) (R, error)) analysisRunner {
	return analysisRunner{
		defaults: func() any { return defaults() },
		run: func(request []byte) (any, error) {
			return runWith(defaults(), request, func(o O) (any, error) { return f(o) })
		},
	}
}

// computeOptions accepts (and ignores) a setup beside the compute table's options, so that
// a page may send the same setup with every analysis.
type computeOptions struct {
	lawcore.ComputeOptions
	// the setup's fields, ignored
	Params           json.RawMessage `json:"params,omitempty"`
	Peak             json.RawMessage `json:"peak,omitempty"`
	Warmup           json.RawMessage `json:"warmup,omitempty"`
	WarmupConvention json.RawMessage `json:"warmupConvention,omitempty"`
	Points           json.RawMessage `json:"points,omitempty"`
}

// analyses are the analyses by name.
var analyses = map[string]analysisRunner{
	"decomposition":      runner(lawcore.DefaultDecompositionOptions, lawcore.Decompose),
	"cosine-cycle":       runner(lawcore.DefaultCosineCycleOptions, lawcore.CosineCycle),
	"constant-vs-cosine": runner(lawcore.DefaultConstantVsCosineOptions, lawcore.ConstantVsCosine),
	"wsd-ratio":          runner(lawcore.DefaultWSDRatioOptions, lawcore.WSDRatio),
	"anneal-function":    runner(lawcore.DefaultAnnealFunctionOptions, lawcore.AnnealFunction),
	"rewarmup":           runner(lawcore.DefaultRewarmupOptions, lawcore.Rewarmup),
	"lambda":             runner(lawcore.DefaultLambdaOptions, lawcore.Lambda),
	"optimize":           runner(lawcore.DefaultOptimizeOptions, lawcore.OptimizeSchedule),
	"chinchilla":         runner(lawcore.DefaultChinchillaOptions, lawcore.ChinchillaReduction),
	"compute": runner(func() computeOptions { return computeOptions{ComputeOptions: lawcore.DefaultComputeOptions()} },
		func(o computeOptions) (*lawcore.ComputeResult, error) { return lawcore.ComputeToFit(o.ComputeOptions) }),
}

// analysisNames lists the analyses, sorted.
func analysisNames() []string {
	names := make([]string, 0, len(analyses))
	for name := range analyses {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// decodeAnalysis decodes one JSON object into v, rejecting unknown fields and trailing data.
func decodeAnalysis(request []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(request))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &lawcore.InputError{Where: "analyze request", Msg: "not valid JSON for this analysis: " + err.Error()}
	}
	if dec.More() {
		return &lawcore.InputError{Where: "analyze request", Msg: "unexpected data after the JSON value"}
	}
	return nil
}

// analyze runs the analysis the request names.
func analyze(request []byte) (answer, error) {
	var head struct {
		Analysis string `json:"analysis"`
	}
	if err := json.Unmarshal(request, &head); err != nil {
		return answer{}, &lawcore.InputError{Where: "analyze request", Msg: "not valid JSON: " + err.Error()}
	}
	if head.Analysis == "defaults" {
		out := map[string]any{}
		for name, a := range analyses {
			out[name] = a.defaults()
		}
		return answer{result: map[string]any{"analyses": analysisNames(), "defaults": out}}, nil
	}
	a, ok := analyses[head.Analysis]
	if !ok {
		return answer{}, &lawcore.InputError{Where: "analyze request", Field: "analysis",
			Msg: "unknown analysis " + strconv.Quote(head.Analysis) + ": one of " + strings.Join(analysisNames(), ", ") + " (or defaults)"}
	}
	res, err := a.run(request)
	if err != nil {
		return answer{}, err
	}
	return answer{result: res}, nil
}

// sizefit fits the model-size law; the curves' missing arrays (steps, loss, lr) come from in,
// and the answer's columns are each curve's fitted line at its own size.
func sizefit(ctx context.Context, request []byte, in []columns, progress func(float64)) (answer, error) {
	req, err := lawcore.DecodeSizeFitRequest(request)
	if err != nil {
		return answer{}, err
	}
	for i := range req.Curves {
		c := &req.Curves[i]
		c.Steps = fill(c.Steps, in, i, "steps")
		c.Loss = fill(c.Loss, in, i, "loss")
		c.LR = fill(c.LR, in, i, "lr")
		fillSchedule(c.Schedule, in, i)
	}
	res, err := lawcore.FitSize(ctx, req, progress)
	if err != nil {
		return answer{}, err
	}
	lines, err := lawcore.SizeFitLines(req, res.Params)
	if err != nil {
		return answer{}, err
	}
	return answer{result: res, columns: fittedColumns(lines)}, nil
}
