//go:build lawcore_core

package main

import (
	"github.com/lawcalc/annealing/lawcore"
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
// method, and checked here: decoding it twice made V8 optimise encoding/json's decoder during
// the first view (see the package doc of lawcore on loops).
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
