package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore/input"
)

// The tuples are drawn from the paper's ranges, which fit its peak LR: at a higher peak the
// loss drop C·S2 grows with it, and a tuple may predict a loss of 0 or below by a run's end.
// Such a tuple is no law of a loss: it is left out and counted, and the others are fitted as
// at the paper's peak (every reported figure finite: before, a left-in tuple's +Inf Huber loss
// made the answer unencodable, "json: unsupported value: +Inf"). When none is left, the error
// names the peak.
func TestChinchillaLeavesOutTuplesWithoutALoss(t *testing.T) {
	for _, tt := range []struct {
		peak    float64
		skipped bool
	}{{DefaultPeak, false}, {3e-3, true}, {1e-2, true}} {
		o := DefaultChinchillaOptions()
		o.Peak, o.Tuples = tt.peak, 200
		res, err := ChinchillaReduction(context.Background(), o, nil)
		if err != nil {
			t.Fatalf("peak %g: %v", tt.peak, err)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("peak %g: the answer cannot be sent: %v", tt.peak, err)
		}
		if res.Fitted+res.Skipped != o.Tuples || (res.Skipped > 0) != tt.skipped || res.Fitted == 0 {
			t.Errorf("peak %g: %d fitted, %d left out of %d", tt.peak, res.Fitted, res.Skipped, o.Tuples)
		}
		if !positiveFinalLosses(res.ExampleParams, [][]float64{{0}}, [][]float64{{0}}) {
			t.Errorf("peak %g: example tuple %+v", tt.peak, res.ExampleParams)
		}
		for _, s := range res.Summaries {
			if len(s.R2) != res.Fitted || math.IsInf(s.MeanHuber, 0) || math.IsNaN(s.MeanHuber) || !(s.MinR2 >= 0 && s.MeanR2 <= 1) {
				t.Errorf("peak %g, %s: %d fits, R² mean %v, min %v, Huber %v", tt.peak, s.Schedule, len(s.R2), s.MeanR2, s.MinR2, s.MeanHuber)
			}
			// the paper's claim (Sec. 6.1, at its peak): the final losses follow Chinchilla's
			// form (its Table 2: mean R² 0.972 cosine, 0.979 WSD)
			if tt.peak == DefaultPeak && !(s.MeanR2 > 0.97) {
				t.Errorf("%s at the paper's peak: mean R² %v", s.Schedule, s.MeanR2)
			}
		}
	}
	o := DefaultChinchillaOptions()
	o.Peak = 2.5
	_, err := ChinchillaReduction(context.Background(), o, nil)
	var in *input.Error
	if !errors.As(err, &in) || in.Field != "peak" {
		t.Errorf("peak 2.5: %v, want an error naming the peak", err)
	}
}
