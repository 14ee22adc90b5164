package laws_test

import (
	"context"
	"testing"
	"time"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
)

func TestZZMPLTime(t *testing.T) {
	for _, name := range []string{"fig2", "25", "100"} {
		var req lawcore.FitRequest
		if name == "fig2" {
			req = testcurves.Fig2(t)
		} else {
			req = testcurves.MPLRequest(t, name, lawcore.FixedLambda(0.999), "")
		}
		req.Law, req.WarmupConvention = "multi-power", "actual"
		t0 := time.Now()
		res, err := lawcore.Fit(context.Background(), req, func(float64) {})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v %+v obj %g params %v", name, time.Since(t0), res.Search, res.Objective, res.Params)
	}
}
