package lawcore_test

import (
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// The steps of one prediction are bounded in all (each is computed, and may be returned):
// three schedules of 9,999,999 steps pass MaxPredictSteps with the third, which is named.
func TestPredictTotalStepsBounded(t *testing.T) {
	long := lawcore.Schedule{Kind: lawcore.KindConstant, Total: lawcore.MaxScheduleSteps - 1, Peak: 2e-4}
	req := lawcore.PredictRequest{Params: lawcore.Values{"L0": 2.6, "A": 0.43, "alpha": 0.55, "C": 0.41, "lambda": 0.999}, Points: 10,
		Curves: []lawcore.PredictCurve{{Name: "one", Schedule: &long}, {Name: "two", Schedule: &long}, {Name: "three", Schedule: &long}}}
	_, err := lawcore.Predict(req)
	if err == nil || !strings.Contains(err.Error(), `curves: the schedules run more than the 20000000 steps in all that one prediction may compute (curve "three"`) {
		t.Errorf("got %v", err)
	}
}
