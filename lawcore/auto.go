package lawcore

import (
	"context"
	"time"
)

// AutoChoice reports what an "auto" fit picked: lambda is always fitted, and the warmup
// convention whose fit reaches the lower objective (the same points, the same objective, so
// the two are comparable) is kept.
type AutoChoice struct {
	// WarmupConvention is the convention picked.
	WarmupConvention Convention `json:"warmupConvention"`
	// Lambda is the fitted lambda under that convention.
	Lambda float64 `json:"lambda"`
	// Objectives are the objectives reached under each convention.
	Objectives map[Convention]float64 `json:"objectives"`
	// Reason says why, in words for the page.
	Reason string `json:"reason"`
}

// fitAuto fits lambda under both warmup conventions and keeps the better fit.
func fitAuto(ctx context.Context, req FitRequest, progress func(float64)) (*FitResult, error) {
	began := time.Now()
	req.Auto = false
	req.Law = LawAnnealing
	req.Lambda = FittedLambda()
	var best *FitResult
	objectives := map[Convention]float64{}
	for i, conv := range []Convention{WarmupPeak, WarmupActual} {
		req.WarmupConvention = string(conv)
		res, err := Fit(ctx, req, func(f float64) { progress((float64(i) + f) / 2) })
		if err != nil {
			return nil, err
		}
		objectives[conv] = res.Objective
		if best == nil || res.Objective < best.Objective {
			best = res
		}
	}
	conv := best.Settings.WarmupConvention
	other := WarmupPeak
	if conv == WarmupPeak {
		other = WarmupActual
	}
	best.Auto = &AutoChoice{
		WarmupConvention: conv,
		Lambda:           best.Params["lambda"],
		Objectives:       objectives,
		Reason: "lambda fitted; warmup counted " + map[Convention]string{WarmupPeak: "at the peak LR", WarmupActual: "as run"}[conv] +
			", whose fit reaches a lower objective than counting it " + map[Convention]string{WarmupPeak: "at the peak LR", WarmupActual: "as run"}[other],
	}
	best.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return best, nil
}
