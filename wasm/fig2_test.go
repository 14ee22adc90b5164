package main

import (
	"encoding/json"
	"os"
	"testing"
)

// fig2Request is the paper's Fig. 2 fit with the curves' arrays passed as columns, as the
// page does.
func fig2Request(t *testing.T) ([]byte, []columns) {
	data, err := os.ReadFile("../site/examples/paper-fig2.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Steps []float64            `json:"steps"`
		Loss  map[string][]float64 `json:"loss"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	req := `{"curves":[
		{"name":"cosine","schedule":{"kind":"cosine","total":20000,"peak":2e-4,"warmup":500}},
		{"name":"constant","schedule":{"kind":"constant","total":20000,"peak":2e-4,"warmup":500}}],
		"lambda":0.999,"warmupConvention":"peak","lines":true,"points":100}`
	return []byte(req), []columns{{"steps": f.Steps, "loss": f.Loss["cosine"]}, {"steps": f.Steps, "loss": f.Loss["constant"]}}
}
