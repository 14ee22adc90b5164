package lawcore_test

import (
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// The points one prediction returns are bounded in all: three schedules of 9,999,999 steps,
// every step asked for, pass MaxPredictPoints with the third, which is named; asked for 10,000
// points each they are computed (a few seconds) and returned.
func TestPredictTotalPointsBounded(t *testing.T) {
	long := lawcore.Schedule{Kind: lawcore.KindConstant, Total: lawcore.MaxScheduleSteps - 1, Peak: 2e-4}
	req := lawcore.PredictRequest{Params: lawcore.Values{"L0": 2.6, "A": 0.43, "alpha": 0.55, "C": 0.41, "lambda": 0.999},
		Curves: []lawcore.PredictCurve{{Name: "one", Schedule: &long}, {Name: "two", Schedule: &long}, {Name: "three", Schedule: &long}}}
	_, err := lawcore.Predict(req)
	if err == nil || !strings.Contains(err.Error(), `curves: more than the 20000000 predicted points in all that one prediction may return (curve "three"`) {
		t.Errorf("every step: got %v", err)
	}
	if testing.Short() {
		return
	}
	req.Points = 10000
	pr, err := lawcore.Predict(req)
	if err != nil || len(pr) != 3 || len(pr[2].Steps) > 10001 {
		t.Errorf("10,000 points each: got %v", err)
	}
}
