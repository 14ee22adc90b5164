package auto

import (
	"math"
	"math/rand/v2"
	"testing"
)

// samplesOf is one fold's samples of a candidate predicting pred of the observed obs, each
// point weighing the same.
func samplesOf(obs, pred []float64) []bandSample {
	out := make([]bandSample, len(obs))
	for j := range obs {
		out[j] = bandSample{obs: obs[j], pred: pred[j], err: math.Abs(pred[j]-obs[j]) / obs[j], weight: 1 / float64(len(obs))}
	}
	return out
}

// TestStackWeights checks the weights of the least held-out error against cases whose answer
// is known in closed form; none is ever negative.
func TestStackWeights(t *testing.T) {
	obs := []float64{3.0, 2.9, 2.8, 2.75}
	shift := func(d float64) []float64 {
		out := make([]float64, len(obs))
		for j, o := range obs {
			out[j] = o + d
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		preds [][]float64 // by candidate
		start int
		want  []float64
	}{
		// one too high by 0.02 and one too low by 0.02 average to the truth at 1/2 each
		{"opposite misses", [][]float64{shift(0.02), shift(-0.02)}, 0, []float64{0.5, 0.5}},
		// too high by 0.03 and too low by 0.01: the weight w on the first zeroes 0.03w -
		// 0.01(1-w), at w = 1/4
		{"uneven misses", [][]float64{shift(0.03), shift(-0.01)}, 1, []float64{0.25, 0.75}},
		// an exact candidate takes everything, whichever the start
		{"one exact", [][]float64{shift(0.01), obs, shift(0.02)}, 0, []float64{0, 1, 0}},
		// misses on the same side cannot cancel: the smaller miss alone
		{"same side", [][]float64{shift(0.01), shift(0.03)}, 1, []float64{1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fold := make([][]bandSample, len(tc.preds))
			for k, p := range tc.preds {
				fold[k] = samplesOf(obs, p)
			}
			got := stackWeights([][][]bandSample{fold}, len(tc.preds), tc.start)
			sum := 0.0
			for k := range got {
				sum += got[k]
				if !(math.Abs(got[k]-tc.want[k]) <= 1e-6) || got[k] < 0 {
					t.Errorf("weights %v, want %v", got, tc.want)
					break
				}
			}
			if !(math.Abs(sum-1) <= 1e-12) {
				t.Errorf("weights sum to %g", sum)
			}
		})
	}
}

// The line search's shortcut is the definition: the error of the mixture moved along a pair
// of candidates is meanFoldError at the moved weights, for every pair and step, on folds of
// different sizes, with a fold capped at maxFoldError.
func TestSegmentErrorIsMeanFoldError(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const candidates = 4
	var byFold [][][]bandSample
	for f, n := range []int{7, 30, 3} {
		fold := make([][]bandSample, candidates)
		for s := range n {
			obs := 2 + rng.Float64()
			weight := 1 / float64(n)
			if f == 2 {
				weight = 1e3 // this fold's error is capped
			}
			for k := range fold {
				fold[k] = append(fold[k], bandSample{obs: obs, pred: obs + 0.1*rng.NormFloat64(), weight: weight})
			}
			_ = s
		}
		byFold = append(byFold, fold)
	}
	w := []float64{0.5, 0.2, 0.3, 0}
	base := mixture(w, byFold, nil)
	for i := range candidates {
		for j := range candidates {
			if i == j {
				continue
			}
			for _, t0 := range []float64{0, 0.37, 1} {
				step := t0 * w[j]
				moved := append([]float64(nil), w...)
				moved[i], moved[j] = moved[i]+step, moved[j]-step
				want := meanFoldError(moved, byFold)
				if got := segmentError(base, byFold, i, j, step); !(math.Abs(got-want) <= 1e-13*want) {
					t.Errorf("move %g from %d to %d: %v, want %v", step, j, i, got, want)
				}
			}
		}
	}
	if got, want := segmentError(base, byFold, 0, 1, 0), meanFoldError(w, byFold); !(want > maxFoldError/3 && math.Abs(got-want) <= 1e-13*want) {
		t.Errorf("capped fold: %v, want %v", got, want)
	}
}

// TestAverageFoldBoundsTheAverage checks that a band calibrates an average on its members'
// weighted errors, which bound the average's own: two opposite misses average to the truth,
// yet each point keeps the members' error.
func TestAverageFoldBoundsTheAverage(t *testing.T) {
	obs := []float64{2.0, 2.5}
	high, low := samplesOf(obs, []float64{2.02, 2.52}), samplesOf(obs, []float64{1.98, 2.48})
	got := averageFold([]float64{0.5, 0.5}, [][]bandSample{high, low})
	for j, s := range got {
		if s.pred != obs[j] {
			t.Errorf("point %d: the average predicts %g, want %g", j, s.pred, obs[j])
		}
		if want := 0.02 / obs[j]; !(math.Abs(s.err-want) <= 1e-15) {
			t.Errorf("point %d: error %g, want the members' %g", j, s.err, want)
		}
	}
}

// TestPruneWeights checks that members under minMemberWeight are dropped and the rest
// rescaled to sum to one.
func TestPruneWeights(t *testing.T) {
	got := pruneWeights([]float64{0.6, 0.36, 0.04})
	want := []float64{0.6 / 0.96, 0.36 / 0.96, 0}
	for k := range want {
		if !(math.Abs(got[k]-want[k]) <= 1e-15) {
			t.Fatalf("pruned %v, want %v", got, want)
		}
	}
}
