//go:build lawcore_core

package main

import (
	"encoding/json"

	"github.com/lawcalc/annealing/lawcore"
)

// The core bridge (-tags lawcore_core): what the page's first view needs (fit and predict with
// the annealing law, schedules) and nothing else, so that it is a fraction of lawcore.wasm's
// download; the page has lawcore's schema from the build (wasm/schema.json). The importers, the analyses, the other laws, auto and validation
// are in lawcore.wasm, which the worker loads the first time the core answers that a call
// needs it (needsFull).

// needsFull reports whether the call needs the full bridge: a method the core lacks, or a fit or
// prediction with a law other than the annealing law (the only one registered here), in its law
// or its members', or an auto fit (which compares every law). A request the core cannot read goes there too, so that the
// error the page sees is always the full bridge's.
func needsFull(method string, request []byte) bool {
	if _, ok := methods[method]; !ok {
		return true
	}
	if method != "fit" && method != "predict" {
		return false
	}
	var which struct {
		Law     string `json:"law"`
		Auto    bool   `json:"auto"`
		Members []struct {
			Law string `json:"law"`
		} `json:"members"`
	}
	if err := json.Unmarshal(request, &which); err != nil || which.Auto {
		return true
	}
	if _, err := lawcore.Lookup(which.Law); err != nil {
		return true
	}
	// an auto fit's average of laws predicts with each member's law
	for _, m := range which.Members {
		if _, err := lawcore.Lookup(m.Law); err != nil {
			return true
		}
	}
	return false
}
