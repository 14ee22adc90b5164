// Package laws makes every law of the calculator available by name: importing it registers
// them with lawcore. A new law is one package of its own plus one line here.
package laws

import (
	// The scaling law with learning-rate annealing (Tissue et al., 2024), lawcore's default.
	_ "github.com/lawcalc/annealing/lawcore/annealing"
	// The Multi-Power Law (Luo et al., ICLR 2025).
	_ "github.com/lawcalc/annealing/lawcore/multipower"
	// The paper's two variants (its appendix).
	_ "github.com/lawcalc/annealing/lawcore/lrweighted"
	_ "github.com/lawcalc/annealing/lawcore/s2power"

	// The model-size law (the paper's Sec. 4.4).
	_ "github.com/lawcalc/annealing/lawcore/sizelaw"
)
