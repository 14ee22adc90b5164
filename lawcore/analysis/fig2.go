package analysis

import (
	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// The paper's Fig. 2 curves (the validation loss of its 594M model, every 1000 steps), as
// site/examples/paper-fig2.json holds them: the paper analysis fits them itself, and refits
// them for each lambda, as the paper does.
var (
	fig2Steps = []float64{1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000,
		11000, 12000, 13000, 14000, 15000, 16000, 17000, 18000, 19000, 20000}
	fig2Cosine = []float64{3.6696358, 3.3254106, 3.1908393, 3.1158533, 3.0604768, 3.020384, 2.9880967, 2.9612265, 2.9395165, 2.9195616,
		2.9030452, 2.8881907, 2.8767889, 2.8654318, 2.8565135, 2.8489892, 2.843639, 2.8398669, 2.8380618, 2.8376071}
	fig2Constant = []float64{3.6714418, 3.325626, 3.1884103, 3.111947, 3.058354, 3.0211415, 2.9874816, 2.96082, 2.9406552, 2.9241402,
		2.9054413, 2.8942103, 2.8807929, 2.8702695, 2.862175, 2.8530996, 2.8448784, 2.8383856, 2.8326995, 2.8294308}
)

// Fig2Total is the length of the paper's Fig. 2 runs.
const Fig2Total = 20000

// Fig2Fit is the paper's Fig. 2 fit: its cosine (to 0) and constant runs of 20K steps at peak
// 2e-4 with 500 warmup steps counted at the peak, lambda 0.999, Huber delta 1e-3. It fits to
// Fig2Params. Each call returns new slices.
func Fig2Fit() lawcore.FitRequest {
	curve := func(kind string, loss []float64) lawcore.Curve {
		return lawcore.Curve{Name: kind, Role: lawcore.RoleFit,
			Steps: append([]float64(nil), fig2Steps...), Loss: append([]float64(nil), loss...),
			Schedule: &schedule.Schedule{Kind: kind, Total: Fig2Total, Peak: DefaultPeak, Warmup: DefaultWarmup}}
	}
	return lawcore.FitRequest{Law: annealing.Name,
		Curves:           []lawcore.Curve{curve(schedule.KindCosine, fig2Cosine), curve(schedule.KindConstant, fig2Constant)},
		Lambda:           lawcore.FixedLambda(0.999),
		WarmupSteps:      DefaultWarmup,
		WarmupConvention: string(schedule.WarmupPeak),
		HuberDelta:       1e-3}
}
