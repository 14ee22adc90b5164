package analysis

import (
	"context"
	"fmt"
)

// With the paper's Fig. 2 parameters a constant learning rate ends lower than a cosine for
// short runs and higher for long ones; the crossover is bisected to the step.
func ExampleConstantVsCosine() {
	o := DefaultConstantVsCosineOptions()
	o.CurveTotals = nil
	res, err := ConstantVsCosine(context.Background(), o, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("cosine ends at least as low as constant from %d steps (loss %.4f)\n", res.Crossover.Total, res.Crossover.CosineLoss)
	// Output: cosine ends at least as low as constant from 23855 steps (loss 2.8101)
}

// The optimal annealing ratio of a WSD schedule (cosine decay to 0) for two budgets.
func ExampleWSDRatio() {
	o := DefaultWSDRatioOptions()
	o.Totals = []int{20000, 100000}
	res, err := WSDRatio(context.Background(), o, nil)
	if err != nil {
		panic(err)
	}
	for _, opt := range res.Optima {
		fmt.Printf("%d steps: decay the last %.1f%% (final loss %.4f)\n", opt.Total, 100*opt.Ratio, opt.Final.Loss)
	}
	// Output:
	// 20000 steps: decay the last 25.1% (final loss 2.7734)
	// 100000 steps: decay the last 14.2% (final loss 2.6339)
}

// The paper's Table 3: the steps each way of fitting needs, for 100 points 1K steps apart.
func ExampleComputeToFit() {
	res, _ := ComputeToFit(DefaultComputeOptions())
	for _, r := range res.Rows {
		fmt.Printf("%-10s %-26s %8.0fK %6.2f%%\n", r.Law, r.Schedule, r.Steps/1000, r.Percent)
	}
	// Output:
	// Chinchilla cosine                         5050K 100.00%
	// Chinchilla WSD (20% annealing)            1090K  21.58%
	// Chinchilla WSD (10% annealing)             595K  11.78%
	// this law   one run of 50000 steps           50K   0.99%
}
