package auto_test

// The measuring instrument of issue #44 ("Bands you can decide with"): on every development
// scenario, auto is fitted on the scenario's fit curves as a user fits them, and each held-out
// curve's schedule is predicted with the fit's members (or law and parameters) and its band
// through lawcore.Predict, as the page predicts a schedule; the prediction and the band are
// read at the held-out curve's last observed step and scored against its observed loss there.
// scripts/auto-table.sh --bands runs it and prints the table.

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
)

// bandLevel is the band's nominal coverage (lawcore.DefaultBandLevel); the interval score is
// that of the central interval at this level.
const bandLevel = lawcore.DefaultBandLevel

// thinnedPoints is about how many points a thinned horizon scenario keeps of its fit curve: a
// short run logged every thousand steps or so.
const thinnedPoints = 20

// The targets, which the table reports on (the test asserts none of them).
const (
	pooledCoverageLow, pooledCoverageHigh = 0.80, 0.97 // the pooled coverage of the 90% band
	scenarioCoverageLow                   = 0.60       // no scenario's coverage below it
	scoreOverErrorHigh                    = 6.0        // mean interval score / mean |error|
)

// sameRelative is the relative difference below which a mean |error| is the same as before:
// float64 rounding of the same computation, not a change of the predictions.
const sameRelative = 1e-9

// bandScenario is a development scenario of the band: auto fits fit (the fit curves alone,
// as a user's request holds them) and each of heldOut is predicted from that fit.
type bandScenario struct {
	name    string
	fit     lawcore.FitRequest
	heldOut []lawcore.Curve
}

// bandScenarios are every development scenario: the five of TestAutoScenarios (the cooldown
// study, the MultiPowerLaw release split and one run of each size), with their validate
// curves held out; the horizons, one cosine run predicting the same cosine run three times as
// long (the release's 25M and 100M, each a scenario of its own) or twice as long (the cooldown
// study's cosine to 0.1 of the peak); and each horizon again with its fit curve thinned to
// about thinnedPoints evenly spaced points. The release's horizons fit what its one-run
// scenarios fit: their finals are those scenarios' cosine_72000 again.
func bandScenarios(t testing.TB) []bandScenario {
	var out []bandScenario
	for _, sc := range scenarios(t) {
		b := bandScenario{name: sc.name, fit: sc.req}
		b.fit.Curves = nil
		for _, c := range sc.req.Curves {
			if c.Role == lawcore.RoleValidate {
				b.heldOut = append(b.heldOut, c)
			} else {
				b.fit.Curves = append(b.fit.Curves, c)
			}
		}
		out = append(out, b)
	}
	var horizons []bandScenario
	for _, size := range []string{"25", "100"} {
		req := testcurves.MPLRequest(t, size, lawcore.FixedLambda(lawcore.DefaultLambda), "")
		h := bandScenario{name: "horizon " + size + "M (cosine 24K to 72K)", fit: req}
		h.fit.Curves = nil
		for _, c := range req.Curves {
			switch c.Name {
			case "cosine_24000":
				c.Role = lawcore.RoleFit
				h.fit.Curves = append(h.fit.Curves, c)
			case "cosine_72000":
				h.heldOut = append(h.heldOut, c)
			}
		}
		horizons = append(horizons, h)
	}
	fit := testcurves.CooldownCosine(t, "cosine-to-0.1-25k")
	fit.Role = lawcore.RoleFit
	horizons = append(horizons, bandScenario{name: "horizon 124M (cosine 25K to 50K)",
		fit:     lawcore.FitRequest{WarmupSteps: 300, Curves: []lawcore.Curve{fit}},
		heldOut: []lawcore.Curve{testcurves.CooldownCosine(t, "cosine-to-0.1-50k")}})
	out = append(out, horizons...)
	for _, h := range horizons {
		thin := h
		thin.name = strings.Replace(h.name, " (", fmt.Sprintf(", %d points (", thinnedPoints), 1)
		thin.fit.Curves = []lawcore.Curve{evenlyThinned(h.fit.Curves[0], thinnedPoints)}
		out = append(out, thin)
	}
	return out
}

// evenlyThinned is the curve with n of its points, evenly spaced by index from its first to
// its last (the curves thinned here are logged at a regular interval, so evenly in steps too).
func evenlyThinned(c lawcore.Curve, n int) lawcore.Curve {
	if len(c.Steps) <= n {
		return c
	}
	steps, loss := make([]float64, n), make([]float64, n)
	for j := range n {
		k := j * (len(c.Steps) - 1) / (n - 1)
		steps[j], loss[j] = c.Steps[k], c.Loss[k]
	}
	c.Steps, c.Loss = steps, loss
	return c
}

// finalMeasure is one held-out curve's last observed point, predicted with its band.
type finalMeasure struct {
	scenario, curve string
	step            float64 // the curve's last observed step
	obs             float64 // the observed loss there
	pred            float64 // the prediction there
	lower, upper    float64 // the band there
}

func (m finalMeasure) absErr() float64    { return math.Abs(m.pred - m.obs) }
func (m finalMeasure) covered() bool      { return m.lower <= m.obs && m.obs <= m.upper }
func (m finalMeasure) halfWidth() float64 { return (m.upper - m.lower) / 2 }

// intervalScore is Gneiting and Raftery's (2007, eq. 43) score of the band as a central
// (1-a) interval, a = 1-bandLevel: its width, plus 2/a times how far the observation falls
// outside it. Lower is better; it rewards a narrow band and punishes a miss in proportion.
func (m finalMeasure) intervalScore() float64 {
	penalty := 2 / (1 - bandLevel)
	s := m.upper - m.lower
	if m.obs < m.lower {
		s += penalty * (m.lower - m.obs)
	}
	if m.obs > m.upper {
		s += penalty * (m.obs - m.upper)
	}
	return s
}

// scenarioMeasure is a scenario's summary: its held-out finals and what auto did.
type scenarioMeasure struct {
	name   string
	finals []finalMeasure
	// choice is auto's pick, or its members with their weights; band describes the band; seconds
	// is the auto fit's wall time (natively, on a shared machine).
	choice, band string
	seconds      float64
	// the summary of finals (from the baseline file, where they are all a scenario row keeps)
	n                                              int
	meanAbsErr, coverage, meanHalfWidth, meanScore float64
}

// summarize sets the summary from finals.
func (s *scenarioMeasure) summarize() {
	s.n = len(s.finals)
	s.meanAbsErr, s.meanHalfWidth, s.meanScore = 0, 0, 0
	covered := 0
	for _, f := range s.finals {
		s.meanAbsErr += f.absErr() / float64(s.n)
		s.meanHalfWidth += f.halfWidth() / float64(s.n)
		s.meanScore += f.intervalScore() / float64(s.n)
		if f.covered() {
			covered++
		}
	}
	s.coverage = float64(covered) / float64(s.n)
}

// scoreOverErr is the mean interval score over the mean |error|.
func (s scenarioMeasure) scoreOverErr() float64 { return s.meanScore / s.meanAbsErr }

// measureScenario fits auto on the scenario's fit curves and predicts each held-out curve.
func measureScenario(t *testing.T, sc bandScenario) scenarioMeasure {
	req := sc.fit
	req.Auto = true
	began := time.Now()
	res, err := auto.Fit(context.Background(), req, nil)
	if err != nil {
		t.Fatal(sc.name, err)
	}
	m := scenarioMeasure{name: sc.name, seconds: time.Since(began).Seconds(), choice: autoChoice(res), band: describeBand(res.Band)}
	for _, c := range sc.heldOut {
		pred, lower, upper := predictLast(t, req, res, c)
		m.finals = append(m.finals, finalMeasure{scenario: sc.name, curve: c.Name, step: c.Steps[len(c.Steps)-1],
			obs: c.Loss[len(c.Loss)-1], pred: pred, lower: lower, upper: upper})
	}
	m.summarize()
	// what calibrated the band: the held-out error of each fold of what predicts (the heaviest
	// member), to tell a band widened by one fold's degenerate fit
	for _, c := range res.Auto.Candidates {
		if c.Label == res.Auto.Chosen.Label {
			folds := make([]string, len(c.Folds))
			for i, e := range c.Folds {
				folds[i] = fmt.Sprintf("%s %.2f%%", res.Auto.Folds[i], 100*e)
			}
			t.Logf("%s: folds of %s: %s", sc.name, c.Label, strings.Join(folds, "; "))
		}
	}
	// and what the fit says of itself (a parameter on its bound marks a degenerate fit)
	var warned []string
	for _, w := range res.Warnings {
		warned = append(warned, strings.TrimSuffix(w.Kind+" "+w.Param, " "))
	}
	t.Logf("%s: the fit's parameters %v; warnings %v", sc.name, res.Params, warned)
	return m
}

// predictLast predicts the curve's schedule with the fit, as the page predicts a schedule
// (the members, or the law and its parameters, and the band), at the curve's last observed
// step: the prediction and the band's bounds there.
func predictLast(t *testing.T, req lawcore.FitRequest, res *lawcore.FitResult, c lawcore.Curve) (pred, lower, upper float64) {
	t.Helper()
	if res.Band == nil {
		t.Fatalf("%s: the auto fit gives no band", c.Name)
	}
	last := c.Steps[len(c.Steps)-1]
	pr, err := lawcore.Predict(lawcore.PredictRequest{Law: res.Law, Params: res.Params, WarmupSteps: req.WarmupSteps,
		WarmupConvention: string(res.Settings.WarmupConvention), Band: res.Band, Members: res.Members,
		Curves: []lawcore.PredictCurve{{Name: c.Name, Schedule: c.Schedule, LR: c.LR, Size: c.Size, Steps: []float64{last}}}})
	if err != nil {
		t.Fatal(c.Name, err)
	}
	p := pr[0]
	if len(p.Steps) != 1 || p.Steps[0] != last {
		t.Fatalf("%s: predicted at steps %v, asked for %v", c.Name, p.Steps, last)
	}
	return p.Loss[0], p.Lower[0], p.Upper[0]
}

// autoChoice is what auto predicts with: the one candidate chosen, or each member with its
// weight.
func autoChoice(res *lawcore.FitResult) string {
	if len(res.Members) < 2 {
		return res.Auto.Chosen.Label
	}
	parts := make([]string, len(res.Members))
	for i, m := range res.Members {
		parts[i] = fmt.Sprintf("%.0f%% %s", 100*m.Weight, m.Label)
	}
	return strings.Join(parts, " + ")
}

// describeBand says the band in words: its discrepancy relative to the prediction at distance
// 0 and 1 beyond the fitted data, the folds it was learnt from, whether it has replicates.
func describeBand(b *lawcore.Band) string {
	if b == nil {
		return "none"
	}
	s := fmt.Sprintf("±%.3f%% at d 0, ±%.3f%% at d 1, %d folds", 100*b.HalfWidth(0), 100*b.HalfWidth(1), b.Folds)
	if len(b.Replicates) > 0 {
		s += fmt.Sprintf(", %d×%d replicates", len(b.Replicates), len(b.Replicates[0].Sets))
	}
	return s
}

// checkRoles fits the scenario again with its held-out curves in the request as role
// "validate" (which auto never sees) and reports whether the band and the predictions at the
// held-out finals are the same as from the fit curves alone.
func checkRoles(t *testing.T, sc bandScenario, alone scenarioMeasure) {
	req := sc.fit
	req.Auto = true
	req.Curves = slices.Clone(req.Curves)
	for _, c := range sc.heldOut {
		c.Role = lawcore.RoleValidate
		req.Curves = append(req.Curves, c)
	}
	res, err := auto.Fit(context.Background(), req, nil)
	if err != nil {
		t.Fatal(sc.name, err)
	}
	worst := 0.0
	for i, c := range sc.heldOut {
		pred, lower, upper := predictLast(t, req, res, c)
		f := alone.finals[i]
		worst = max(worst, math.Abs(pred-f.pred), math.Abs(lower-f.lower), math.Abs(upper-f.upper))
	}
	same := "the same"
	if describeBand(res.Band) != alone.band || autoChoice(res) != alone.choice || worst != 0 {
		same = "DIFFERENT"
	}
	t.Logf("roles check, %s: with the held-out curves as validate curves the choice, band and finals are %s (largest difference at a final %.3g; band %s, choice %s)",
		sc.name, same, worst, describeBand(res.Band), autoChoice(res))
}

// TestBandScenarios measures the band on every development scenario (see bandScenarios) and
// writes the table of scenario x measure at the held-out finals: mean |error|, the band's
// coverage, mean half-width, mean interval score and its ratio to the mean |error|; auto's
// choice, its band and its fit's wall time; the pooled coverage and the targets. It
// is a measurement, not a test: it asserts nothing, and runs only when BAND_TABLE names the
// file to write the table to (scripts/auto-table.sh --bands). Also read:
//
//	BAND_TSV       write this run's figures there, in the baseline's format
//	BAND_CURVES    write the table of every held-out final there
//	BAND_BASELINE  a baseline (scripts/band-baseline.tsv): the table shows it as "before"
//	BAND_COMMIT    what the run measured, for the header of BAND_TSV
//	BAND_CHECK_ROLES=1  fit each scenario again with its held-out curves as validate curves
//	               and log whether anything differs
//	BAND_ONLY      measure only the scenarios whose name contains this
func TestBandScenarios(t *testing.T) {
	tablePath := os.Getenv("BAND_TABLE")
	if tablePath == "" {
		t.Skip("a measurement: set BAND_TABLE=path (scripts/auto-table.sh --bands)")
	}
	if testing.Short() {
		t.Skip("fits auto on every scenario")
	}
	var before map[string]scenarioMeasure
	if path := os.Getenv("BAND_BASELINE"); path != "" {
		var err error
		if before, err = readBandTSV(path); err != nil {
			t.Fatal(err)
		}
	}
	var after []scenarioMeasure
	for _, sc := range bandScenarios(t) {
		if !strings.Contains(sc.name, os.Getenv("BAND_ONLY")) {
			continue
		}
		m := measureScenario(t, sc)
		t.Logf("%s: %d held out, mean |error| %.5f, coverage %.2f, auto %.1f s: %s; band %s", m.name, m.n, m.meanAbsErr, m.coverage, m.seconds, m.choice, m.band)
		if os.Getenv("BAND_CHECK_ROLES") == "1" {
			checkRoles(t, sc, m)
		}
		after = append(after, m)
	}
	table := bandTable(after, before)
	t.Logf("\n%s", table)
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(tablePath, table)
	if path := os.Getenv("BAND_TSV"); path != "" {
		write(path, bandTSV(after, os.Getenv("BAND_COMMIT")))
	}
	if path := os.Getenv("BAND_CURVES"); path != "" {
		write(path, curvesTable(after, before))
	}
}

// bandTable is the Markdown table of the scenarios (before → after where a baseline has the
// scenario), the auto choices and the targets.
func bandTable(after []scenarioMeasure, before map[string]scenarioMeasure) string {
	var b strings.Builder
	// cell is "after", or "before → after" when the baseline has the scenario
	cell := func(name, format string, get func(scenarioMeasure) float64, m scenarioMeasure) string {
		if old, ok := before[name]; ok {
			return fmt.Sprintf(format+" → "+format, get(old), get(m))
		}
		return fmt.Sprintf(format, get(m))
	}
	rows := [][]string{{"scenario", "n", "mean abs error", "coverage", "mean half-width", "mean interval score", "score / abs error"}}
	for _, m := range after {
		rows = append(rows, []string{m.name, strconv.Itoa(m.n),
			cell(m.name, "%.5f", func(s scenarioMeasure) float64 { return s.meanAbsErr }, m),
			cell(m.name, "%.2f", func(s scenarioMeasure) float64 { return s.coverage }, m),
			cell(m.name, "%.5f", func(s scenarioMeasure) float64 { return s.meanHalfWidth }, m),
			cell(m.name, "%.5f", func(s scenarioMeasure) float64 { return s.meanScore }, m),
			cell(m.name, "%.1f", scenarioMeasure.scoreOverErr, m)})
	}
	if before != nil {
		b.WriteString("Each cell: before (the baseline) → after (this run).\n\n")
	}
	b.WriteString(markdownTable(rows))
	b.WriteString("\n")
	rows = [][]string{{"scenario", "auto's choice", "band", "auto fit (s)"}}
	for _, m := range after {
		secs := fmt.Sprintf("%.1f", m.seconds)
		if old, ok := before[m.name]; ok {
			secs = fmt.Sprintf("%.1f → %.1f", old.seconds, m.seconds)
			if old.choice != m.choice {
				m.choice = old.choice + " → " + m.choice
			}
			if old.band != m.band {
				m.band = old.band + " → " + m.band
			}
		}
		rows = append(rows, []string{m.name, m.choice, m.band, secs})
	}
	b.WriteString(markdownTable(rows))
	b.WriteString("\n")
	if before != nil {
		var old []scenarioMeasure
		for _, m := range after {
			if o, ok := before[m.name]; ok {
				old = append(old, o)
			}
		}
		b.WriteString("Targets, before:\n\n" + targets(old, nil) + "\nTargets, after:\n\n" + targets(after, before))
	} else {
		b.WriteString("Targets:\n\n" + targets(after, nil))
	}
	return b.String()
}

// targets says how the scenarios meet the targets, and (with a baseline) whether
// each scenario's point predictions are no worse than before.
func targets(ms []scenarioMeasure, before map[string]scenarioMeasure) string {
	var b strings.Builder
	held, in := 0, 0
	var low, wide, worse []string
	for _, m := range ms {
		held += m.n
		in += int(math.Round(m.coverage * float64(m.n)))
		if m.coverage < scenarioCoverageLow {
			low = append(low, fmt.Sprintf("%s %.2f", m.name, m.coverage))
		}
		if !(m.meanScore <= scoreOverErrorHigh*m.meanAbsErr) {
			wide = append(wide, fmt.Sprintf("%s %.1f", m.name, m.scoreOverErr()))
		}
		if old, ok := before[m.name]; ok && m.meanAbsErr > old.meanAbsErr*(1+sameRelative) {
			worse = append(worse, fmt.Sprintf("%s %+.1f%%", m.name, 100*(m.meanAbsErr/old.meanAbsErr-1)))
		}
	}
	pooled := float64(in) / float64(held)
	// the same final predicted by the same fit in two scenarios (an unthinned horizon's is one
	// of its one-run scenario's) counts once here
	distinct, distinctIn := map[finalMeasure]bool{}, 0
	for _, m := range ms {
		for _, f := range m.finals {
			f.scenario = ""
			if !distinct[f] && f.covered() {
				distinctIn++
			}
			distinct[f] = true
		}
	}
	verdict := func(ok bool, failures []string) string {
		if ok && len(failures) == 0 {
			return "yes"
		}
		if len(failures) == 0 {
			return "NO"
		}
		return "NO: " + strings.Join(failures, "; ")
	}
	fmt.Fprintf(&b, "- pooled coverage %.3f (%d of %d held-out finals) within [%.2f, %.2f]: %s\n", pooled, in, held,
		pooledCoverageLow, pooledCoverageHigh, verdict(pooled >= pooledCoverageLow && pooled <= pooledCoverageHigh, nil))
	if len(distinct) < held {
		fmt.Fprintf(&b, "  (over the %d distinct finals, each fit's prediction of a curve counted once: %.3f)\n", len(distinct), float64(distinctIn)/float64(len(distinct)))
	}
	fmt.Fprintf(&b, "  (a calibrated %.0f%% band covers %d or more of %d independent finals with probability %.3f)\n", 100*bandLevel, in, held, binomialTail(held, in, bandLevel))
	fmt.Fprintf(&b, "- no scenario's coverage below %.2f: %s\n", scenarioCoverageLow, verdict(true, low))
	fmt.Fprintf(&b, "- every scenario's mean interval score at most %g × its mean |error|: %s\n", scoreOverErrorHigh, verdict(true, wide))
	// what an honest band could do: the chance that one exactly as wide as calibrated normal
	// errors need meets this, on each scenario's number of finals (taken as independent; the
	// finals of one fit err together, which makes a scenario more like one final)
	all := 1.0
	var each []string
	chance := map[int]float64{}
	for _, m := range ms {
		p, ok := chance[m.n]
		if !ok {
			p = calibratedRatioChance(m.n, scoreOverErrorHigh)
			chance[m.n] = p
			each = append(each, fmt.Sprintf("%.2f with %d", p, m.n))
		}
		all *= p
	}
	if len(ms) > 0 {
		fmt.Fprintf(&b, "  (a band exactly as wide as calibrated normal errors need meets it on a scenario of n independent finals with probability %s;\n"+
			"  on all %d scenarios at once %.3f: the target is met by luck, not by an honest band)\n", strings.Join(each, ", "), len(ms), all)
	}
	if before != nil {
		fmt.Fprintf(&b, "- every scenario's mean |error| no worse than before: %s\n", verdict(true, worse))
	}
	return b.String()
}

// binomialTail is the probability of at least k successes in n trials of probability p.
func binomialTail(n, k int, p float64) float64 {
	tail := 0.0
	for j := k; j <= n; j++ {
		lg, _ := math.Lgamma(float64(n + 1))
		lj, _ := math.Lgamma(float64(j + 1))
		lr, _ := math.Lgamma(float64(n - j + 1))
		tail += math.Exp(lg - lj - lr + float64(j)*math.Log(p) + float64(n-j)*math.Log1p(-p))
	}
	return tail
}

// calibratedRatioChance is the probability that the central 90% band of calibrated normal
// errors, over n independent finals, has a mean interval score at most ratio times their mean
// |error|: by simulation (200,000 draws, a fixed seed, so about ±0.002), as the mean of n
// such ratios has no closed form beyond n = 1 (see TestCalibratedRatioChance).
func calibratedRatioChance(n int, ratio float64) float64 {
	const draws = 200_000
	z := math.Sqrt2 * math.Erfinv(bandLevel) // the half-width in standard deviations
	r := rand.New(rand.NewPCG(44, uint64(n)))
	met := 0
	for range draws {
		score, absErr := 0.0, 0.0
		for range n {
			f := finalMeasure{obs: r.NormFloat64(), lower: -z, upper: z} // predicted 0, σ 1
			score += f.intervalScore()
			absErr += f.absErr()
		}
		if score <= ratio*absErr {
			met++
		}
	}
	return float64(met) / draws
}

// curvesTable is the Markdown table of every held-out final (with its |error| and interval
// score before, where the baseline has the curve).
func curvesTable(after []scenarioMeasure, before map[string]scenarioMeasure) string {
	head := []string{"scenario", "curve", "step", "obs", "pred", "lower", "upper", "abs error", "covered", "half-width (rel.)", "interval score"}
	if before != nil {
		head = append(head, "abs error before", "score before")
	}
	rows := [][]string{head}
	for _, m := range after {
		for _, f := range m.finals {
			row := []string{f.scenario, f.curve, fmt.Sprintf("%.0f", f.step), fmt.Sprintf("%.4f", f.obs), fmt.Sprintf("%.4f", f.pred),
				fmt.Sprintf("%.4f", f.lower), fmt.Sprintf("%.4f", f.upper), fmt.Sprintf("%.5f", f.absErr()), yesNo(f.covered()),
				fmt.Sprintf("%.5f (%.2f%%)", f.halfWidth(), 100*f.halfWidth()/f.pred), fmt.Sprintf("%.5f", f.intervalScore())}
			if before != nil {
				i := slices.IndexFunc(before[m.name].finals, func(o finalMeasure) bool { return o.curve == f.curve })
				if i < 0 {
					row = append(row, "–", "–")
				} else {
					o := before[m.name].finals[i]
					row = append(row, fmt.Sprintf("%.5f", o.absErr()), fmt.Sprintf("%.5f", o.intervalScore()))
				}
			}
			rows = append(rows, row)
		}
	}
	return markdownTable(rows)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

// markdownTable is rows (the first the header) as a Markdown table, its columns padded to
// line up in a terminal.
func markdownTable(rows [][]string) string {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		for i, c := range cells {
			b.WriteString("| " + c + strings.Repeat(" ", widths[i]-len([]rune(c))) + " ")
		}
		b.WriteString("|\n")
	}
	line(rows[0])
	sep := make([]string, len(widths))
	for i, w := range widths {
		sep[i] = strings.Repeat("-", w)
	}
	line(sep)
	for _, r := range rows[1:] {
		line(r)
	}
	return b.String()
}

// The baseline's format (BAND_TSV writes it, BAND_BASELINE reads it): tab-separated, lines
// starting with # are comments; two sections, each under its own header line: the scenarios
// (bandScenarioColumns), then every held-out final (bandCurveColumns). The scenario rows are
// derived from the curve rows but for auto's choice, its band and its time.
var (
	bandScenarioColumns = []string{"scenario", "n", "mean_abs_err", "coverage", "mean_half_width", "mean_interval_score", "score_over_err", "auto_seconds", "auto_choice", "band"}
	bandCurveColumns    = []string{"scenario", "curve", "step", "obs", "pred", "lower", "upper", "abs_err", "covered", "half_width", "interval_score"}
)

// bandTSV is the scenarios' figures in the baseline's format, headed by what was measured.
func bandTSV(ms []scenarioMeasure, measured string) string {
	var b strings.Builder
	b.WriteString("# The prediction band at each held-out curve's final loss on every development scenario\n")
	b.WriteString("# (lawcore/laws/band_table_test.go, TestBandScenarios; scripts/auto-table.sh --bands).\n")
	if measured != "" {
		b.WriteString("# Measured at: " + measured + "\n")
	}
	// every digit, so that a baseline read back is the run it was written from
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	b.WriteString(strings.Join(bandScenarioColumns, "\t") + "\n")
	for _, m := range ms {
		b.WriteString(strings.Join([]string{m.name, strconv.Itoa(m.n), g(m.meanAbsErr), g(m.coverage), g(m.meanHalfWidth),
			g(m.meanScore), g(m.scoreOverErr()), fmt.Sprintf("%.2f", m.seconds), m.choice, m.band}, "\t") + "\n")
	}
	b.WriteString(strings.Join(bandCurveColumns, "\t") + "\n")
	for _, m := range ms {
		for _, f := range m.finals {
			b.WriteString(strings.Join([]string{f.scenario, f.curve, g(f.step), g(f.obs), g(f.pred), g(f.lower), g(f.upper),
				g(f.absErr()), strconv.FormatBool(f.covered()), g(f.halfWidth()), g(f.intervalScore())}, "\t") + "\n")
		}
	}
	return b.String()
}

// readBandTSV reads a baseline: each scenario's row and its held-out finals, by scenario name.
func readBandTSV(path string) (map[string]scenarioMeasure, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]scenarioMeasure{}
	var header []string
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cells := strings.Split(text, "\t")
		if cells[0] == "scenario" {
			header = cells
			continue
		}
		if len(cells) != len(header) {
			return nil, fmt.Errorf("%s:%d: %d cells under a header of %d", path, line, len(cells), len(header))
		}
		row := map[string]string{}
		for i, h := range header {
			row[h] = cells[i]
		}
		num := func(col string) float64 {
			v, e := strconv.ParseFloat(row[col], 64)
			if e != nil && err == nil {
				err = fmt.Errorf("%s:%d: column %s: %v", path, line, col, e)
			}
			return v
		}
		m := out[row["scenario"]]
		m.name = row["scenario"]
		if _, ok := row["curve"]; ok {
			m.finals = append(m.finals, finalMeasure{scenario: m.name, curve: row["curve"], step: num("step"), obs: num("obs"),
				pred: num("pred"), lower: num("lower"), upper: num("upper")})
		} else {
			m.n, m.meanAbsErr, m.coverage = int(num("n")), num("mean_abs_err"), num("coverage")
			m.meanHalfWidth, m.meanScore, m.seconds = num("mean_half_width"), num("mean_interval_score"), num("auto_seconds")
			m.choice, m.band = row["auto_choice"], row["band"]
		}
		if err != nil {
			return nil, err
		}
		out[m.name] = m
	}
	return out, sc.Err()
}

// TestCalibratedRatioChance checks the simulation against what is known in closed form. One
// final: a covered final (|e| ≤ z) scores 2z, an uncovered one 2z + 20(|e| − z), so the ratio
// is at most r exactly when 2z/r ≤ |e| ≤ 18z/(20 − r), which a standard normal |e| does with
// probability 2[Φ(18z/(20 − r)) − Φ(2z/r)]. Many finals: the mean score over the mean |error|
// tends to E[score]/E|e| ≈ 5.17 (the 5.2), so a ratio of 6 is met almost surely.
func TestCalibratedRatioChance(t *testing.T) {
	z := math.Sqrt2 * math.Erfinv(bandLevel)
	phi := func(x float64) float64 { return (1 + math.Erf(x/math.Sqrt2)) / 2 }
	for _, r := range []float64{4, 6, 10} {
		want := 2 * (phi(18*z/(20-r)) - phi(2*z/r))
		if got := calibratedRatioChance(1, r); math.Abs(got-want) > 0.005 {
			t.Errorf("one final, ratio %g: simulated %.4f, closed form %.4f", r, got, want)
		}
	}
	if got := calibratedRatioChance(300, scoreOverErrorHigh); got < 0.99 {
		t.Errorf("300 finals: simulated %.4f, want almost 1 (the ratio tends to 5.17)", got)
	}
}

// TestBinomialTail checks the tail against sums done by hand: P(≥ 9 of 10 at 0.9) is
// 10·0.9⁹·0.1 + 0.9¹⁰, and every tail from 0 is 1.
func TestBinomialTail(t *testing.T) {
	if got, want := binomialTail(10, 9, 0.9), 10*math.Pow(0.9, 9)*0.1+math.Pow(0.9, 10); math.Abs(got-want) > 1e-12 {
		t.Errorf("P(≥9 of 10) = %.15f, want %.15f", got, want)
	}
	if got := binomialTail(45, 0, 0.9); math.Abs(got-1) > 1e-12 {
		t.Errorf("P(≥0 of 45) = %.15f, want 1", got)
	}
}
