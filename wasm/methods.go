package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/importer"
)

// columns are the large arrays of one curve, by name ("steps", "loss", "lr", ...).
type columns map[string][]float64

// answer is what a method returns: a JSON-serialisable result and the large arrays, one set
// per curve.
type answer struct {
	result  any
	columns []columns
}

// call runs one method on a JSON request whose curves' missing arrays come from in; file is
// the bytes of the file an `import` reads (nil: the request's text). It is plain Go, so that it
// is tested natively; main.go only moves values across to JavaScript.
func call(ctx context.Context, method string, request []byte, in []columns, file []byte, progress func(float64)) (answer, error) {
	switch method {
	case "schedule":
		return schedule(request)
	case "predict":
		return predict(request, in)
	case "fit":
		return fit(ctx, request, in, progress)
	case "parse":
		return parse(request)
	case "validate":
		return validate(ctx, request, in, progress)
	case "import":
		return importFile(request, file)
	case "pairlr":
		return pairLR(request, in)
	case "analyze":
		return analyze(request)
	case "sizefit":
		return sizefit(ctx, request, in, progress)
	case "presets":
		return answer{result: map[string]any{
			"presets": lawcore.Presets(), "kinds": lawcore.Kinds, "decayShapes": lawcore.DecayShapes,
			"version": lawcore.Version,
		}}, nil
	}
	return answer{}, fmt.Errorf("unknown method %q: one of schedule, predict, fit, validate, parse, import, pairlr, analyze, sizefit, presets", method)
}

// fillCurves fills each curve's missing arrays from the columns.
func fillCurves(req *lawcore.FitRequest, in []columns) {
	for i := range req.Curves {
		c := &req.Curves[i]
		c.Steps = fill(c.Steps, in, i, "steps")
		c.Loss = fill(c.Loss, in, i, "loss")
		c.LR = fill(c.LR, in, i, "lr")
		fillSchedule(c.Schedule, in, i)
	}
}

// fillSchedule fills an explicit schedule's points from the columns scheduleSteps and
// scheduleLR when its JSON left them out: an LR file's million points cost seconds as JSON.
func fillSchedule(s *lawcore.Schedule, in []columns, i int) {
	if s == nil || s.Kind != lawcore.KindExplicit {
		return
	}
	s.Steps = fill(s.Steps, in, i, "scheduleSteps")
	s.Values = fill(s.Values, in, i, "scheduleLR")
}

// fill returns have when it is set, else the column from in (when there is one).
func fill(have []float64, in []columns, i int, name string) []float64 {
	if have != nil || i >= len(in) {
		return have
	}
	return in[i][name]
}

func schedule(request []byte) (answer, error) {
	s, err := lawcore.DecodeSchedule(request)
	if err != nil {
		return answer{}, err
	}
	lr, err := s.LR()
	if err != nil {
		return answer{}, err
	}
	steps := make([]float64, len(lr))
	for i := range steps {
		steps[i] = float64(i)
	}
	return answer{
		result:  map[string]any{"total": len(lr) - 1, "peak": s.PeakLR(), "final": lr[len(lr)-1], "warmup": s.Warmup},
		columns: []columns{{"steps": steps, "lr": lr}},
	}, nil
}

func predict(request []byte, in []columns) (answer, error) {
	req, err := lawcore.DecodePredictRequest(request)
	if err != nil {
		return answer{}, err
	}
	for i := range req.Curves {
		c := &req.Curves[i]
		c.LR = fill(c.LR, in, i, "lr")
		c.Steps = fill(c.Steps, in, i, "steps")
		fillSchedule(c.Schedule, in, i)
	}
	preds, err := lawcore.Predict(req)
	if err != nil {
		return answer{}, err
	}
	return answer{result: map[string]any{"curves": preds}, columns: predictionColumns(preds)}, nil
}

func predictionColumns(preds []lawcore.Prediction) []columns {
	out := make([]columns, len(preds))
	for i, p := range preds {
		out[i] = columns{"steps": p.Steps, "lr": p.LR, "loss": p.Loss, "s1Term": p.S1Term, "s2Term": p.S2Term}
	}
	return out
}

func fit(ctx context.Context, request []byte, in []columns, progress func(float64)) (answer, error) {
	req, err := lawcore.DecodeFitRequest(request)
	if err != nil {
		return answer{}, err
	}
	fillCurves(&req, in)
	model, err := req.CheckModel()
	if err != nil {
		return answer{}, err
	}
	if model == lawcore.ModelMultiPower {
		return fitMultiPower(ctx, req, progress)
	}
	res, err := lawcore.Fit(ctx, req, progress)
	if err != nil {
		return answer{}, err
	}
	lines, err := lawcore.FitLines(req, res.Params)
	if err != nil {
		return answer{}, err
	}
	return answer{result: res, columns: fittedColumns(lines)}, nil
}

// fittedColumns turns fitted lines into the answer's columns {steps, lr, fitted, s1Term,
// s2Term}, one per curve: what the page draws without predicting the fitted curves again.
func fittedColumns(lines []lawcore.Prediction) []columns {
	cols := make([]columns, len(lines))
	for i, l := range lines {
		cols[i] = columns{"steps": l.Steps, "lr": l.LR, "fitted": l.Loss, "s1Term": l.S1Term, "s2Term": l.S2Term}
	}
	return cols
}

func fitMultiPower(ctx context.Context, req lawcore.FitRequest, progress func(float64)) (answer, error) {
	fitter := lawcore.FitMultiPower
	if req.Search == "release" {
		fitter = lawcore.FitMultiPowerRelease
	}
	res, err := fitter(ctx, req, progress)
	if err != nil {
		return answer{}, err
	}
	if req.Points == 0 {
		req.Points = 2000 // every step of a long run costs seconds under this law
	}
	lines, err := lawcore.FitLinesMultiPower(req, res.Params)
	if err != nil {
		return answer{}, err
	}
	cols := make([]columns, len(lines))
	for i, l := range lines {
		steps := make([]float64, len(l.Steps))
		for k, s := range l.Steps {
			steps[k] = float64(s)
		}
		cols[i] = columns{"steps": steps, "lr": l.LR, "fitted": l.Loss, "s1Term": l.S1Term, "s2Term": l.LDTerm}
	}
	return answer{result: res, columns: cols}, nil
}

// parseRequest is the `parse` method's request: a file's name and text.
type parseRequest struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

func parse(request []byte) (answer, error) {
	var req parseRequest
	if err := json.Unmarshal(request, &req); err != nil {
		return answer{}, &lawcore.InputError{Where: "parse request", Msg: err.Error()}
	}
	pc, err := importer.ParseCurveCSV(req.Name, []byte(req.Text))
	if err != nil {
		return answer{}, err
	}
	cols := columns{"steps": pc.Steps, "loss": pc.Loss}
	if pc.HasLR {
		cols["lr"] = pc.LR
	}
	return answer{result: pc, columns: []columns{cols}}, nil
}
