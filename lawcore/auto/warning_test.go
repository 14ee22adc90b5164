package auto

import (
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// TestAutoWarning: the held-out warning needs both the ratio (3 times the in-sample error) and
// an error above the paper's own on unseen schedules (0.2%): a noise-free curve fitted to
// 0.0001% and predicted to 0.07% is predicted well, not "700 times worse".
func TestAutoWarning(t *testing.T) {
	cases := []struct {
		heldOut, inSample float64
		want              string
	}{
		{0.0007, 0.000001, ""},
		{0.002, 0.0001, ""}, // at the floor
		{0.0025, 0.0005, "on the data auto held out, the law X predicts 5 times worse than it fits (0.25% against 0.05%): expect predictions of other schedules to miss by more than the fit suggests"},
		{0.006, 0.0021, ""},     // under 3 times
		{0.006, math.NaN(), ""}, // no in-sample error to compare with
	}
	for _, c := range cases {
		w, ok := autoWarning(lawcore.CandidateScore{Candidate: lawcore.Candidate{Label: "law X"}, HeldOut: c.heldOut, InSample: c.inSample})
		if ok != (c.want != "") || w.Message != c.want || ok && w.Kind != "held-out" {
			t.Errorf("held out %g, in sample %g: %v %+v, want %q", c.heldOut, c.inSample, ok, w, c.want)
		}
	}
}
