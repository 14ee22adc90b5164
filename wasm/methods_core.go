//go:build lawcore_core

package main

import (
	"encoding/json"

	"github.com/lawcalc/annealing/lawcore"
	_ "github.com/lawcalc/annealing/lawcore/annealing" // the one law of the core
)

// The core bridge (-tags lawcore_core): what the page's first view needs (fit and predict with
// the annealing law, schedules) and nothing else, so that it is a fraction of lawcore.wasm's
// download; the page has lawcore's schema from the build (wasm/schema.json). The importers,
// the analyses, the other laws, auto and validation are in lawcore.wasm, which the worker
// loads the first time the core answers that a call needs it (needsFull, errNeedsFull).

// needsFull reports whether the method is one the core lacks.
func needsFull(method string) bool {
	_, ok := methods[method]
	return !ok
}

// unreadable is the core's answer to a request it cannot decode: lawcore.wasm's, so that the
// error the page sees is always the full bridge's.
func unreadable(string, error) error { return errNeedsFull }

// outOfCore reports whether a decoded request needs the full bridge: a fit or prediction with
// a law other than the annealing law (the only one registered here), in its law or its
// members', or an auto fit (which compares every law). The request is decoded once, by the
// method, and checked here: a second decode would have V8 optimise encoding/json's decoder
// during the first view (see the package doc of lawcore on loops).
func outOfCore(req any) bool {
	known := func(law string) bool {
		_, err := lawcore.Lookup(law)
		return err == nil
	}
	switch r := req.(type) {
	case *lawcore.FitRequest:
		return r.Auto || !known(r.Law)
	case *lawcore.PredictRequest:
		if !known(r.Law) {
			return true
		}
		// an auto fit's average of laws predicts with each member's law
		for _, m := range r.Members {
			if !known(m.Law) {
				return true
			}
		}
	}
	return false
}

// The first view's requests as the page sends them, in the shapes it uses (its data come as
// columns): prepareJSON decodes them.
const (
	firstFitRequest = `{"law":"annealing","curves":[{"name":"cosine","role":"fit","schedule":{"kind":"cosine","total":20000,"peak":2e-4,"warmup":500}}],
		"lambda":0.999,"warmupSteps":500,"warmupConvention":"peak","huberDelta":0.001,"lines":true,"points":2000,"intervals":true}`
	firstPredictRequest = `{"law":"annealing","params":{"L0":2.6,"A":0.4,"alpha":0.5,"C":0.4,"lambda":0.999},"warmupSteps":500,"warmupConvention":"peak",
		"curves":[{"name":"WSD","schedule":{"kind":"wsd","total":60000,"peak":2e-4,"final":0,"warmup":500,"decay":"cosine","decayFraction":0.2}}],"points":2000}`
)

// prepareJSON has encoding/json work out the types of the first view's calls, the fit's and
// the prediction's requests and answers, while the core waits for the page's first call:
// encoding/json builds each type's field list once (typeFields, 21 struct types here) and the
// core compiles its functions on their first call, and both otherwise fell inside the first
// fit. It decodes requests like the page's and encodes empty answers, and runs nothing else.
func prepareJSON() error {
	var fit lawcore.FitRequest
	if err := lawcore.DecodeJSON([]byte(firstFitRequest), &fit); err != nil {
		return err
	}
	var predict lawcore.PredictRequest
	if err := lawcore.DecodeJSON([]byte(firstPredictRequest), &predict); err != nil {
		return err
	}
	if _, err := json.Marshal(&lawcore.FitResult{}); err != nil {
		return err
	}
	_, err := json.Marshal(&predictions{Curves: []lawcore.Prediction{{}}})
	return err
}

// afterStart runs once the core has said it is up, if no call has come yet: prepareJSON.
func afterStart() { _ = prepareJSON() }
