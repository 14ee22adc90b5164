package importer

import "fmt"

// LRPair says that the learning rates of curve LR are the schedule of the loss curve Loss
// (indices into the curves given to [PairLR]).
type LRPair struct {
	Loss int `json:"loss"`
	LR   int `json:"lr"`
	// Keep, when set, is the range [Keep[0], Keep[1]) of the loss curve's points within the
	// learning rates' steps: the few outside it are left out, for the law needs the learning
	// rate up to each step (a note says which). Nil when the learning rates span them all.
	Keep []int `json:"keep,omitempty"`
	// Reach, when set, are learning rates to add to the logged ones, in order of step: each
	// continues them linearly to a loss point at most one logging interval before their first
	// step or after their last (a cooldown's log starts at its branch step, its learning rate
	// one interval later), as one file's columns are continued (a note says so).
	Reach []LRPoint `json:"reach,omitempty"`
}

// LRPoint is a learning rate at a step.
type LRPoint struct {
	Step float64 `json:"step"`
	LR   float64 `json:"lr"`
}

// PairLR finds, among curves read from files given together, which learning-rate curves (LR
// and no loss, such as a TensorBoard download of the `learning_rate` tag) belong to which loss
// curves without learning rates, so that a loss file and an LR file can be merged on step
// (with [MergeLR], or by taking the LR curve's own points as the schedule).
//
// Curves pair by run: the run's name in a file of several runs, else the run in a TensorBoard
// download's file name (`run-<run>-tag-<tag>`); every loss curve of a run gets that run's
// learning rates. Then, when one learning-rate curve is left, it goes to the loss curves left
// if they are all one run's (or one curve) and no run name says otherwise. A learning-rate
// curve must span most of the steps of its loss curve (at least half, and two), which then
// keeps those within its span (LRPair.Keep). Notes say what could not be paired and why.
func PairLR(curves []*Curve) (pairs []LRPair, notes []string) {
	var lossIdx, lrIdx []int
	for i, c := range curves {
		switch {
		case c == nil || len(c.Steps) == 0:
		case c.HasLR && !c.HasLoss:
			lrIdx = append(lrIdx, i)
		case c.HasLoss && !c.HasLR:
			lossIdx = append(lossIdx, i)
		}
	}
	paired := map[int]bool{} // loss curves that have their learning rates
	used := map[int]bool{}   // learning-rate curves given to a loss curve (or refused with a note)
	tryPair := func(loss, lr int) {
		l, r := curves[loss], curves[lr]
		lrSteps, reach, reached := reachedLR(l, r)
		lo, hi, most := lrSpan(l.Steps, lrSteps)
		if !most {
			notes = append(notes, lrCoverageNote(l, r))
			return
		}
		pair := LRPair{Loss: loss, LR: lr, Reach: reach}
		if reached != "" {
			notes = append(notes, fmt.Sprintf("%q, from %s: %s", l.Name, curveWhere(r), reached))
		}
		if hi-lo < len(l.Steps) {
			pair.Keep = []int{lo, hi}
			notes = append(notes, trimNote("from "+curveWhere(r), fmt.Sprintf("%q", l.Name), l.Steps, lrSteps, lo, hi))
		}
		pairs = append(pairs, pair)
		paired[loss] = true
	}

	for _, j := range lrIdx {
		run := curveRun(curves[j])
		if run == "" {
			continue
		}
		for _, i := range lossIdx {
			if paired[i] || curveRun(curves[i]) != run {
				continue
			}
			used[j] = true
			tryPair(i, j)
		}
	}

	var lrLeft, lossLeft []int
	for _, j := range lrIdx {
		if !used[j] {
			lrLeft = append(lrLeft, j)
		}
	}
	for _, i := range lossIdx {
		if !paired[i] {
			lossLeft = append(lossLeft, i)
		}
	}
	if len(lrLeft) == 1 && len(lossLeft) > 0 && oneRun(curves, lossLeft, curveRun(curves[lrLeft[0]])) {
		for _, i := range lossLeft {
			tryPair(i, lrLeft[0])
		}
		return pairs, notes
	}
	for _, j := range lrLeft {
		c := curves[j]
		switch {
		case len(lossIdx) == 0:
			notes = append(notes, fmt.Sprintf("%s holds learning rates only: give it together with the loss file it belongs to", curveWhere(c)))
		default:
			notes = append(notes, fmt.Sprintf("%s holds learning rates only, and which loss curve they belong to is not clear: give one loss file with its learning-rate file at a time, or name both after the run (TensorBoard: run-<run>-tag-<tag>)", curveWhere(c)))
		}
	}
	return pairs, notes
}

// oneRun reports whether the curves at idx are one curve, or all of one run, and that run is
// not another than run (when both are known).
func oneRun(curves []*Curve, idx []int, run string) bool {
	first := curveRun(curves[idx[0]])
	if len(idx) > 1 && first == "" {
		return false
	}
	for _, i := range idx[1:] {
		if curveRun(curves[i]) != first {
			return false
		}
	}
	return first == "" || run == "" || first == run
}

// reachedLR returns the steps of lr's learning rates continued to the loss curve's points at
// most one logging interval outside them (reachLoss), the points added (nil: none) and the
// note saying so; lr's own steps when it carries no values (a request of steps alone).
func reachedLR(loss, lr *Curve) ([]float64, []LRPoint, string) {
	if len(lr.LR) != len(lr.Steps) {
		return lr.Steps, nil, ""
	}
	steps, values, said := reachLoss(loss.Steps, lr.Steps, lr.LR)
	var added []LRPoint
	for i, s := range steps {
		if s < lr.Steps[0] || s > lr.Steps[len(lr.Steps)-1] {
			added = append(added, LRPoint{Step: s, LR: values[i]})
		}
	}
	return steps, added, said
}

// lrCoverageNote says why the learning rates cannot be the schedule of the loss curve: they
// span too few of its steps (lrSpan).
func lrCoverageNote(loss, lr *Curve) string {
	miss, _ := uncoveredStep(loss.Steps, lr.Steps)
	return fmt.Sprintf("%s: the learning rates cover steps %.0f to %.0f, but %q has step %.0f: not merged", curveWhere(lr), lr.Steps[0], lr.Steps[len(lr.Steps)-1], loss.Name, miss)
}

// curveRun is the run a curve belongs to: its run, else the run named in a TensorBoard
// download's file name, else "".
func curveRun(c *Curve) string {
	if c.Run != "" {
		return c.Run
	}
	return tensorBoardRun(c.File)
}

// curveWhere names a curve's file, or the curve when it has no file.
func curveWhere(c *Curve) string {
	if c.File != "" {
		return c.File
	}
	return fmt.Sprintf("curve %q", c.Name)
}
