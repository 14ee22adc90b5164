package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/analysis"
	"github.com/lawcalc/annealing/lawcore/importer"
	_ "github.com/lawcalc/annealing/lawcore/laws" // every law, by name
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

// input is one call's input besides its method: the request JSON, its columns, the bytes of
// the files an import reads, and the progress callback.
type input struct {
	request  []byte
	columns  []columns
	files    [][]byte
	progress func(float64)
}

// method runs one kind of call.
type method func(ctx context.Context, in input) (any, error)

// methods are the bridge's methods by name (set in init: schema lists them).
var methods map[string]method

func init() {
	methods = map[string]method{
		"schema":   typed("schema", schemaMethod),
		"schedule": typed("schedule", scheduleMethod),
		"predict":  typed("predict", predictMethod),
		"fit":      typed("fit", fitMethod),
		"validate": typed("validate", validateMethod),
		"import":   typed("import", importMethod),
		"pairlr":   typed("pairlr", pairLRMethod),
		"analyze":  func(_ context.Context, in input) (any, error) { return analysis.Run(in.request) },
	}
}

// methodNames lists the methods, sorted.
func methodNames() []string {
	names := make([]string, 0, len(methods))
	for name := range methods {
		names = append(names, name)
	}
	sort.Strings(names)
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
	res, err := m(ctx, input{request: request, columns: cols, files: files, progress: progress})
	if err != nil {
		return answer{}, err
	}
	return answer{result: res, columns: answerColumns(res)}, nil
}

// typed makes a method of f, whose request it decodes strictly into a Req and whose columns
// it binds.
func typed[Req any, Res any](name string, f func(context.Context, *Req, input) (Res, error)) method {
	return func(ctx context.Context, in input) (any, error) {
		var req Req
		if err := lawcore.DecodeJSON(in.request, &req); err != nil {
			return nil, &lawcore.InputError{Where: name + " request", Msg: err.Error()}
		}
		bindColumns(&req, in.columns)
		return f(ctx, &req, in)
	}
}

// schema is what a page needs to know of the engine, asked once at start-up: the laws with
// their parameters and formulas, the schedule kinds and presets, the analyses, the limits.
type schema struct {
	Version     string               `json:"version"`
	Methods     []string             `json:"methods"`
	Laws        []lawInfo            `json:"laws"`
	Kinds       []string             `json:"kinds"`
	DecayShapes []string             `json:"decayShapes"`
	Choices     map[string][]string  `json:"choices"`
	Conventions []lawcore.Convention `json:"conventions"`
	Roles       []string             `json:"roles"`
	Presets     []lawcore.Preset     `json:"presets"`
	Analyses    []string             `json:"analyses"`
	Limits      map[string]int       `json:"limits"`
	Defaults    map[string]any       `json:"defaults"`
}

// lawInfo is a law's spec and its searches (the engine's "optimum" first).
type lawInfo struct {
	*lawcore.Spec
	Searches []string `json:"searches"`
}

func schemaMethod(context.Context, *struct{}, input) (*schema, error) {
	s := &schema{Version: lawcore.Version, Methods: methodNames(), Kinds: lawcore.Kinds, DecayShapes: lawcore.DecayShapes,
		Choices: lawcore.Choices, Conventions: []lawcore.Convention{lawcore.WarmupPeak, lawcore.WarmupActual},
		Roles: []string{lawcore.RoleFit, lawcore.RoleValidate}, Presets: lawcore.Presets(), Analyses: analysis.Names(),
		Limits: map[string]int{"maxScheduleSteps": lawcore.MaxScheduleSteps, "maxLR": lawcore.MaxLR, "maxWarmup": lawcore.MaxScheduleSteps,
			"maxImportBytes": importer.MaxBytes, "maxRows": importer.MaxRows, "maxAnalysisPoints": analysis.MaxPoints},
		Defaults: map[string]any{"lambda": lawcore.DefaultLambda, "huberDelta": lawcore.DefaultHuberDelta, "bandLevel": lawcore.DefaultBandLevel}}
	for _, l := range lawcore.Laws() {
		info := lawInfo{Spec: l.Spec(), Searches: []string{lawcore.SearchOptimum}}
		if sr, ok := l.(lawcore.Searcher); ok {
			info.Searches = append(info.Searches, sr.Searches()...)
		}
		s.Laws = append(s.Laws, info)
	}
	return s, nil
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

func scheduleMethod(_ context.Context, s *lawcore.Schedule, _ input) (*expansion, error) {
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

func predictMethod(_ context.Context, req *lawcore.PredictRequest, _ input) (*predictions, error) {
	preds, err := lawcore.Predict(*req)
	if err != nil {
		return nil, err
	}
	return &predictions{Curves: preds}, nil
}

func fitMethod(ctx context.Context, req *lawcore.FitRequest, in input) (*lawcore.FitResult, error) {
	return lawcore.Fit(ctx, *req, in.progress)
}

// validateRequest is a fit request plus the laws to compare and the band's coverage.
type validateRequest struct {
	lawcore.FitRequest
	Laws  []string `json:"laws"`
	Level float64  `json:"level"`
}

func validateMethod(ctx context.Context, req *validateRequest, in input) (*lawcore.LeaveOneOutResult, error) {
	return lawcore.LeaveOneScheduleOut(ctx, req.FitRequest, req.Laws, req.Level, in.progress)
}

// importRequest names a file and settles its ambiguity; the file is the call's bytes (the
// page's way: a large file never goes through JSON), or else the request's text. With Paths,
// the call's files are a folder's (a directory upload, or several files at once), each at its
// path, read together by importer.ReadFiles.
type importRequest struct {
	Name   string          `json:"name"`
	Text   string          `json:"text"`
	Paths  []string        `json:"paths"`
	Choice importer.Choice `json:"choice"`
}

func importMethod(_ context.Context, req *importRequest, in input) (*importer.Result, error) {
	switch {
	case req.Paths != nil:
		if len(req.Paths) != len(in.files) || req.Text != "" {
			return nil, &lawcore.InputError{Where: "import request", Msg: fmt.Sprintf("%d paths for %d files: give one path per file's bytes", len(req.Paths), len(in.files))}
		}
		files := make([]importer.File, len(req.Paths))
		for i, p := range req.Paths {
			files[i] = importer.File{Path: p, Data: in.files[i]}
		}
		return importer.ReadFiles(files, req.Choice)
	case len(in.files) > 1:
		return nil, &lawcore.InputError{Where: "import request", Msg: "several files need their paths"}
	case len(in.files) == 1 && req.Text != "":
		return nil, &lawcore.InputError{Where: "import request", Msg: "give the file as text or as bytes, not both"}
	case len(in.files) == 1:
		return importer.Read(req.Name, in.files[0], req.Choice)
	}
	return importer.Read(req.Name, []byte(req.Text), req.Choice)
}

// pairRequest lists curves as import described them (name, file, run, hasLoss, hasLR), their
// steps as columns.
type pairRequest struct {
	Curves []*importer.Curve `json:"curves" columns:"each"`
}

// pairs is pairlr's answer: which learning-rate curves are the schedules of which loss curves
// (indices), and what could not be paired.
type pairs struct {
	Pairs []importer.LRPair `json:"pairs"`
	Notes []string          `json:"notes"`
}

func pairLRMethod(_ context.Context, req *pairRequest, _ input) (*pairs, error) {
	for i, c := range req.Curves {
		if c == nil {
			return nil, &lawcore.InputError{Where: "pairlr request", Msg: fmt.Sprintf("curves[%d] is null", i)}
		}
	}
	p, notes := importer.PairLR(req.Curves)
	out := &pairs{Pairs: p, Notes: notes}
	if out.Pairs == nil {
		out.Pairs = []importer.LRPair{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	return out, nil
}
