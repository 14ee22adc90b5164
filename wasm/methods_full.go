//go:build !lawcore_core

package main

import (
	"context"
	"fmt"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/analysis"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/importer"
	"github.com/lawcalc/annealing/lawcore/input"
	_ "github.com/lawcalc/annealing/lawcore/laws" // every law, by name
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// The full bridge (lawcore.wasm): every method and every law. The page's worker loads it the
// first time the core (methods_core.go) cannot answer a call.

func init() {
	methods["fit"] = typed("fit", fitOrAutoMethod)
	methods["schema"] = typed("schema", schemaMethod)
	methods["validate"] = typed("validate", validateMethod)
	methods["import"] = typed("import", importMethod)
	methods["pairlr"] = typed("pairlr", pairLRMethod)
	methods["agree"] = typed("agree", agreeMethod)
	methods["analyze"] = func(ctx context.Context, in callInput) (any, error) {
		return analysis.Run(ctx, in.request, in.progress)
	}
}

// fitOrAutoMethod fits as the core's fit does, and chooses the law by held-out error (auto)
// when the request asks.
func fitOrAutoMethod(ctx context.Context, req *lawcore.FitRequest, in callInput) (*lawcore.FitResult, error) {
	if req.Auto {
		return auto.Fit(ctx, *req, in.progress)
	}
	return fitMethod(ctx, req, in)
}

// afterStart does nothing here: the full module is loaded for a call that is waiting.
func afterStart() {}

// needsFull reports whether a method needs the full bridge: never, this is it.
func needsFull(string) bool { return false }

// unreadable is the error of a request that cannot be decoded.
func unreadable(method string, err error) error {
	return &input.Error{Where: method + " request", Msg: err.Error()}
}

// outOfCore reports whether a decoded request needs the full bridge: never, this is it.
func outOfCore(any) bool { return false }

// schema is what a page needs to know of the engine, asked once at start-up: the laws with
// their parameters and formulas, the schedule kinds and presets, the analyses, the limits.
type schema struct {
	Version     string                `json:"version"`
	Methods     []string              `json:"methods"`
	Laws        []lawInfo             `json:"laws"`
	Kinds       []string              `json:"kinds"`
	DecayShapes []string              `json:"decayShapes"`
	Choices     map[string][]string   `json:"choices"`
	Conventions []schedule.Convention `json:"conventions"`
	Roles       []string              `json:"roles"`
	Presets     []schedule.Preset     `json:"presets"`
	Analyses    []string              `json:"analyses"`
	Limits      map[string]int        `json:"limits"`
	Defaults    map[string]any        `json:"defaults"`
}

// lawInfo is a law's spec and its searches (the engine's "optimum" first).
type lawInfo struct {
	*lawcore.Spec
	Searches []string `json:"searches"`
}

func schemaMethod(context.Context, *struct{}, callInput) (*schema, error) {
	s := &schema{Version: lawcore.Version, Methods: methodNames(), Kinds: schedule.Kinds, DecayShapes: schedule.DecayShapes,
		Choices: schedule.Choices, Conventions: []schedule.Convention{schedule.WarmupPeak, schedule.WarmupActual},
		Roles: []string{lawcore.RoleFit, lawcore.RoleValidate}, Presets: schedule.Presets(), Analyses: analysis.Names(),
		Limits: map[string]int{"maxScheduleSteps": schedule.MaxSteps, "maxLR": schedule.MaxLR, "maxWarmup": schedule.MaxSteps,
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

// validateRequest is a fit request plus the laws to compare and the band's coverage.
type validateRequest struct {
	lawcore.FitRequest
	Laws  []string `json:"laws"`
	Level float64  `json:"level"`
}

func validateMethod(ctx context.Context, req *validateRequest, in callInput) (*auto.LeaveOneOutResult, error) {
	return auto.LeaveOneScheduleOut(ctx, req.FitRequest, req.Laws, req.Level, in.progress)
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

func importMethod(_ context.Context, req *importRequest, in callInput) (*importer.Result, error) {
	switch {
	case req.Paths != nil:
		if len(req.Paths) != len(in.files) || req.Text != "" {
			return nil, &input.Error{Where: "import request", Msg: fmt.Sprintf("%d paths for %d files: give one path per file's bytes", len(req.Paths), len(in.files))}
		}
		files := make([]importer.File, len(req.Paths))
		for i, p := range req.Paths {
			files[i] = importer.File{Path: p, Data: in.files[i]}
		}
		return importer.ReadFiles(files, req.Choice)
	case len(in.files) > 1:
		return nil, &input.Error{Where: "import request", Msg: "several files need their paths"}
	case len(in.files) == 1 && req.Text != "":
		return nil, &input.Error{Where: "import request", Msg: "give the file as text or as bytes, not both"}
	case len(in.files) == 1:
		return importer.Read(req.Name, in.files[0], req.Choice)
	}
	return importer.Read(req.Name, []byte(req.Text), req.Choice)
}

// agreeRequest lists the loss candidates of the files of one upload, each as its own import
// answered (importer.FileColumns), for the column they read together.
type agreeRequest struct {
	Files []importer.FileColumns `json:"files"`
}

func agreeMethod(_ context.Context, req *agreeRequest, _ callInput) (*importer.Agreement, error) {
	ag := importer.Agree(req.Files)
	return &ag, nil
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

func pairLRMethod(_ context.Context, req *pairRequest, _ callInput) (*pairs, error) {
	for i, c := range req.Curves {
		if c == nil {
			return nil, &input.Error{Where: "pairlr request", Msg: fmt.Sprintf("curves[%d] is null", i)}
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
