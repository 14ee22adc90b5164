package importer

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// resolve applies the choice to the series read: it picks the loss column and the runs, or
// returns an Ambiguity when the file holds several and the choice does not say which, and
// turns the chosen series into curves.
func (set *fileReader) resolve() (*Result, error) {
	for _, s := range set.series {
		s.settle()
	}
	imp := &Result{Name: set.name, Format: set.format, Curves: []*Curve{}, Notes: append([]string{}, set.notes...)}
	ch := set.choice
	lossMetrics, lrMetrics := set.metrics()
	bestLR := func() string {
		best := ""
		for _, m := range lrMetrics {
			if best == "" || lrPreference(m) < lrPreference(best) {
				best = m
			}
		}
		return best
	}

	metric, asLR := "", ch.AsLR
	var columnOptions []Option
	columnMessage := ""
	var agreed Agreement // the column of a file with several candidates, and why
	switch {
	case strings.TrimSpace(ch.Column) != "":
		m, err := set.findMetric(ch.Column)
		if err != nil {
			return nil, err
		}
		metric = m
	case asLR && len(lrMetrics) > 0:
		metric = bestLR()
	case len(lossMetrics) == 1:
		metric = lossMetrics[0]
	case len(lossMetrics) > 1:
		opts := make([]Option, len(lossMetrics))
		for i, m := range lossMetrics {
			opts[i] = set.columnOption(m)
		}
		agreed = Agree([]FileColumns{{Name: set.where, Candidates: opts}})
		if !agreed.Ask {
			// one real series beside summaries: no question
			metric = agreed.Column
			break
		}
		columnMessage = fmt.Sprintf("%s has %d columns that may be the loss: choose one", set.where, len(lossMetrics))
		columnOptions = agreed.Columns
	case len(lrMetrics) > 0:
		metric, asLR = bestLR(), true
		if set.inFolder {
			break
		}
		imp.Notes = append(imp.Notes, fmt.Sprintf("the file holds learning rates (%q) and no loss: a learning-rate file, to merge with a loss file on step", metric))
	case len(set.others) > 0:
		columnMessage = fmt.Sprintf("no column of %s is named like a loss (loss, val_loss, eval_loss, lm loss, ...): choose the column holding the loss", set.where)
		for _, m := range set.others {
			columnOptions = append(columnOptions, Option{Name: m, Kind: columnKind(m)})
		}
	default:
		if set.noLoss != nil {
			return nil, set.noLoss
		}
		return nil, &input.Error{Where: set.where, Msg: "found no loss values"}
	}

	// The runs: those of the chosen column, or of every candidate column while it is open.
	inScope := func(s *valueSeries) bool {
		if metric != "" {
			return s.metric == metric
		}
		return !s.isLR
	}
	var runs []string
	hasRun := map[string]bool{}
	for _, s := range set.series {
		if inScope(s) && !hasRun[s.run] {
			hasRun[s.run] = true
			runs = append(runs, s.run)
		}
	}
	var chosenRuns []string
	runsOpen := false
	if len(ch.Runs) > 0 {
		picked := map[string]bool{}
		for _, r := range ch.Runs {
			if picked[r] {
				continue
			}
			if !hasRun[r] {
				if len(runs) == 1 && runs[0] == "" {
					return nil, input.Errorf(set.where, "", "the file holds one run: no run %q", r)
				}
				return nil, input.Errorf(set.where, "", "no run %q: the runs are %s", r, quoteNames(runs))
			}
			picked[r] = true
			chosenRuns = append(chosenRuns, r)
		}
	} else if len(runs) > 1 && !set.inFolder {
		runsOpen = true
	} else {
		chosenRuns = runs
	}

	if columnOptions != nil || runsOpen {
		amb := &Ambiguity{}
		var msgs []string
		if columnOptions != nil {
			amb.Columns, msgs = columnOptions, append(msgs, columnMessage)
			if agreed.Ask {
				amb.Default, amb.Reason = agreed.Column, agreed.Reason
			}
		}
		if runsOpen {
			msgs = append(msgs, fmt.Sprintf("%s holds %d runs: choose the runs to import (one curve each)", set.where, len(runs)))
			for _, r := range runs {
				amb.Runs = append(amb.Runs, set.runOption(r, inScope))
			}
		}
		amb.Message = strings.Join(msgs, "; ")
		imp.Ambiguity = amb
		if columnOptions == nil && metric != "" && !asLR {
			imp.Loss = set.lossChoice(metric, lossMetrics, agreed)
		}
		return imp, nil
	}
	if !asLR && metric != "" {
		imp.Loss = set.lossChoice(metric, lossMetrics, agreed)
	}

	for _, run := range chosenRuns {
		s := set.byKey[[2]string{run, metric}]
		if s == nil {
			return nil, input.Errorf(set.where, "", "run %q has no values of %q", run, metric)
		}
		c, err := set.curve(s, asLR, &imp.Notes)
		if err != nil {
			return nil, err
		}
		imp.Curves = append(imp.Curves, c)
	}
	return imp, nil
}

// lossChoice says which column was read as the loss (metric), why (agreed, when the file had
// several candidates), and the file's candidates.
func (set *fileReader) lossChoice(metric string, lossMetrics []string, agreed Agreement) *LossChoice {
	lc := &LossChoice{Column: metric, Candidates: agreed.Columns}
	if agreed.Column == metric {
		lc.Reason = agreed.Reason
	}
	if len(lc.Candidates) == 0 {
		names := lossMetrics
		if !slices.Contains(names, metric) {
			names = append([]string{metric}, names...)
		}
		opts := make([]Option, len(names))
		for i, m := range names {
			opts[i] = set.columnOption(m)
		}
		lc.Candidates = markSummaries(opts)
	}
	return lc
}

// metrics lists the columns read, in order: the candidate losses, and the learning rates.
func (set *fileReader) metrics() (loss, lr []string) {
	seen := map[string]bool{}
	for _, s := range set.series {
		if seen[s.metric] {
			continue
		}
		seen[s.metric] = true
		if s.isLR {
			lr = append(lr, s.metric)
		} else {
			loss = append(loss, s.metric)
		}
	}
	return loss, lr
}

// findMetric finds the column the choice names: exactly, else ignoring case.
func (set *fileReader) findMetric(name string) (string, error) {
	name = strings.TrimSpace(name)
	for _, s := range set.series {
		if s.metric == name {
			return s.metric, nil
		}
	}
	for _, s := range set.series {
		if strings.EqualFold(s.metric, name) {
			return s.metric, nil
		}
	}
	var all []string
	seen := map[string]bool{}
	for _, s := range set.series {
		if !seen[s.metric] {
			seen[s.metric] = true
			all = append(all, s.metric)
		}
	}
	for _, o := range append(append([]string(nil), set.columns...), set.others...) {
		if strings.EqualFold(o, name) {
			return "", input.Errorf(set.where, "", "column %q has no values", o)
		}
		if !seen[o] {
			all = append(all, o)
		}
	}
	if len(all) == 0 {
		return "", input.Errorf(set.where, "", "no column %q", name)
	}
	return "", input.Errorf(set.where, "", "no column %q: the file has %s", name, quoteNames(all))
}

// columnOption summarises a candidate loss column over the chosen runs (all runs when none
// are chosen).
func (set *fileReader) columnOption(metric string) Option {
	o := Option{Name: metric, Kind: columnKind(metric)}
	chosen := map[string]bool{}
	for _, r := range set.choice.Runs {
		chosen[r] = true
	}
	for _, s := range set.series {
		if s.metric == metric && (len(chosen) == 0 || chosen[s.run]) {
			o.add(s)
		}
	}
	return o
}

// runOption summarises a run: its series of the chosen column, or its longest candidate one.
func (set *fileReader) runOption(run string, inScope func(*valueSeries) bool) Option {
	o := Option{Name: run}
	var best *valueSeries
	for _, s := range set.series {
		if s.run == run && inScope(s) && (best == nil || len(s.steps) > len(best.steps)) {
			best = s
		}
	}
	if best != nil {
		o.add(best)
	}
	return o
}

// add counts the values of s into the option.
func (o *Option) add(s *valueSeries) {
	n := len(s.steps)
	if n == 0 {
		return
	}
	if o.Points == 0 || s.steps[0] < o.FirstStep {
		o.FirstStep = s.steps[0]
	}
	if o.Points == 0 || s.steps[n-1] > o.LastStep {
		o.LastStep = s.steps[n-1]
	}
	o.Points += n
}

// curve turns a chosen series into a curve: checks its values (a loss positive, a learning
// rate not negative), and gives it the learning rates of its run when the file has them.
func (set *fileReader) curve(s *valueSeries, asLR bool, notes *[]string) (*Curve, error) {
	if s.err != nil {
		return nil, s.err
	}
	c := &Curve{Name: s.run, File: set.name, Run: s.run, Metric: s.metric,
		Source: Source{Step: set.stepSource}}
	switch {
	case c.Name != "":
	case set.nameByMetric:
		c.Name = s.metric
	default:
		c.Name = fileStem(set.name)
	}
	steps, values, err := set.checked(s, asLR, notes)
	if err != nil {
		return nil, err
	}
	c.Steps, c.Points = steps, len(steps)
	if asLR {
		c.LR, c.HasLR, c.Source.LR = values, true, s.source
		return c, nil
	}
	c.Loss, c.HasLoss, c.Source.Loss = values, true, s.source

	// The run's learning rates, if the file has them.
	var lr *valueSeries
	for _, o := range set.series {
		if o != s && o.isLR && o.run == s.run && (lr == nil || lrPreference(o.metric) < lrPreference(lr.metric)) {
			lr = o
		}
	}
	if lr == nil {
		return c, nil
	}
	if lr.err != nil {
		if set.strict {
			return nil, lr.err
		}
		*notes = append(*notes, fmt.Sprintf("the learning rates %s are left out: %v", lr.label(), lr.err))
		return c, nil
	}
	if len(lr.steps) == 0 {
		return c, nil
	}
	lrSteps, lrValues, err := set.checked(lr, true, notes)
	if err != nil {
		if set.strict {
			return nil, err
		}
		*notes = append(*notes, fmt.Sprintf("the learning rates %s are left out: %v", lr.label(), err))
		return c, nil
	}
	if slices.Max(lrValues) == 0 {
		// no schedule trains at zero: a column that never logged the rate (an optimizer's
		// param group read as the LR, say), not the run's schedule
		*notes = append(*notes, fmt.Sprintf("the learning rates %s are left out: every one is 0; give the run's schedule", lr.label()))
		return c, nil
	}
	lrSteps, lrValues, reached := reachLoss(c.Steps, lrSteps, lrValues)
	if reached != "" {
		*notes = append(*notes, fmt.Sprintf("%s: %s", lr.label(), reached))
	}
	at, exact, ok := interpolateAt(c.Steps, lrSteps, lrValues)
	if !ok {
		if lo, hi, most := lrSpan(c.Steps, lrSteps); most {
			*notes = append(*notes, trimNote(lr.label(), s.label(), c.Steps, lrSteps, lo, hi))
			c.Steps, c.Loss = c.Steps[lo:hi], c.Loss[lo:hi]
			c.Points = len(c.Steps)
			at, exact, ok = interpolateAt(c.Steps, lrSteps, lrValues)
		}
	}
	if !ok {
		*notes = append(*notes, fmt.Sprintf("the learning rates %s (steps %v to %v) do not cover the steps of %s (%v to %v): the curve has no learning rate; merge an LR file",
			lr.label(), lrSteps[0], lrSteps[len(lrSteps)-1], s.label(), c.Steps[0], c.Steps[len(c.Steps)-1]))
		return c, nil
	}
	if exact < len(c.Steps) {
		*notes = append(*notes, fmt.Sprintf("%s: the learning rate at %s of %s interpolated linearly between the logged ones",
			lr.label(), plural(len(c.Steps)-exact, "steps", "step"), s.label()))
	}
	c.LR, c.HasLR, c.Source.LR = at, true, lr.source
	c.keepLogged(lrSteps, lrValues)
	return c, nil
}

// checked returns the values of s that are valid as a loss (positive) or as a learning rate
// (not negative). Strict formats report the first invalid value as an error; the others skip
// them with a note. It also notes the values skipped or replaced while reading.
func (set *fileReader) checked(s *valueSeries, asLR bool, notes *[]string) ([]float64, []float64, error) {
	if s.replaced > 0 {
		are := "are"
		if s.replaced == 1 {
			are = "is"
		}
		*notes = append(*notes, fmt.Sprintf("%s: the run restarted at step %v (%s, after step %v): the %s the earlier run logged from there on %s dropped, as TensorBoard drops them",
			s.label(), s.restart.step, set.atIn(s.restart.where, s.restart.line), s.restart.after, plural(s.replaced, "values", "value"), are))
	}
	if s.repeated > 0 && len(s.steps) == 1 {
		*notes = append(*notes, fmt.Sprintf("%s: all %d values were logged at step %v (logged without a step?): only the last is kept", s.label(), s.repeated+1, s.steps[0]))
	} else if s.repeated > 0 {
		*notes = append(*notes, fmt.Sprintf("%s: %s logged again (the first at %s: step %v after step %v): kept the last value of each step",
			s.label(), plural(s.repeated, "steps were", "step was"), set.atIn(s.repeat.where, s.repeat.line), s.repeat.step, s.repeat.after))
	}
	if s.unordered > 0 {
		*notes = append(*notes, fmt.Sprintf("%s: %s logged after later steps (the first at %s: step %v after step %v): put in step order",
			s.label(), plural(s.unordered, "steps were", "step was"), set.atIn(s.late.where, s.late.line), s.late.step, s.late.after))
	}
	if b := set.blanks[[2]string{s.run, s.metric}]; b != nil && !asLR {
		*notes = append(*notes, fmt.Sprintf("%s: no value on %s (the first at %s): those steps are left out",
			s.label(), plural(b.rows, "rows", "row"), set.atIn(s.file, b.line)))
	}
	if s.nonFinite > 0 {
		*notes = append(*notes, fmt.Sprintf("%s: skipped %s not finite (the first at %s)",
			s.label(), plural(s.nonFinite, "values that are", "value that is"), set.atIn(s.nonFiniteWhere, s.nonFiniteLine)))
	}
	steps := make([]float64, 0, len(s.steps))
	values := make([]float64, 0, len(s.values))
	kept := make([]int, 0, len(s.values)) // the line of each value kept
	bad, badLine := 0, 0
	for i, v := range s.values {
		ok := v > 0
		if asLR {
			ok = v >= 0
		}
		if !ok {
			if set.strict {
				at := set.at(int(s.lines[i]), s.field)
				if asLR {
					return nil, nil, input.Errorf(set.where, at, "a learning rate cannot be negative, got %v", v)
				}
				return nil, nil, input.Errorf(set.where, at, "the loss must be positive, got %v", v)
			}
			if bad == 0 {
				badLine = int(s.lines[i])
			}
			bad++
			continue
		}
		steps = append(steps, s.steps[i])
		values = append(values, v)
		kept = append(kept, int(s.lines[i]))
	}
	if bad > 0 {
		what := plural(bad, "values that are not positive", "value that is not positive")
		if asLR {
			what = plural(bad, "negative learning rates", "negative learning rate")
		}
		*notes = append(*notes, fmt.Sprintf("%s: skipped %s (the first at %s %d)", s.label(), what, set.unitName(), badLine))
	}
	if len(steps) == 0 {
		kind := "loss values (positive numbers)"
		if asLR {
			kind = "learning rates"
		}
		return nil, nil, input.Errorf(set.where, "", "%s has no %s", s.label(), kind)
	}
	if n, first, median := farAbove(values); n > 0 {
		*notes = append(*notes, fmt.Sprintf("%s: %s more than %d times the median (%.3g), the first %.3g at %s %d: a typo or a logging glitch? kept as logged",
			s.label(), plural(n, "values", "value"), outlierFactor, median, values[first], set.unitName(), kept[first]))
	}
	return steps, values, nil
}

// outlierFactor is how many times a series' median a value must be to be named: no schedule
// or loss curve spans a factor of 1,000 around its median (a multi-step schedule's levels of
// 1, 0.1 and 0.01 span 100), where a typo's exponent (3e2 for 3e-4) or a logging glitch
// (a loss of 1e308) does.
const outlierFactor = 1000

// farAbove counts the values above outlierFactor times their median, and returns the index
// of the first and the median (of at most 10,001 evenly spaced values: a million-point log
// is not sorted whole for it).
func farAbove(values []float64) (n, first int, median float64) {
	stride := max(1, (len(values)+10000)/10001)
	var sample []float64
	for i := 0; i < len(values); i += stride {
		sample = append(sample, values[i])
	}
	sort.Float64s(sample)
	median = sample[len(sample)/2]
	if !(median > 0) {
		return 0, 0, median
	}
	first = -1
	for i, v := range values {
		if v > outlierFactor*median {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	return n, first, median
}

// reachLoss extends the learning rates (lrSteps, lrValues) to the first loss step (from step 1)
// and to the last, where these lie outside them by at most the learning rates' own interval
// there, and says so ("" when it extends nothing). A run resumed from a checkpoint, such as a
// cooldown branched from a stable run, logs its loss at the step it starts from and its first
// learning rate an interval later; the loss there would otherwise be left out, and the
// schedule before it would hold the first logged value, which in a decay is already below the
// rate the run had (1% lower through the whole stable phase, in a cooldown of 5,000 steps
// logged every 50). The rate at such a step continues the two logged next to it linearly (at
// least 0): a schedule is linear, or nearly so, over one logging interval. Farther than one
// interval it is not extended.
func reachLoss(steps, lrSteps, lrValues []float64) ([]float64, []float64, string) {
	n := len(lrSteps)
	if n < 2 || len(steps) == 0 {
		return lrSteps, lrValues, ""
	}
	k := 0
	for k < len(steps) && steps[k] < 1 {
		k++
	}
	if k == len(steps) {
		return lrSteps, lrValues, ""
	}
	first, last := steps[k], steps[len(steps)-1]
	// the rate at x, continued from the logged (x0, y0) and (x1, y1) linearly
	continued := func(x, x0, y0, x1, y1 float64) float64 {
		return math.Max(0, y0+(y1-y0)*(x-x0)/(x1-x0))
	}
	var said []string
	if gap := lrSteps[0] - first; gap > 0 && gap <= lrSteps[1]-lrSteps[0] {
		v := continued(first, lrSteps[0], lrValues[0], lrSteps[1], lrValues[1])
		lrSteps = append([]float64{first}, lrSteps...)
		lrValues = append([]float64{v}, lrValues...)
		said = append(said, fmt.Sprintf("at step %v (a loss before the first logged learning rate, at step %v) %.4g", first, lrSteps[1], v))
		n++
	}
	if gap := last - lrSteps[n-1]; gap > 0 && gap <= lrSteps[n-1]-lrSteps[n-2] {
		v := continued(last, lrSteps[n-1], lrValues[n-1], lrSteps[n-2], lrValues[n-2])
		lrSteps = append(slices.Clip(lrSteps), last)
		lrValues = append(slices.Clip(lrValues), v)
		said = append(said, fmt.Sprintf("at step %v (a loss after the last logged learning rate, at step %v) %.4g", last, lrSteps[n-1], v))
	}
	if len(said) == 0 {
		return lrSteps, lrValues, ""
	}
	return lrSteps, lrValues, "the learning rate " + strings.Join(said, ", and ") + ", continuing the logged ones linearly"
}

// lrSpan returns the loss steps steps[lo:hi] within the span of the learning rates' steps
// (both sorted), and whether they are all or most of them (at least two, and half): the loss
// outside it can be left out, as the law needs the learning rate up to each step; when the
// learning rates cover less, they are too few to be the curve's schedule.
func lrSpan(steps, lrSteps []float64) (lo, hi int, most bool) {
	first, last := lrSteps[0], lrSteps[len(lrSteps)-1]
	lo, _ = slices.BinarySearch(steps, first)
	hi, found := slices.BinarySearch(steps, last)
	if found {
		hi++
	}
	kept := hi - lo
	return lo, hi, kept == len(steps) || kept >= 2 && 2*kept >= len(steps)
}

// trimNote says which loss steps, outside the learning rates' span (lrSteps), are left out.
func trimNote(lrLabel, lossLabel string, steps, lrSteps []float64, lo, hi int) string {
	var parts []string
	if lo > 0 {
		parts = append(parts, fmt.Sprintf("%s at %s", plural(lo, "losses", "loss"), stepRange(steps[0], steps[lo-1])))
	}
	if n := len(steps) - hi; n > 0 {
		parts = append(parts, fmt.Sprintf("%s at %s", plural(n, "losses", "loss"), stepRange(steps[hi], steps[len(steps)-1])))
	}
	return fmt.Sprintf("%s: left out %s, outside the steps its learning rates %s are logged at (%v to %v): the law needs the learning rate up to each step",
		lossLabel, strings.Join(parts, " and "), lrLabel, lrSteps[0], lrSteps[len(lrSteps)-1])
}

// stepRange names the steps from first to last: "step 4" or "steps 1 to 3".
func stepRange(first, last float64) string {
	if first == last {
		return fmt.Sprintf("step %v", first)
	}
	return fmt.Sprintf("steps %v to %v", first, last)
}

// interpolateAt returns the values of the points (xs, ys), joined linearly, at each of at
// (all three increasing), with how many of them fell on a point exactly; ok is false when at
// reaches outside [xs[0], xs[last]].
func interpolateAt(at, xs, ys []float64) (out []float64, exact int, ok bool) {
	if len(xs) == 0 || len(at) == 0 || at[0] < xs[0] || at[len(at)-1] > xs[len(xs)-1] {
		return nil, 0, false
	}
	out = make([]float64, len(at))
	j := 0
	for i, x := range at {
		for j+1 < len(xs) && xs[j+1] <= x {
			j++
		}
		switch {
		case xs[j] == x:
			out[i] = ys[j]
			exact++
		default: // xs[j] < x < xs[j+1]
			t := (x - xs[j]) / (xs[j+1] - xs[j])
			out[i] = ys[j] + t*(ys[j+1]-ys[j])
			if math.IsNaN(out[i]) || math.IsInf(out[i], 0) {
				return nil, 0, false
			}
		}
	}
	return out, exact, true
}
