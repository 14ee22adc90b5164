package input_test

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore/input"
)

func ExampleWithin() {
	err := input.Errorf("", "loss[3]", "must be positive, got %g", -0.5)
	fmt.Println(input.Within(`curve "cosine"`, err))
	// Output: curve "cosine": loss[3]: must be positive, got -0.5
}

func ExampleDecodeStrict() {
	var req struct {
		Steps []float64 `json:"steps"`
	}
	fmt.Println(input.DecodeStrict([]byte(`{"steps": [1, null, 3]}`), &req))
	fmt.Println(input.DecodeStrict([]byte(`{"step": [1]}`), &req))
	// Output:
	// steps[1]: null is not a value: give a number (or leave the point out)
	// not valid JSON for this request: unknown field "step"
}
