//go:build lawcore_core

package main

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// The core fits and predicts the paper's Fig. 2 with the annealing law, and sends everything
// else to lawcore.wasm, its schema included.
func TestCoreFitsFig2(t *testing.T) {
	req, in := fig2Request(t)
	ans, err := call(context.Background(), "fit", req, in, nil, nil)
	if errors.Is(err, errNeedsFull) {
		t.Fatal("the core sends the Fig. 2 fit to lawcore.wasm")
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := math.Round(ans.result.(*lawcore.FitResult).Params["L0"]*1000) / 1000; got != 2.628 {
		t.Errorf("L0 = %v, want 2.628", got)
	}
}

func TestCoreNeedsFull(t *testing.T) {
	tests := []struct {
		method, request string
		full            bool
	}{
		{"schema", `{}`, true},
		{"schedule", `{"kind":"cosine","total":10,"peak":1}`, false},
		{"fit", `{"curves":[]}`, false},
		{"fit", `{"law":"annealing","curves":[]}`, false},
		{"predict", `{"law":"annealing","params":{}}`, false},
		{"fit", `{"law":"multi-power","curves":[]}`, true},
		{"fit", `{"law":"annealing","auto":true,"curves":[]}`, true},
		{"fit", `{"law":"size","curves":[]}`, true},
		{"fit", `{"law":"no such law"}`, true},
		{"fit", `not json`, true},
		{"predict", `{"law":"s2-power"}`, true},
		{"predict", `{"law":"annealing","members":[{"law":"annealing"},{"law":"annealing","warmupConvention":"actual"}]}`, false},
		{"predict", `{"law":"annealing","members":[{"law":"annealing"},{"law":"multi-power"}]}`, true},
		{"import", `{"name":"a.csv","text":"step,loss\n1,2"}`, true},
		{"analyze", `{"analysis":"defaults"}`, true},
		{"validate", `{}`, true},
		{"pairlr", `{}`, true},
		{"no such method", `{}`, true},
	}
	for _, tt := range tests {
		got := needsFull(tt.method)
		if !got {
			_, err := call(context.Background(), tt.method, []byte(tt.request), nil, nil, nil)
			got = errors.Is(err, errNeedsFull)
		}
		if got != tt.full {
			t.Errorf("%s %s: needs the full bridge %v, want %v", tt.method, tt.request, got, tt.full)
		}
	}
}

// prepareJSON's requests are requests the core takes: decoded strictly and answered by it, so
// that they go down the decoder's paths as the page's do.
func TestPrepareJSON(t *testing.T) {
	if err := prepareJSON(); err != nil {
		t.Fatal(err)
	}
	for method, req := range map[string]string{"fit": firstFitRequest, "predict": firstPredictRequest} {
		var in []columns
		if method == "fit" {
			_, fig2 := fig2Request(t)
			in = fig2[:1]
		}
		if _, err := call(context.Background(), method, []byte(req), in, nil, nil); err != nil {
			t.Errorf("%s: %v", method, err)
		}
	}
}
