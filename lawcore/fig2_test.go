package lawcore_test

import (
	"context"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
)

func TestFitFig2MatchesPaper(t *testing.T) {
	res, err := lawcore.Fit(context.Background(), testcurves.Fig2(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := annealingParams(t, res)
	t.Logf("params %+v objective %.6g search %+v elapsed %.2f ms", p, res.Objective, res.Search, res.ElapsedMs)
	want := annealing.Params{L0: 2.628, A: 0.430, C: 0.411, Alpha: 0.550}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"L0", p.L0, want.L0}, {"A", p.A, want.A}, {"C", p.C, want.C}, {"alpha", p.Alpha, want.Alpha}} {
		if math.Round(c.got*1000)/1000 != c.want {
			t.Errorf("%s = %.5f, want %.3f to three decimals", c.name, c.got, c.want)
		}
	}
	// the fit is at least as good as the point the paper prints (A = 0.429 there)
	printed, err := lawcore.Evaluate(testcurves.Fig2(t), lawcore.Values{"L0": 2.628, "A": 0.429, "C": 0.411, "alpha": 0.550, "lambda": 0.999})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("objective at the printed parameters %.6g", printed.Objective)
	if !(res.Objective <= printed.Objective) {
		t.Errorf("objective %.6g, above the paper's printed parameters' %.6g", res.Objective, printed.Objective)
	}
	if r2 := *res.FitMetrics.R2; !(r2 > 0.999) {
		t.Errorf("R2 %.5f, the paper reports above 0.999", r2)
	}
}
