package auto

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/order"
)

// Fit fits every candidate on each fold of the request's fit curves, picks the one that
// predicts the held-out data best (the simplest among those tied) or, where it predicts better
// still, a weighted average of several, and fits the chosen on every curve. The result is
// lawcore.Fit's with its Auto report, its Members when it averages, and its Band. req.Auto
// need not be set; its Law, Lambda and WarmupConvention are ignored. progress and cancelling
// ctx work as for lawcore.Fit.
func Fit(ctx context.Context, req lawcore.FitRequest, progress func(float64)) (*lawcore.FitResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	// bad input is reported as the default fit would report it
	check := req
	check.Auto, check.Law = false, ""
	if err := check.Check(); err != nil {
		return nil, err
	}
	design, folds := autoFolds(req, heldOutPoints)
	if len(folds) == 0 {
		return fitWithoutHeldOut(ctx, req, progress)
	}
	cands := applicable(Candidates(), req)
	jobs, done := len(cands)*len(folds)+1, 0
	report := func(f float64) { progress((float64(done) + f) / float64(jobs)) }
	scores := make([]lawcore.CandidateScore, len(cands))
	samples := make([][][]bandSample, len(cands)) // by candidate, then fold
	for ci, c := range cands {
		sc := lawcore.CandidateScore{Candidate: c}
		var inSample []float64
		for fi, f := range folds {
			fold := c.Apply(f.req)
			fold.Effort = lawcore.Effort{Starts: 1, ThinnedOnly: true}
			res, err := lawcore.Fit(ctx, fold, report)
			done++
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil || res.ValidateMetrics == nil {
				msg := "no held-out points"
				if err != nil {
					msg = err.Error()
				}
				sc.Error, sc.Folds = fmt.Sprintf("%s: %s", f.label, msg), nil
				done += len(folds) - len(inSample) - 1
				break
			}
			sc.Folds = append(sc.Folds, math.Min(res.ValidateMetrics.PredE, maxFoldError))
			inSample = append(inSample, res.FitMetrics.PredE)
			held, err := heldOutSamples(fold, res, fi)
			if err != nil {
				return nil, err
			}
			samples[ci] = append(samples[ci], held)
		}
		if sc.Error == "" {
			sc.HeldOut, sc.StdErr = meanAndStdErr(sc.Folds)
			sc.InSample, _ = meanAndStdErr(inSample)
		}
		scores[ci] = sc
	}
	pick := chooseCandidate(scores)
	if pick < 0 {
		return nil, input.Errorf("", "curves", "no law could be fitted to these curves and scored on held-out data: %s", scores[0].Error)
	}
	weights := make([]float64, len(cands))
	weights[pick] = 1
	averaged := 0.0
	if design != designForecast {
		if w, e, ok := averageWeights(scores, samples, pick); ok {
			weights, averaged = w, e
		}
	}
	res, members, err := fitMembers(ctx, req, scores, weights, report)
	if err != nil {
		return nil, err
	}
	if len(members) < 2 {
		averaged = 0
	}
	for i := range scores {
		scores[i].Weight = 0
		for _, m := range members {
			if m.Label == scores[i].Label {
				scores[i].Weight = m.Weight
			}
		}
	}
	best := slices.IndexFunc(scores, func(s lawcore.CandidateScore) bool { return s.Label == members[0].Label })
	chosen := scores[best]
	ranked := make([]int, len(scores))
	for i := range ranked {
		ranked[i] = i
	}
	// scored candidates first, best first; those that could not be scored last
	order.Stable(ranked, func(a, b int) bool {
		x, y := scores[ranked[a]], scores[ranked[b]]
		if (x.Error == "") != (y.Error == "") {
			return x.Error == ""
		}
		return x.HeldOut < y.HeldOut
	})
	sorted := make([]lawcore.CandidateScore, len(ranked))
	for i, k := range ranked {
		sorted[i] = scores[k]
	}
	labels := make([]string, len(folds))
	for i, f := range folds {
		labels[i] = f.label
	}
	if w, ok := autoWarning(chosen); ok {
		res.Warnings = append(res.Warnings, w)
	}
	reason := autoReason(scores, best, design, len(folds))
	if len(members) > 1 {
		reason = averageReason(scores, members, averaged, design, len(folds))
	}
	res.Auto = &lawcore.AutoChoice{Chosen: chosen.Candidate, Candidates: sorted, Design: design, Folds: labels,
		Averaged: averaged, Reason: reason}
	// the band: the held-out errors of what predicts (the average, or the one chosen)
	var held []bandSample
	for fi := range folds {
		var byCand [][]bandSample
		var ws []float64
		for ci := range cands {
			if scores[ci].Weight > 0 && fi < len(samples[ci]) {
				byCand, ws = append(byCand, samples[ci][fi]), append(ws, scores[ci].Weight)
			}
		}
		if len(byCand) > 0 {
			held = append(held, averageFold(ws, byCand)...)
		}
	}
	if len(held) > 0 {
		band := calibrateBand(held, DefaultBandLevel)
		band.Reach, band.Design = res.Reach, design
		floorUnseen(&band)
		res.Band = &band
	}
	progress(1)
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}

// fitWithoutHeldOut fits the request's own settings, auto aside, when its one fit curve has
// too few points in its fit window to hold any out: auto has nothing to compare laws on, and
// the answer says so.
func fitWithoutHeldOut(ctx context.Context, req lawcore.FitRequest, progress func(float64)) (*lawcore.FitResult, error) {
	plain := req
	plain.Auto = false
	res, err := lawcore.Fit(ctx, plain, progress)
	if err != nil {
		return nil, err
	}
	title := res.Law
	if law, err := lawcore.Lookup(res.Law); err == nil {
		title = law.Spec().Title
	}
	name, points := "", 0
	for _, c := range req.Curves {
		if c.Role == "" || c.Role == lawcore.RoleFit {
			name, points = c.Name, len(c.Steps)-windowStart(c)
		}
	}
	res.Warnings = append(res.Warnings, lawcore.Warning{Kind: "auto", Curve: name, Message: fmt.Sprintf(
		"auto compares laws by how well they predict points held out of the fit, and curve %q has %d point(s) in its fit window, fewer than the %d that holding some out needs: the %s was fitted with the settings given instead",
		name, points, minForecastPoints, title)})
	return res, nil
}
