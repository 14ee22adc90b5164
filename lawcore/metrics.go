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

// ComputeMetrics scores predicted against observed losses (same length, at least one).
func ComputeMetrics(observed, predicted []float64) Metrics {
	n := len(observed)
	m := Metrics{Points: n}
	if n == 0 {
		return m
	}
	mean := 0.0
	for _, o := range observed {
		mean += o
	}
	mean /= float64(n)
	var ssRes, ssTot float64
	for i, o := range observed {
		d := predicted[i] - o
		ssRes += d * d
		ssTot += (o - mean) * (o - mean)
		m.MAE += math.Abs(d)
		rel := math.Abs(d) / o
		m.PredE += rel
		m.WorstE = math.Max(m.WorstE, rel)
	}
	m.MAE /= float64(n)
	m.PredE /= float64(n)
	m.RMSE = math.Sqrt(ssRes / float64(n))
	m.FinalErr = (predicted[n-1] - observed[n-1]) / observed[n-1]
	if ssTot > 0 {
		r2 := 1 - ssRes/ssTot
		m.R2 = &r2
	}
	return m
}

// MeanMetrics summarises several curves' metrics the way the MultiPowerLaw release reports a
// split: the mean of each metric over the curves (R2 over the curves where it is defined;
// WorstE too is the mean of each curve's worst error), and Points, the total.
func MeanMetrics(ms []Metrics) Metrics {
	var out Metrics
	if len(ms) == 0 {
		return out
	}
	var r2Sum float64
	r2Count := 0
	for _, m := range ms {
		out.Points += m.Points
		out.MAE += m.MAE
		out.RMSE += m.RMSE
		out.PredE += m.PredE
		out.FinalErr += m.FinalErr
		out.WorstE += m.WorstE
		if m.R2 != nil {
			r2Sum += *m.R2
			r2Count++
		}
	}
	n := float64(len(ms))
	out.MAE /= n
	out.RMSE /= n
	out.PredE /= n
	out.WorstE /= n
	out.FinalErr /= n
	if r2Count > 0 {
		r2 := r2Sum / float64(r2Count)
		out.R2 = &r2
	}
	return out
}
