package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// The bridge's methods. Each decodes its request strictly into a lawcore type (unknown fields
// are errors), binds the columns the request's type declares (see columns.go), calls lawcore
// and answers its result, whose declared columns cross back as typed arrays. The methods hold
// no maths and no policy: what a call does is what its request says. This file is plain Go,
// tested natively; main.go only moves values across to JavaScript.

// answer is what a method returns: a JSON-serialisable result and the large arrays, one set
// per item.
type answer struct {
	result  any
	columns []columns
}

// callInput is one call's input besides its method: the request JSON, its columns, the bytes of
// the files an import reads, and the progress callback.
type callInput struct {
	request  []byte
	columns  []columns
	files    [][]byte
	progress func(float64)
}

// method runs one kind of call.
type method func(ctx context.Context, in callInput) (any, error)

// methods are the bridge's methods by name. These three are in both builds: the full
// lawcore.wasm (methods_full.go adds schema, validate, import, agree, pairlr, analyze and every law)
// and the small core the page starts with (-tags lawcore_core, methods_core.go: fit, predict
// and schedule with the annealing law alone), which is all the first view needs.
var methods = map[string]method{
	"schedule": typed("schedule", scheduleMethod),
	"predict":  typed("predict", predictMethod),
	"fit":      typed("fit", fitMethod),
}

// methodNames lists the methods, sorted.
func methodNames() []string {
	names := make([]string, 0, len(methods))
	for name := range methods {
		names = append(names, name)
	}
	// sort.Sort, not sort.Strings: that is slices.Sort, whose algorithms compiled for strings
	// nothing else in the core needs; sort.Sort is there anyway
	sort.Sort(sort.StringSlice(names))
	return names
}

// call runs one method and collects the columns of its answer.
func call(ctx context.Context, name string, request []byte, cols []columns, files [][]byte, progress func(float64)) (answer, error) {
	m, ok := methods[name]
	if !ok {
		return answer{}, fmt.Errorf("unknown method %q: one of %s", name, strings.Join(methodNames(), ", "))
	}
	if progress == nil {
		progress = func(float64) {}
	}
	res, err := m(ctx, callInput{request: request, columns: cols, files: files, progress: progress})
	if err != nil {
		return answer{}, err
	}
	return answer{result: res, columns: answerColumns(res)}, nil
}

// errNeedsFull is the core bridge's answer to a call it cannot make (methods_core.go): the
// worker then loads lawcore.wasm and asks it instead.
var errNeedsFull = errors.New("needs the full lawcore.wasm")

// typed makes a method of f, whose request it decodes strictly into a Req and whose columns
// it binds.
func typed[Req any, Res any](name string, f func(context.Context, *Req, callInput) (Res, error)) method {
	return func(ctx context.Context, in callInput) (any, error) {
		var req Req
		if err := lawcore.DecodeJSON(in.request, &req); err != nil {
			return nil, unreadable(name, err)
		}
		if outOfCore(&req) {
			return nil, errNeedsFull
		}
		bindColumns(&req, in.columns)
		return f(ctx, &req, in)
	}
}

// expansion is a schedule expanded for drawing: its summary, and one item of columns, the
// steps 0..total and the learning rate at each.
type expansion struct {
	Total  int          `json:"total"`
	Peak   float64      `json:"peak"`
	Final  float64      `json:"final"`
	Warmup int          `json:"warmup"`
	Rates  []stepsAndLR `json:"-" columns:"each"`
}

type stepsAndLR struct {
	Steps []float64 `column:"steps"`
	LR    []float64 `column:"lr"`
}

func scheduleMethod(_ context.Context, s *schedule.Schedule, _ callInput) (*expansion, error) {
	lr, err := s.LR()
	if err != nil {
		return nil, err
	}
	steps := make([]float64, len(lr))
	for i := range steps {
		steps[i] = float64(i)
	}
	return &expansion{Total: len(lr) - 1, Peak: s.PeakLR(), Final: lr[len(lr)-1], Warmup: s.WarmupSteps(),
		Rates: []stepsAndLR{{Steps: steps, LR: lr}}}, nil
}

// predictions is predict's answer: one predicted curve per request curve.
type predictions struct {
	Curves []lawcore.Prediction `json:"curves" columns:"each"`
}

func predictMethod(_ context.Context, req *lawcore.PredictRequest, _ callInput) (*predictions, error) {
	preds, err := lawcore.Predict(*req)
	if err != nil {
		return nil, err
	}
	return &predictions{Curves: preds}, nil
}

func fitMethod(ctx context.Context, req *lawcore.FitRequest, in callInput) (*lawcore.FitResult, error) {
	return lawcore.Fit(ctx, *req, in.progress)
}
