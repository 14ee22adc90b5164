package lawcore

import "math"

// Metrics score predicted losses against observed ones on one curve (or, averaged, on a
// group of curves).
type Metrics struct {
	// Points is the number of observed points scored.
	Points int `json:"points"`
	// R2 is the coefficient of determination, 1 - SSres/SStot; nil when the observed losses
	// do not vary (a single point), where it is undefined.
	R2 *float64 `json:"R2"`
	// MAE is the mean absolute error of the loss.
	MAE float64 `json:"MAE"`
	// RMSE is the root mean squared error of the loss.
	RMSE float64 `json:"RMSE"`
	// PredE is the mean relative error, mean |pred - obs| / obs.
	PredE float64 `json:"PredE"`
	// WorstE is the largest relative error, max |pred - obs| / obs.
	WorstE float64 `json:"WorstE"`
	// FinalErr is the signed relative error at the last observed step, (pred - obs) / obs.
	FinalErr float64 `json:"FinalErr"`
}

// ComputeMetrics scores predicted against observed losses (same length, at least one). Every
// metric is finite for finite inputs: the errors and the observed spread are summed scaled by
// their largest value (so that losses near 1e200 do not overflow), and a ratio too large for a
// float64 counts as math.MaxFloat64.
func ComputeMetrics(observed, predicted []float64) Metrics {
	n := len(observed)
	m := Metrics{Points: n}
	if n == 0 {
		return m
	}
	mean := 0.0
	for i, o := range observed {
		mean += (o - mean) / float64(i+1)
	}
	errScale, spreadScale := 0.0, 0.0
	for i, o := range observed {
		errScale = math.Max(errScale, math.Abs(predicted[i]-o))
		spreadScale = math.Max(spreadScale, math.Abs(o-mean))
	}
	var ssRes, ssTot float64 // of the scaled values
	for i, o := range observed {
		d := predicted[i] - o
		if errScale > 0 {
			ssRes += (d / errScale) * (d / errScale)
			m.MAE += (math.Abs(d)/errScale - m.MAE) / float64(i+1)
		}
		if spreadScale > 0 {
			ssTot += ((o - mean) / spreadScale) * ((o - mean) / spreadScale)
		}
		rel := finiteOrMax(math.Abs(d) / o)
		m.PredE += (rel - m.PredE) / float64(i+1)
		m.WorstE = math.Max(m.WorstE, rel)
	}
	m.MAE *= errScale
	m.RMSE = errScale * math.Sqrt(ssRes/float64(n))
	m.FinalErr = (predicted[n-1] - observed[n-1]) / observed[n-1]
	m.FinalErr = math.Copysign(finiteOrMax(math.Abs(m.FinalErr)), m.FinalErr)
	if ssTot > 0 {
		ratio := 0.0 // SSres / SStot
		if ssRes > 0 {
			ratio = finiteOrMax(ssRes / ssTot * (errScale / spreadScale) * (errScale / spreadScale))
		}
		r2 := -finiteOrMax(ratio - 1)
		m.R2 = &r2
	}
	return m
}

// finiteOrMax is x, or math.MaxFloat64 when x overflowed to +Inf.
func finiteOrMax(x float64) float64 {
	if math.IsInf(x, 1) {
		return math.MaxFloat64
	}
	return x
}

// MeanMetrics summarises several curves' metrics the way the MultiPowerLaw release reports a
// split: the mean of each metric over the curves (R2 over the curves where it is defined;
// WorstE too is the mean of each curve's worst error), and Points, the total.
func MeanMetrics(ms []Metrics) Metrics {
	var out Metrics
	var r2Mean float64
	r2Count := 0
	// running means, which cannot overflow where a sum of large metrics would
	for k, m := range ms {
		w := 1 / float64(k+1)
		out.Points += m.Points
		out.MAE += (m.MAE - out.MAE) * w
		out.RMSE += (m.RMSE - out.RMSE) * w
		out.PredE += (m.PredE - out.PredE) * w
		out.WorstE += (m.WorstE - out.WorstE) * w
		out.FinalErr += (m.FinalErr - out.FinalErr) * w
		if m.R2 != nil {
			r2Count++
			r2Mean += (*m.R2 - r2Mean) / float64(r2Count)
		}
	}
	if r2Count > 0 {
		out.R2 = &r2Mean
	}
	return out
}
