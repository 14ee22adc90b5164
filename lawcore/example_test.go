package lawcore_test

import (
	"context"
	"fmt"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Predict gives the loss curve of any schedule from a law's parameters: here the paper's
// Fig. 2 parameters and a 60K-step cosine schedule (the paper's Fig. 2 prediction).
func ExamplePredict() {
	fig2 := lawcore.Values{"L0": 2.628, "A": 0.4297, "alpha": 0.5498, "C": 0.4108, "lambda": 0.999}
	preds, err := lawcore.Predict(lawcore.PredictRequest{
		Params:      fig2,
		WarmupSteps: 500,
		Curves: []lawcore.PredictCurve{
			{Name: "constant", Schedule: &schedule.Schedule{Kind: schedule.KindConstant, Total: 60000, Peak: 2e-4}},
			{Name: "cosine", Schedule: &schedule.Schedule{Kind: schedule.KindCosine, Total: 60000, Peak: 2e-4, Final: 2e-5}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range preds {
		fmt.Printf("%s: final loss %.4f at step %d\n", p.Name, p.FinalLoss, p.Total)
	}
	// Output:
	// constant: final loss 2.7376 at step 60000
	// cosine: final loss 2.7058 at step 60000
}

// Fit recovers a law's parameters from loss curves: here two curves made by the law itself
// (a constant and a cosine schedule of 20K steps), fitted back.
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
	res, err := lawcore.Fit(context.Background(), lawcore.FitRequest{Curves: curves, WarmupSteps: 500}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := res.Params
	fmt.Printf("L0 %.3f, A %.3f, alpha %.3f, C %.3f (lambda %g held)\n", p["L0"], p["A"], p["alpha"], p["C"], p["lambda"])
	fmt.Println("mean relative error below 1e-9:", res.FitMetrics.PredE < 1e-9)
	// Output:
	// L0 2.500, A 0.450, alpha 0.500, C 0.400 (lambda 0.999 held)
	// mean relative error below 1e-9: true
}
