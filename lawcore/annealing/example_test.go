package annealing_test

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore/annealing"
)

// The law's two terms apart, under the paper's Fig. 2 parameters: the loss after a forward area
// of 4 (20K steps at 2e-4) with no annealing area, as a constant run ends, and with an annealing
// area of 0.4, as a decay builds. By hand: 0.430 * 4^-0.55 = 0.2006, 0.411 * 0.4 = 0.1644.
func ExampleParams_Loss() {
	fig2 := annealing.Params{L0: 2.628, A: 0.430, Alpha: 0.550, C: 0.411, Lambda: 0.999}
	fmt.Printf("%.4f\n", fig2.Loss(4, 0))
	fmt.Printf("%.4f\n", fig2.Loss(4, 0.4))
	s1Term, s2Term := fig2.Terms(4, 0.4)
	fmt.Printf("A*S1^-alpha %.4f, C*S2 %.4f\n", s1Term, s2Term)
	// Output:
	// 2.8286
	// 2.6642
	// A*S1^-alpha 0.2006, C*S2 0.1644
}
