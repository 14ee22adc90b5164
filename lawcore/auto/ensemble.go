package auto

import (
	"fmt"
	"math"
	"slices"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/order"
)

// Averaging laws. When the user's fit curves hold enough out to tell, auto predicts with a
// weighted average of several candidates rather than one: candidates that err differently
// on held-out schedules (one law too low on a long constant run, another too high) average to
// a smaller error than either, and the weights are chosen for that, by how well the average
// predicts the held-out data (stacking: Wolpert 1992, Breiman 1996; Yao et al. 2018 for
// predictive distributions), never by the in-sample fit. The weights are non-negative and
// sum to one, so the average stays within the range of its members' predictions.

// minMemberWeight is the smallest weight that keeps a member in an average: a lighter one
// moves a prediction by less than a twentieth of its disagreement with the others, and would
// cost a fit on every curve.
const minMemberWeight = 0.05

// heldOutPoints bounds the points of one held-out curve that score a candidate and an
// average: an even sample of them estimates the curve's mean error as well as all (to a
// fraction of a percent), costs a fraction of the time on dense logs, and keeps what auto
// remembers of each fold small on million-point curves.
const heldOutPoints = 2000

// foldError is the mean relative error of the weighted average of the candidates'
// predictions on one fold's held-out samples (samples[k] are candidate k's, in the same
// order), at most maxFoldError.
func foldError(weights []float64, samples [][]bandSample) float64 {
	e := 0.0
	for j, s := range samples[0] {
		e += s.weightedError(mixed(weights, samples, j))
	}
	return math.Min(e, maxFoldError)
}

// mixed is the weighted average of the candidates' predictions at sample j (samples[k] are
// candidate k's).
func mixed(weights []float64, samples [][]bandSample, j int) float64 {
	pred := 0.0
	for k, w := range weights {
		if w > 0 {
			pred += w * samples[k][j].pred
		}
	}
	return pred
}

// weightedError is the sample's share of its fold's error when pred is predicted there.
func (s bandSample) weightedError(pred float64) float64 {
	return s.weight * math.Abs(pred-s.obs) / s.obs
}

// meanFoldError is foldError averaged over folds (byFold[f][k] are candidate k's samples of
// fold f).
func meanFoldError(weights []float64, byFold [][][]bandSample) float64 {
	e := 0.0
	for _, f := range byFold {
		e += foldError(weights, f)
	}
	return e / float64(len(byFold))
}

// stackWeights returns the weights of the candidates (non-negative, summing to one) whose
// average has the least mean held-out error over the folds, starting from the candidate
// start alone. The error is convex in the weights (a mean of absolute values of linear
// functions) but not smooth, so the search moves weight between one pair of candidates at
// a time, each move the best on its segment (a golden-section search), until no move helps.
func stackWeights(byFold [][][]bandSample, n, start int) []float64 {
	w := make([]float64, n)
	w[start] = 1
	best := meanFoldError(w, byFold)
	base := mixture(w, byFold, nil)
	moved := func(i, j int, t float64) []float64 {
		v := slices.Clone(w)
		v[i], v[j] = v[i]+t, v[j]-t
		return v
	}
	const ratio = 0.6180339887498949 // the golden section
	for sweep := 0; sweep < 50; sweep++ {
		improved := false
		for i := range n {
			for j := range n {
				if i == j || w[j] == 0 {
					continue
				}
				// move t of w[j] to w[i], t in [0, w[j]]
				f := func(t float64) float64 { return segmentError(base, byFold, i, j, t) }
				a, b := 0.0, w[j]
				for range 30 {
					if c, d := b-ratio*(b-a), a+ratio*(b-a); f(c) < f(d) {
						b = d
					} else {
						a = c
					}
				}
				// the bracket's middle or the whole of w[j], both moves from the same w (moving
				// w[j] again after the middle had moved made w[j] negative)
				step, least := -1.0, best-1e-12
				for _, t := range []float64{(a + b) / 2, w[j]} {
					if e := f(t); e < least {
						step, least = t, e
					}
				}
				if step >= 0 {
					best, w = least, moved(i, j, step)
					base = mixture(w, byFold, base)
					improved = true
				}
			}
		}
		if !improved {
			break
		}
	}
	return w
}

// mixture is the weighted average's prediction at each held-out sample, [fold][sample], for
// the weights w (written into into when it has the shape). The line searches of stackWeights
// start from it: a move of weight between two candidates then costs one pass over the
// samples instead of one per candidate.
func mixture(w []float64, byFold [][][]bandSample, into [][]float64) [][]float64 {
	if len(into) != len(byFold) {
		into = make([][]float64, len(byFold))
	}
	for f, fold := range byFold {
		if len(into[f]) != len(fold[0]) {
			into[f] = make([]float64, len(fold[0]))
		}
		for s := range fold[0] {
			into[f][s] = mixed(w, fold, s)
		}
	}
	return into
}

// segmentError is meanFoldError at the weights whose mixture is base with t of candidate j's
// weight moved to candidate i.
func segmentError(base [][]float64, byFold [][][]bandSample, i, j int, t float64) float64 {
	e := 0.0
	for f, fold := range byFold {
		pi, pj := fold[i], fold[j]
		sum := 0.0
		for s, smp := range fold[0] {
			sum += smp.weightedError(base[f][s] + t*(pi[s].pred-pj[s].pred))
		}
		e += math.Min(sum, maxFoldError)
	}
	return e / float64(len(byFold))
}

// pruneWeights drops the weights under minMemberWeight and scales the rest to sum to one.
func pruneWeights(w []float64) []float64 {
	out := make([]float64, len(w))
	sum := 0.0
	for k, x := range w {
		if x >= minMemberWeight {
			out[k] = x
			sum += x
		}
	}
	for k := range out {
		out[k] /= sum
	}
	return out
}

// averageFold is one fold's samples with the weighted average's prediction in place of
// candidate 0's, and as error the weighted mean of the members' errors. That error bounds the
// average's (|sum w p - o| <= sum w |p - o|) and is what a band calibrates on: the weights
// were chosen to make the average's own error on these folds small, so that error is no
// longer held out, while each member's still is.
func averageFold(weights []float64, samples [][]bandSample) []bandSample {
	out := slices.Clone(samples[0])
	for j := range out {
		out[j].pred, out[j].err = 0, 0
		for k, w := range weights {
			out[j].pred += w * samples[k][j].pred
			out[j].err += w * samples[k][j].err
		}
	}
	return out
}

// averageFits turns fits (one per member, fitted on the same request, in the members' order)
// into the fit of their weighted average: every curve's predicted loss is the weighted mean,
// and the metrics and objective are scored again on it. The parameters, intervals and
// warnings stay the first member's (the heaviest): they describe one law.
func averageFits(req lawcore.FitRequest, members []lawcore.Member, fits []*lawcore.FitResult) (*lawcore.FitResult, error) {
	res := *fits[0]
	res.Members = members
	res.Curves = slices.Clone(res.Curves)
	for i := range res.Curves {
		avg := make([]float64, len(res.Curves[i].Predicted))
		for k, f := range fits {
			if len(f.Curves[i].Predicted) != len(avg) {
				return nil, fmt.Errorf("lawcore: the average's members predict curve %d at different points", i)
			}
			for j, p := range f.Curves[i].Predicted {
				avg[j] += members[k].Weight * p
			}
		}
		res.Curves[i].Predicted = avg
	}
	if err := lawcore.Rescore(members[0].Apply(req), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// sortMembers orders members by weight, heaviest first (the earlier candidate first on
// equal weights).
func sortMembers(members []lawcore.Member) {
	order.Stable(members, func(a, b int) bool { return members[a].Weight > members[b].Weight })
}
