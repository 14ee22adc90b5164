package multipower

import (
	"context"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
)

// The Multi-Power Law on the MultiPowerLaw release's curves and split (fit cosine_24000,
// constant_24000, wsdcon_9; predict the other six), with the release's own learning rates
// (testcurves.ReleaseLR: its warmup peaks at step 2159, one step before MPLSchedule's; the law
// counts the warmup, and this last warmup step moves the held-out PredE of the release's own
// parameters from 0.00110 to 0.00115 on 25M).

// release is, per model size, the release's fitted parameters (src/config.py) and its
// published means over the six held-out curves (its README).
var release = map[string]struct {
	params                       Params
	r2, mae, rmse, predE, worstE float64
}{
	"25": {Params{L0: 3.04045406, A: 0.52468604, Alpha: 0.50786857, B: 363.78751622, C: 2.06560812, Beta: 0.58279013, Gamma: 0.64142257},
		0.9988, 0.00376, 0.00465, 0.00110, 0.00409},
	"100": {Params{L0: 2.6514477, A: 0.60115152, Alpha: 0.45295811, B: 437.9464276, C: 2.13245612, Beta: 0.59785199, Gamma: 0.65523644},
		0.9983, 0.00435, 0.00592, 0.00142, 0.00583},
}

// releaseRequest is the release's split with its learning rates, for this law.
func releaseRequest(t testing.TB, size string) lawcore.FitRequest {
	req := testcurves.ReleaseRequest(t, size)
	req.Law = Name
	return req
}

// checkPublished says whether the held-out metrics are the release's published ones, to
// the digits it gives.
func checkPublished(t *testing.T, what, size string, v *lawcore.Metrics) {
	t.Helper()
	rel := release[size]
	for _, c := range []struct {
		name      string
		got, want float64
		digits    float64
	}{{"R2", *v.R2, rel.r2, 1e-4}, {"MAE", v.MAE, rel.mae, 1e-5}, {"RMSE", v.RMSE, rel.rmse, 1e-5},
		{"PredE", v.PredE, rel.predE, 1e-5}, {"WorstE", v.WorstE, rel.worstE, 1e-5}} {
		if !(math.Abs(c.got-c.want) <= c.digits/2) {
			t.Errorf("%s %sM: held-out %s %.6f, the release publishes %v", what, size, c.name, c.got, c.want)
		}
	}
}

// The law itself: the release's parameters give the release's published numbers.
func TestReleaseParams(t *testing.T) {
	for _, size := range []string{"25", "100"} {
		res, err := lawcore.Evaluate(releaseRequest(t, size), release[size].params.Values())
		if err != nil {
			t.Fatal(err)
		}
		v := res.ValidateMetrics
		t.Logf("%sM release parameters: held-out R2 %.4f MAE %.5f RMSE %.5f PredE %.5f WorstE %.5f; objective %.4g",
			size, *v.R2, v.MAE, v.RMSE, v.PredE, v.WorstE, res.Objective)
		checkPublished(t, "release parameters", size, v)
	}
}

// The release's procedure reproduces its parameters, and so its published numbers.
func TestReleaseProcedure(t *testing.T) {
	for _, size := range []string{"25", "100"} {
		req := releaseRequest(t, size)
		req.Search = SearchRelease
		res, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, p := res.ValidateMetrics, fitted(t, res)
		t.Logf("%sM release procedure: %+v; held-out PredE %.5f WorstE %.5f; objective %.4g; %d evaluations, %.0f ms",
			size, p, v.PredE, v.WorstE, res.Objective, res.Search.Evaluations, res.ElapsedMs)
		want := release[size].params
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"L0", p.L0, want.L0}, {"A", p.A, want.A}, {"alpha", p.Alpha, want.Alpha},
			{"B", p.B, want.B}, {"C", p.C, want.C}, {"beta", p.Beta, want.Beta}, {"gamma", p.Gamma, want.Gamma}} {
			if !(math.Abs(c.got-c.want) <= 1e-4*c.want) {
				t.Errorf("%sM: %s = %.8g, the release has %.8g", size, c.name, c.got, c.want)
			}
		}
		checkPublished(t, "release procedure", size, v)
	}
}

// The engine's search reaches the objective's minimum, below the release's early-stopped
// parameters, and then predicts the held-out curves worse than they do (their published
// PredE), though within the paper's ~0.2% mean error on unseen schedules, and its worst point
// no worse than theirs (their published WorstE): this pins down both facts. Measured: PredE
// 0.00137 / 0.00165, WorstE 0.00360 / 0.00505.
func TestOptimumOnReleaseSplit(t *testing.T) {
	const paperUnseen = 0.002 // the paper's mean error on unseen schedules
	for _, c := range []struct{ size string }{{"25"}, {"100"}} {
		req := releaseRequest(t, c.size)
		res, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := lawcore.Evaluate(req, release[c.size].params.Values())
		if err != nil {
			t.Fatal(err)
		}
		v := res.ValidateMetrics
		t.Logf("%sM optimum: held-out PredE %.5f WorstE %.5f R2 %.4f (fit PredE %.5f); objective %.5g (release parameters %.5g); %+v; %d starts, %d evaluations, %.1f ms",
			c.size, v.PredE, v.WorstE, *v.R2, res.FitMetrics.PredE, res.Objective, rel.Objective, fitted(t, res), res.Search.Starts, res.Search.Evaluations, res.ElapsedMs)
		for _, cr := range res.Curves {
			t.Logf("  %-18s %-8s PredE %.5f WorstE %.5f", cr.Name, cr.Role, cr.Metrics.PredE, cr.Metrics.WorstE)
		}
		if !(res.Objective < rel.Objective) {
			t.Errorf("%sM: objective %.5g, not below the release parameters' %.5g", c.size, res.Objective, rel.Objective)
		}
		pub := release[c.size]
		if !(v.PredE > pub.predE && v.PredE <= paperUnseen) {
			t.Errorf("%sM: held-out PredE %.5f, want above the release's %.5f and at most the paper's %.4f", c.size, v.PredE, pub.predE, paperUnseen)
		}
		if !(v.WorstE <= pub.worstE) {
			t.Errorf("%sM: held-out WorstE %.5f, want at most the release's %.5f", c.size, v.WorstE, pub.worstE)
		}
		// the schedules written as MPLSchedule (warmup peaking one step later) give the same
		// minimum: the fit absorbs the difference
		req2 := testcurves.MPLRequest(t, c.size, lawcore.FixedLambda(lawcore.DefaultLambda), "")
		req2.Law = Name
		res2, err := lawcore.Fit(context.Background(), req2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !(math.Abs(res2.ValidateMetrics.PredE-v.PredE) <= 2e-5) {
			t.Errorf("%sM: held-out PredE %.5f with MPLSchedule, %.5f with the release's LR", c.size, res2.ValidateMetrics.PredE, v.PredE)
		}
	}
}
