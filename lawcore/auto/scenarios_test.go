package auto_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"gonum.org/v1/gonum/stat"
)

// The development scenarios of the auto choice: each fits some curves and holds others out
// (role "validate"), which auto never sees while it chooses.
type scenario struct {
	name string
	req  lawcore.FitRequest
}

func scenarios(t testing.TB) []scenario {
	var out []scenario
	// the cooldown-length study: the stable run and one 20% cooldown at 25K fitted, the other
	// eleven linear cooldowns predicted
	runs := testcurves.Cooldown(t)
	cool := lawcore.FitRequest{WarmupSteps: 300}
	for _, name := range sortedNames(runs) {
		c := runs[name].Curve
		c.Role = lawcore.RoleValidate
		if name == "stable-50k" || name == "wsd-linear-0.2-25k" {
			c.Role = lawcore.RoleFit
		}
		cool.Curves = append(cool.Curves, c)
	}
	out = append(out, scenario{"cooldown study", cool})
	for _, size := range []string{"25", "100"} {
		out = append(out, scenario{"release split " + size + "M", testcurves.MPLRequest(t, size, lawcore.FixedLambda(lawcore.DefaultLambda), "")})
		one := testcurves.MPLRequest(t, size, lawcore.FixedLambda(lawcore.DefaultLambda), "")
		for i := range one.Curves {
			one.Curves[i].Role = lawcore.RoleValidate
			if one.Curves[i].Name == "cosine_24000" {
				one.Curves[i].Role = lawcore.RoleFit
			}
		}
		out = append(out, scenario{"one run " + size + "M", one})
	}
	return out
}

func sortedNames(m map[string]testcurves.CooldownRun) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestAutoScenarios runs auto on every development scenario and prints the table of
// scenario x candidate (held-out PredE of the scenario's own validate curves, which auto
// never sees), with auto's pick (or its average's members and their weights), and each
// scenario's band coverage. Set AUTO_TABLE=path to
// also write the table as Markdown (scripts/auto-table.sh does). It asserts the cooldown
// study's decision (the figures: the best cooldown at both lengths within evaluation
// noise, last losses within 0.005, PredE within 0.0015), the release split's targets, the
// band's coverage on every scenario, and that auto's mean beats every fixed setting; from one
// run, how far auto is from the best candidate in hindsight is reported, not asserted (see
// docs/accuracy.md#auto-against-every-fixed-setting).
func TestAutoScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every law many times")
	}
	var rows []string
	// the candidates, but the size law (no scenario has model sizes)
	var header []string
	var cands []lawcore.Candidate
	for _, c := range auto.Candidates() {
		if c.Law != "size" {
			cands = append(cands, c)
			header = append(header, c.Label)
		}
	}
	sums := map[string]float64{}
	autoSum := 0.0
	for _, sc := range scenarios(t) {
		req := sc.req
		req.Auto = true
		res, err := auto.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(sc.name, err)
		}
		a := res.Auto
		// what each candidate, fitted on the scenario's fit curves, predicts of its held-out
		// curves (auto fits only the candidate it chose on every curve)
		scenarioErr := map[string]float64{}
		for _, c := range cands {
			fitted := sc.req
			fitted.Law, fitted.WarmupConvention, fitted.Search = c.Law, string(c.Convention), c.Search
			if c.Lambda != nil {
				fitted.Lambda = *c.Lambda
			}
			if r, err := lawcore.Fit(context.Background(), fitted, nil); err == nil && r.ValidateMetrics != nil {
				scenarioErr[c.Label] = r.ValidateMetrics.PredE
			}
		}
		bestHindsight := math.Inf(1)
		cells := []string{sc.name}
		for _, label := range header {
			v, ok := scenarioErr[label]
			if !ok {
				cells = append(cells, "–")
				continue
			}
			bestHindsight = math.Min(bestHindsight, v)
			sums[label] += v
			// ◀ marks what auto predicts with: the one law picked, or each member with its weight
			mark := ""
			for _, c := range a.Candidates {
				if c.Label == label && c.Weight > 0 {
					mark = " ◀"
					if c.Weight < 1 {
						mark += fmt.Sprintf(" %.0f%%", 100*c.Weight)
					}
				}
			}
			cells = append(cells, fmt.Sprintf("%.5f%s", v, mark))
		}
		got := res.ValidateMetrics.PredE
		autoSum += got
		cov, worst, worstName := bandCoverage(t, req, res)
		t.Logf("%s: auto's 90%% band covers %.2f of the held-out points on average, worst %.2f (%s)", sc.name, cov, worst, worstName)
		// issue #44's claims on every scenario: at least 80% on average, no curve below 60%
		if cov < 0.80 || worst < 0.60 {
			t.Errorf("%s: the 90%% band covers %.2f on average, worst %.2f (%s): want at least 0.80 and 0.60", sc.name, cov, worst, worstName)
		}
		if sc.name == "cooldown study" {
			cooldownDecision(t, sc.req, res)
		}
		// on the release split, auto predicts the six held-out curves at least as well as the
		// release's own procedure does (mean PredE)
		if target, ok := releaseTargets[sc.name]; ok {
			v := res.ValidateMetrics
			t.Logf("%s: auto's PredE %.5f, WorstE %.5f (the release's %.5f, %.4f)", sc.name, v.PredE, v.WorstE, target[0], target[1])
			if !(v.PredE <= target[0]) {
				t.Errorf("%s: auto's PredE %.5f, want at most the release's %.5f", sc.name, v.PredE, target[0])
			}
		}
		cells = append(cells, fmt.Sprintf("%.5f", got))
		rows = append(rows, "| "+strings.Join(cells, " | ")+" |")
		t.Logf("%s: auto picks %s (%s): held-out PredE %.5f, best in hindsight %.5f (%.0f%% above)\n  %s",
			sc.name, a.Chosen.Label, a.Design, got, bestHindsight, 100*(got/bestHindsight-1), a.Reason)
		for _, m := range res.Members {
			t.Logf("    member %.2f %s", m.Weight, m.Label)
		}
		for _, c := range a.Candidates {
			v, ok := scenarioErr[c.Label]
			if !ok {
				v = math.NaN()
			}
			t.Logf("    %-62s auto's held-out %.5f ± %.5f  folds %v  in-sample %.5f  scenario %.5f %s", c.Label, c.HeldOut, c.StdErr, fmtFolds(c.Folds), c.InSample, v, c.Error)
		}
	}
	head := "| scenario | " + strings.Join(header, " | ") + " | auto |"
	sep := strings.Repeat("| --- ", len(header)+2) + "|"
	var means []string
	n := float64(len(rows))
	for _, label := range header {
		means = append(means, fmt.Sprintf("%.5f", sums[label]/n))
	}
	meanRow := "| mean | " + strings.Join(means, " | ") + fmt.Sprintf(" | %.5f |", autoSum/n)
	// on average over the scenarios, auto predicts better than any one fixed setting would
	for _, label := range header {
		if sums[label]/n <= autoSum/n {
			t.Errorf("auto's mean held-out PredE %.5f is no better than %s's %.5f", autoSum/n, label, sums[label]/n)
		}
	}
	table := strings.Join(append(append([]string{head, sep}, rows...), meanRow), "\n")
	t.Logf("\n%s", table)
	if path := os.Getenv("AUTO_TABLE"); path != "" {
		if err := os.WriteFile(path, []byte(table+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// releaseTargets are the release's own procedure's figures on its split: mean PredE and
// WorstE of the six held-out curves.
var releaseTargets = map[string][2]float64{
	"release split 25M":  {0.00110, 0.0041},
	"release split 100M": {0.00142, 0.0058},
}

func fmtFolds(f []float64) string {
	s := make([]string, len(f))
	for i, v := range f {
		s[i] = fmt.Sprintf("%.5f", v)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// bandCoverage predicts the scenario's validate curves with the auto fit's band and returns
// the mean share of their points inside it, and the worst curve's.
func bandCoverage(t *testing.T, req lawcore.FitRequest, res *lawcore.FitResult) (mean, worst float64, worstName string) {
	t.Helper()
	worst, n := 1.0, 0
	for _, c := range req.Curves {
		if c.Role != lawcore.RoleValidate {
			continue
		}
		pr, err := lawcore.Predict(lawcore.PredictRequest{Law: res.Law, Params: res.Params, WarmupSteps: req.WarmupSteps,
			WarmupConvention: string(res.Settings.WarmupConvention), Band: res.Band, Members: res.Members,
			Curves: []lawcore.PredictCurve{{Name: c.Name, Schedule: c.Schedule, LR: c.LR, Steps: c.Steps}}})
		if err != nil {
			t.Fatal(err)
		}
		in := 0
		for k, obs := range c.Loss {
			if obs >= pr[0].Lower[k] && obs <= pr[0].Upper[k] {
				in++
			}
		}
		share := float64(in) / float64(len(c.Loss))
		mean += share
		n++
		if share < worst {
			worst, worstName = share, c.Name
		}
	}
	return mean / float64(n), worst, worstName
}

// cooldownDecision scores the auto fit on the cooldown study's question, as its README
// states the protocol: for each length T, the cooldown fraction with the lowest predicted
// last loss against the real best (the regret), and the mean error of the last losses.
func cooldownDecision(t *testing.T, req lawcore.FitRequest, res *lawcore.FitResult) {
	t.Helper()
	type pick struct {
		name       string
		pred, real float64
	}
	byT := map[string][]pick{}
	finalErr, n := 0.0, 0
	for i, c := range req.Curves {
		if !strings.HasPrefix(c.Name, "wsd-linear-") {
			continue
		}
		last := len(c.Loss) - 1
		p := pick{c.Name, res.Curves[i].Predicted[last], c.Loss[last]}
		tk := c.Name[strings.LastIndex(c.Name, "-")+1:]
		byT[tk] = append(byT[tk], p)
		if c.Role == lawcore.RoleValidate {
			finalErr += math.Abs(p.pred - p.real)
			n++
		}
	}
	for _, tk := range []string{"25k", "50k"} {
		ps := byT[tk]
		chosen, best := ps[0], ps[0]
		for _, p := range ps {
			if p.pred < chosen.pred {
				chosen = p
			}
			if p.real < best.real {
				best = p
			}
		}
		t.Logf("cooldown study, %s: auto picks %s (real last loss %.4f), the best is %s (%.4f): regret %.4f",
			tk, chosen.name, chosen.real, best.name, best.real, chosen.real-best.real)
		// differences under 0.001 are evaluation noise (the study's README)
		if !(chosen.real-best.real <= 0.001) {
			t.Errorf("cooldown study, %s: auto picks %s, a regret of %.4f", tk, chosen.name, chosen.real-best.real)
		}
	}
	mean := finalErr / float64(n)
	t.Logf("cooldown study: mean |error| of the eleven predicted last losses %.4f", mean)
	if !(mean <= 0.005) {
		t.Errorf("cooldown study: the last losses are predicted with a mean error of %.4f", mean)
	}
	if !(res.ValidateMetrics.PredE <= 0.0015) {
		t.Errorf("cooldown study: held-out PredE %.5f", res.ValidateMetrics.PredE)
	}
}

// TestAutoAnswer checks what an auto answer says on the paper's Fig. 2 curves, where no
// curve carries a model size: the size law is not a candidate, every candidate is scored on
// the same folds, the answer encodes as JSON (the bridge and the CLI send it so), and the
// chosen candidate is the best scored one or tied with it; the lines and intervals asked for
// come with the chosen fit (the fold fits leave them out: they only score a candidate).
func TestAutoAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every candidate on every fold")
	}
	req := testcurves.Fig2(t)
	req.Auto, req.Lines, req.Intervals = true, true, true
	res, err := auto.Fit(context.Background(), req, func(float64) {})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("the auto answer does not encode: %v", err)
	}
	a := res.Auto
	// two curves: each left out, and each one's last half forecast
	if len(a.Folds) != 4 {
		t.Errorf("%d folds, want 4: %q", len(a.Folds), a.Folds)
	}
	for i, c := range a.Candidates {
		if c.Law == "size" {
			t.Errorf("the size law is a candidate on curves without sizes")
		}
		// scored on the informative folds: every fold but those left out, each saying why
		if c.Error == "" && len(c.Folds) != len(a.Folds)-len(a.LeftOut) {
			t.Errorf("%s: %d fold errors, want %d (%d folds, %d left out)", c.Label, len(c.Folds), len(a.Folds)-len(a.LeftOut), len(a.Folds), len(a.LeftOut))
		}
		// what predicts first, heaviest first; then the rest, scored ones best first
		if i > 0 {
			prev := a.Candidates[i-1]
			if c.Weight > prev.Weight || c.Weight == 0 && prev.Weight == 0 && c.Error == "" && prev.Error == "" && c.HeldOut < prev.HeldOut {
				t.Errorf("candidates out of order at %d: %s (weight %g, held-out %.5f) after %s (weight %g, held-out %.5f)",
					i, c.Label, c.Weight, c.HeldOut, prev.Label, prev.Weight, prev.HeldOut)
			}
		}
	}
	if a.Candidates[0].Label != a.Chosen.Label {
		t.Errorf("the first candidate %s is not the chosen %s", a.Candidates[0].Label, a.Chosen.Label)
	}
	if res.Law != a.Chosen.Law {
		t.Errorf("the answer's law %q is not the chosen %q", res.Law, a.Chosen.Law)
	}
	// The rule, as the package doc states it: an average only where it predicts the held-out
	// data better than the best single candidate; else the best, or one with no more
	// parameters that the held-out data do not disfavour strongly beside it (a ratio of
	// evidence under 20), or whose fold errors exceed the best's by at most one standard error
	// of the paired differences (or by 3% of the best's).
	best := slices.MinFunc(scored(a.Candidates), func(x, y lawcore.CandidateScore) int { return cmp.Compare(x.HeldOut, y.HeldOut) })
	chosen := a.Candidates[slices.IndexFunc(a.Candidates, func(c lawcore.CandidateScore) bool { return c.Label == a.Chosen.Label })]
	switch {
	case a.Averaged > 0:
		if !(a.Averaged < best.HeldOut) {
			t.Errorf("an average with held-out error %.5f, not below the best single %.5f", a.Averaged, best.HeldOut)
		}
	case chosen.Label != best.Label:
		var d []float64
		for i := range best.Folds {
			d = append(d, chosen.Folds[i]-best.Folds[i])
		}
		mean, sd := stat.MeanStdDev(d, nil)
		tied := chosen.Evidence*20 >= best.Evidence
		if se := sd / math.Sqrt(float64(len(d))); chosen.Free > best.Free || !(tied || mean <= se || mean <= 0.03*best.HeldOut) {
			t.Errorf("chose %s (%d parameters, held-out %.5f) over the best %s (%d, %.5f): mean paired difference %.5f, its standard error %.5f",
				chosen.Label, chosen.Free, chosen.HeldOut, best.Label, best.Free, best.HeldOut, mean, se)
		}
	}
	if len(res.Lines) != len(req.Curves) {
		t.Errorf("%d fitted lines, want one per curve (%d)", len(res.Lines), len(req.Curves))
	}
	free := 0
	for name, v := range res.Params {
		if slices.Contains(res.Held, name) {
			continue
		}
		free++
		iv, ok := res.Intervals[name]
		if !ok || !(iv.Low <= v && v <= iv.High) {
			t.Errorf("%s = %g: interval %+v (present %v), want one around it", name, v, iv, ok)
		}
	}
	if free == 0 || len(res.Replicates) == 0 {
		t.Errorf("%d free parameters, %d replicates: the chosen fit gives no intervals", free, len(res.Replicates))
	}
	// the band: one set of replicates per law predicted with, and the discrepancy learnt from
	// the informative folds, never narrower within the data than beyond
	b := res.Band
	if b == nil || len(b.Replicates) != max(1, len(res.Members)) || b.Folds != len(a.Folds)-len(a.LeftOut) || b.HalfWidth(1) < b.HalfWidth(0) {
		t.Errorf("band %+v: want %d sets of replicates and %d folds, wider farther", b, max(1, len(res.Members)), len(a.Folds)-len(a.LeftOut))
	}
	t.Logf("chosen: %s — %s; intervals %v", a.Chosen.Label, a.Reason, res.Intervals)
}

// scored are the candidates that could be scored on held-out data.
func scored(cands []lawcore.CandidateScore) []lawcore.CandidateScore {
	return slices.DeleteFunc(slices.Clone(cands), func(c lawcore.CandidateScore) bool { return c.Error != "" })
}
