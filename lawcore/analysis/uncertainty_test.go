package analysis

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"gonum.org/v1/gonum/stat/distuv"
)

// shiftedReplicates are the Fig. 2 parameters with L0 shifted by each of shifts: a constant
// shift moves every final loss alike and no difference at all.
func shiftedReplicates(shifts []float64) []lawcore.Values {
	var out []lawcore.Values
	for _, d := range shifts {
		p := Fig2Params().Values()
		p["L0"] += d
		out = append(out, p)
	}
	return out
}

// jackknifeHalfWidth is the closed form t * sqrt((K-1)/K * sum (x - mean)^2).
func jackknifeHalfWidth(xs []float64) float64 {
	k := float64(len(xs))
	mean := 0.0
	for _, x := range xs {
		mean += x / k
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: k - 1}.Quantile(0.95) * math.Sqrt((k-1)/k*ss)
}

// TestDifferencesDecide: replicates that differ only in L0 widen every final loss by the
// closed-form jackknife half-width of the shifts, yet tie no ratio with the optimum, tell
// every shape apart and pin the crossover to its own total: the differences, not the
// losses, decide.
func TestDifferencesDecide(t *testing.T) {
	shifts := []float64{0.01, -0.02, 0.005, 0.03, -0.01, 0, 0.015, -0.025, 0.02, -0.005}
	want := jackknifeHalfWidth(shifts)

	w := DefaultWSDRatioOptions()
	w.Totals = []int{50000}
	w.Replicates = shiftedReplicates(shifts)
	res, err := WSDRatio(context.Background(), w, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := res.Optima[0]
	if !(math.Abs(opt.PlusMinus-want) <= 1e-9) {
		t.Errorf("final loss ± %.6f, want the shifts' half-width %.6f", opt.PlusMinus, want)
	}
	if opt.Tied == nil || opt.Tied.From != opt.Ratio || opt.Tied.To != opt.Ratio {
		t.Errorf("ratios tied with the optimum %.4f: %+v, want the optimum alone", opt.Ratio, opt.Tied)
	}

	a := DefaultAnnealFunctionOptions()
	a.Replicates = shiftedReplicates(shifts)
	ares, err := AnnealFunction(context.Background(), a, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, win := range ares.Winners {
		if win.Apart == nil || *win.Apart != (win.Margin > 0) || win.MarginPlusMinus > 1e-12 {
			t.Errorf("ratio %g: apart %v with margin %g ± %g; want apart whenever the margin is positive, ± 0", win.Ratio, win.Apart, win.Margin, win.MarginPlusMinus)
		}
	}

	c := DefaultConstantVsCosineOptions()
	c.Replicates = shiftedReplicates(shifts)
	cres, err := ConstantVsCosine(context.Background(), c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if x := cres.Crossover; x == nil || x.Low != x.Total || x.High != x.Total {
		t.Errorf("crossover %+v: want it pinned to its own total", cres.Crossover)
	}
}

// fig2WithReplicates is the fit of the paper's Fig. 2 curves with its intervals, and so its
// jackknife replicates (ten: each refit without one tenth of every curve).
func fig2WithReplicates(t *testing.T) *lawcore.FitResult {
	t.Helper()
	req := testcurves.Fig2(t)
	req.Intervals = true
	fit, err := lawcore.Fit(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fit.Replicates) != 10 {
		t.Fatalf("%d replicates, want 10", len(fit.Replicates))
	}
	return fit
}

// TestReplicatesOfAFit: with the replicates of the Fig. 2 fit (its jackknife), the WSD
// optimum at 50K steps is flat, as the paper's Fig. 11 shows: its grid neighbours cannot be
// told apart from it, while the ends of the sweep (2% and 80%) can; the answer says so in
// words.
func TestReplicatesOfAFit(t *testing.T) {
	fit := fig2WithReplicates(t)
	w := DefaultWSDRatioOptions()
	w.Totals = []int{50000}
	w.Params, w.Replicates = fit.Params, fit.Replicates
	res, err := WSDRatio(context.Background(), w, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := res.Optima[0]
	t.Logf("optimum %.4f, %.4f ± %.4f, tied %+v: %s", opt.Ratio, opt.Final.Loss, opt.PlusMinus, opt.Tied, res.Verdict)
	if !(opt.Tied.From < opt.Ratio && opt.Ratio < opt.Tied.To) {
		t.Errorf("tied %+v: the optimum %.4f's neighbours should be tied with it", opt.Tied, opt.Ratio)
	}
	if !(opt.Tied.From > 0.02 && opt.Tied.To < 0.8) {
		t.Errorf("tied %+v: the ends of the sweep should be told apart", opt.Tied)
	}
	if res.Verdict == "" || !(opt.PlusMinus > 0) {
		t.Errorf("verdict %q, ± %g", res.Verdict, opt.PlusMinus)
	}
}

// The verdicts write a grid's ratios as percentages without the float noise of the grid
// (numeric.Linspace(0.05, 0.6, 12) holds 0.44999999999999996).
func TestPercentWritesRatiosPlainly(t *testing.T) {
	grid := numeric.Linspace(0.05, 0.6, 12)
	for _, c := range []struct {
		r    float64
		want string
	}{{grid[8], "45%"}, {0.26, "26%"}, {0.125, "12.5%"}, {0.18914, "18.9%"}, {1, "100%"}} {
		if got := percent(c.r); got != c.want {
			t.Errorf("percent(%v) = %q, want %q", c.r, got, c.want)
		}
	}
}

// TestCrossoverSpanIsNotTheGrids: where the cosine overtakes the constant, within the Fig. 2
// fit's uncertainty, is a property of the law and its replicates, not of the totals drawn: a
// sweep of three totals gives the span a sweep of 400 gives (within 0.5%, the fine grid's
// spacing being 1.2%), and the span holds the crossover strictly inside it.
func TestCrossoverSpanIsNotTheGrids(t *testing.T) {
	fit := fig2WithReplicates(t)
	span := func(count int) *Crossover {
		o := DefaultConstantVsCosineOptions()
		o.Count, o.CurveTotals = count, nil
		o.Params, o.Replicates = fit.Params, fit.Replicates
		res, err := ConstantVsCosine(context.Background(), o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Crossover == nil {
			t.Fatalf("count %d: no crossover", count)
		}
		t.Logf("count %d: crossover %d, from %d to %d: %s", count, res.Crossover.Total, res.Crossover.Low, res.Crossover.High, res.Verdict)
		return res.Crossover
	}
	coarse, fine := span(3), span(400)
	if !(coarse.Low < coarse.Total && coarse.Total < coarse.High) {
		t.Errorf("three totals: span %d-%d around %d, want the crossover strictly inside", coarse.Low, coarse.High, coarse.Total)
	}
	for _, c := range []struct {
		what         string
		coarse, fine int
	}{{"crossover", coarse.Total, fine.Total}, {"low", coarse.Low, fine.Low}, {"high", coarse.High, fine.High}} {
		if math.Abs(float64(c.coarse-c.fine)) > 0.005*float64(c.fine) {
			t.Errorf("%s: %d from three totals, %d from 400", c.what, c.coarse, c.fine)
		}
	}
}

// TestCrossoverSpanPastTheSweep: at a peak LR of 1e-4 the Fig. 2 fit cannot tell the two apart
// at the longest total swept (200K), so the span goes on past it: the verdict says so, where
// it used to give the sweep's end as the span's ("anywhere from 116452 to 200000 steps"); a
// sweep long enough to close the span closes it.
func TestCrossoverSpanPastTheSweep(t *testing.T) {
	fit := fig2WithReplicates(t)
	run := func(maxTotal int) *ConstantVsCosineResult {
		o := DefaultConstantVsCosineOptions()
		o.Params, o.Replicates, o.Peak = fit.Params, fit.Replicates, 1e-4
		if maxTotal > 0 {
			o.MaxTotal = maxTotal
		}
		res, err := ConstantVsCosine(context.Background(), o, nil)
		if err != nil || res.Crossover == nil {
			t.Fatalf("max total %d: %v, crossover %v", maxTotal, err, res.Crossover)
		}
		t.Logf("max total %d: %+v: %s", maxTotal, *res.Crossover, res.Verdict)
		return res
	}
	swept := run(0)
	c := swept.Crossover
	if !c.HighOpen || c.LowOpen || c.High != int(swept.Constant.X[len(swept.Constant.X)-1]) {
		t.Errorf("span %+v: want it open past the longest total swept, closed below", *c)
	}
	if want := fmt.Sprintf("anywhere from %d to past %d steps (the longest total swept).", c.Low, c.High); !strings.HasSuffix(swept.Verdict, want) {
		t.Errorf("verdict %q, want it to end %q", swept.Verdict, want)
	}
	longer := run(4_000_000).Crossover
	if longer.HighOpen || !(longer.High > c.High) || longer.Low != c.Low {
		t.Errorf("swept to 4M steps: span %+v, want it closed past %d, from %d", *longer, c.High, c.Low)
	}
}
