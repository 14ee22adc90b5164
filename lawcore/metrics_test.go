package lawcore

import (
	"encoding/json"
	"math"
	"testing"
)

// Metrics by hand: observed 3, 2.5, 2; predicted 3.3, 2.5, 1.9.
func TestComputeMetricsByHand(t *testing.T) {
	m := ComputeMetrics([]float64{3, 2.5, 2}, []float64{3.3, 2.5, 1.9})
	// d = 0.3, 0, -0.1; SSres = 0.1; SStot = 0.5 (mean 2.5)
	want := Metrics{Points: 3, MAE: 0.4 / 3, RMSE: math.Sqrt(0.1 / 3), PredE: (0.1 + 0 + 0.05) / 3, WorstE: 0.1, FinalErr: -0.05}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }
	if m.Points != 3 || !near(m.MAE, want.MAE) || !near(m.RMSE, want.RMSE) || !near(m.PredE, want.PredE) ||
		!near(m.WorstE, want.WorstE) || !near(m.FinalErr, want.FinalErr) || m.R2 == nil || !near(*m.R2, 0.8) {
		t.Errorf("got %+v (R2 %v), want %+v and R2 0.8", m, m.R2, want)
	}
	if one := ComputeMetrics([]float64{3}, []float64{3.3}); one.R2 != nil {
		t.Errorf("R2 of one point: %v, want undefined", *one.R2)
	}
	mean := MeanMetrics([]Metrics{m, ComputeMetrics([]float64{3}, []float64{3.3})})
	if !near(mean.PredE, (want.PredE+0.1)/2) || mean.Points != 4 || !near(*mean.R2, 0.8) {
		t.Errorf("mean %+v", mean)
	}
}

// Finite inputs give finite metrics that JSON can carry, however large (a fuzzed fit found
// losses of 1e200 turning RMSE into +Inf and R2 into NaN).
func TestComputeMetricsExtremeValuesStayFinite(t *testing.T) {
	m := ComputeMetrics([]float64{1e200, 3e200}, []float64{2e200, 2e200})
	if !(math.Abs(m.MAE-1e200) <= 1e186) || !(math.Abs(m.RMSE-1e200) <= 1e186) || m.R2 == nil || !(math.Abs(*m.R2) <= 1e-12) || !(math.Abs(m.PredE-2.0/3) <= 1e-12) {
		t.Errorf("large losses: %+v (R2 %v)", m, *m.R2)
	}
	huge := ComputeMetrics([]float64{1e-300, 1}, []float64{1e10, 1})
	if huge.WorstE != math.MaxFloat64 || huge.PredE != math.MaxFloat64/2 {
		t.Errorf("a relative error past float64: %+v", huge)
	}
	far := ComputeMetrics([]float64{1, 2}, []float64{1e300, 1e300})
	if far.R2 == nil || *far.R2 != -math.MaxFloat64 || far.RMSE != 1e300 {
		t.Errorf("R2 of a prediction 1e300 off: %v", far.R2)
	}
	for _, x := range []Metrics{m, huge, far, MeanMetrics([]Metrics{huge, huge, far})} {
		if _, err := json.Marshal(x); err != nil {
			t.Errorf("%+v does not encode: %v", x, err)
		}
	}
	if mean := MeanMetrics([]Metrics{huge, huge}); mean.WorstE != math.MaxFloat64 {
		t.Errorf("the mean of the largest errors overflowed: %v", mean.WorstE)
	}
}
