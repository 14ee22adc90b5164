package auto_test

import (
	"context"
	"fmt"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Curves drawn from the annealing law itself, with lambda 0.999: auto compares every law and
// setting on the points each fold holds out and keeps the simplest that predicts them as well
// as any, the annealing law with lambda held (under either warmup convention: from step 1000
// on, the two predict these curves alike).
func ExampleFit() {
	truth := lawcore.Values{"L0": 2.5, "A": 0.45, "alpha": 0.5, "C": 0.4, "lambda": 0.999}
	var curves []lawcore.Curve
	for _, s := range []schedule.Schedule{
		{Kind: schedule.KindConstant, Total: 20000, Peak: 2e-4, Warmup: 500},
		{Kind: schedule.KindCosine, Total: 20000, Peak: 2e-4, Final: 2e-5, Warmup: 500},
	} {
		var steps []float64
		for step := 1000; step <= 20000; step += 500 {
			steps = append(steps, float64(step))
		}
		preds, err := lawcore.Predict(lawcore.PredictRequest{Params: truth, WarmupSteps: 500,
			Curves: []lawcore.PredictCurve{{Name: s.Kind, Schedule: &s, Steps: steps}}})
		if err != nil {
			fmt.Println(err)
			return
		}
		curves = append(curves, lawcore.Curve{Name: s.Kind, Steps: preds[0].Steps, Loss: preds[0].Loss, Schedule: &s})
	}
	res, err := auto.Fit(context.Background(), lawcore.FitRequest{Curves: curves, WarmupSteps: 500}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Auto.Design)
	fmt.Println(res.Auto.Chosen.Law, res.Auto.Chosen.Lambda.Fixed(), res.Auto.Chosen.Lambda.Fit)
	// Output:
	// leave one curve out and forecast
	// annealing 0.999 false
}
