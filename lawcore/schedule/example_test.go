package schedule_test

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore/schedule"
)

// A schedule description expands to the learning rate of every step: here 2 warmup steps from
// 0, then a cosine from the peak down to the final rate at step 8.
func ExampleSchedule_LR() {
	s := schedule.Schedule{Kind: schedule.KindCosine, Total: 8, Peak: 1e-3, Final: 1e-4, Warmup: 2}
	lr, err := s.LR()
	if err != nil {
		fmt.Println(err)
		return
	}
	for step, eta := range lr {
		fmt.Printf("%d %.3g\n", step, eta)
	}
	// Output:
	// 0 0
	// 1 0.0005
	// 2 0.001
	// 3 0.00094
	// 4 0.000775
	// 5 0.00055
	// 6 0.000325
	// 7 0.00016
	// 8 0.0001
}

// A constant run has no annealing area; a drop of the learning rate builds S2 as the momentum
// of the drop decays (here a halving at step 2 with lambda 0.5: m = 0.5, 0.25, 0.125).
func ExampleComputeAreas() {
	a, err := schedule.ComputeAreas([]float64{1, 1, 0.5, 0.5, 0.5}, 0.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	for step := range a.S1 {
		fmt.Printf("step %d: S1 %.3g, S2 %.4g\n", step, a.S1[step], a.S2[step])
	}
	// Output:
	// step 0: S1 1, S2 0
	// step 1: S1 2, S2 0
	// step 2: S1 2.5, S2 0.5
	// step 3: S1 3, S2 0.75
	// step 4: S1 3.5, S2 0.875
}
