package annealing

import (
	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Name names the law in requests and results: lawcore's default law.
const Name = lawcore.DefaultLaw

// Law is the scaling law with learning-rate annealing (Tissue et al., 2024):
// L(s) = L0 + A*S1(s)^(-alpha) - C*S2(s), its areas those of an AreaTable.
var Law lawcore.Law = annealingLaw{}

func init() { lawcore.Register(Law) }

// Indices of the annealing law's parameter vector.
const (
	annL0 = iota
	annA
	annAlpha
	annC
	annLambda
)

// alphaGrid are the alphas of the start search: geometric from 0.01 to 4.
var alphaGrid = numeric.Logspace(0.01, 4, 48)

// lambdaGrid are the lambdas of the start search when lambda is fitted.
var lambdaGrid = []float64{0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995}

// The priors of the law's parameters (lawcore.Prior), which the paper's variants and the
// model-size law share: published fits of laws of this form, each median their middle and
// each spread wide enough that the 90% range holds all of them.
var (
	// PriorL0 is L0 over the lowest loss fitted: 0.91 in the paper's Fig. 2 fit (L0 2.63,
	// losses down to 2.88), 0.85 for Chinchilla's irreducible loss (E 1.69, Hoffmann et al.
	// 2022, against final losses near 2), 0.95 in the Multi-Power Law's release fits (Luo et
	// al. 2025); 90% range 0.65 to 1.25.
	PriorL0 = &lawcore.Prior{Median: 0.9, Spread: 0.2, Scale: lawcore.ScaleLowestLoss,
		Source: "L0 near 0.9 of the lowest loss fitted (90%: 0.65-1.25): the paper's Fig. 2 fit (0.91), Chinchilla's irreducible loss (0.85), the Multi-Power Law's release fits (0.95)"}
	// PriorAlpha is alpha: 0.55 in the paper's Fig. 2 fit, 0.28 for Chinchilla's data exponent,
	// 0.4 to 0.6 in the Multi-Power Law's release fits; 90% range 0.2 to 1.0.
	PriorAlpha = &lawcore.Prior{Median: 0.45, Spread: 0.5,
		Source: "α near 0.45 (90%: 0.2-1.0): the paper's Fig. 2 fit (0.55), Chinchilla's data exponent (0.28), the Multi-Power Law's release fits (0.4-0.6)"}
	// PriorLambda is lambda's memory 1/(1-lambda), in steps: the paper discusses 0.99 to 0.999
	// (100 to 1,000 steps) and uses 0.999; median their geometric middle, 90% range 40 to 2,200.
	PriorLambda = &lawcore.Prior{Median: 300, Spread: 1.2, Scale: lawcore.ScaleMemory,
		Source: "λ's memory 1/(1−λ) near 300 steps (90%: 40-2,200): the paper discusses λ from 0.99 to 0.999 (100-1,000 steps)"}
)

var annealingSpec = &lawcore.Spec{
	Name:      Name,
	Title:     "annealing law",
	Formula:   "L(s) = L0 + A·S1(s)^(−α) − C·S2(s)",
	Reference: "Tissue, Wang, Wang, et al., Scaling Law with Learning Rate Annealing, arXiv 2408.11029 (2024)",
	Params: []lawcore.Param{
		{Name: "L0", Symbol: "L0", Meaning: "the loss with unlimited training", Domain: lawcore.Positive, Default: 2.628, Linear: true, Prior: PriorL0},
		{Name: "A", Symbol: "A", Meaning: "the scale of the power law in the forward area S1", Domain: lawcore.Positive, Default: 0.430, Linear: true},
		{Name: "alpha", Symbol: "α", Meaning: "the exponent of the power law in S1", Domain: lawcore.Positive, Default: 0.550, Grid: alphaGrid, Prior: PriorAlpha},
		{Name: "C", Symbol: "C", Meaning: "the loss drop per unit of annealing area S2", Domain: lawcore.Positive, Default: 0.411, Linear: true},
		{Name: "lambda", Symbol: "λ", Meaning: "the decay factor of the annealing momentum (about 1/(1−λ) steps of memory)", Domain: lawcore.UnitInterval,
			Default: lawcore.DefaultLambda, Held: true, Grid: lambdaGrid, Prior: PriorLambda},
	},
	Terms:      [2]lawcore.Term{{Param: "A", Label: "A·S1^−α"}, {Param: "C", Label: "C·S2"}},
	Convention: schedule.WarmupPeak,
}

type annealingLaw struct{}

func (annealingLaw) Spec() *lawcore.Spec { return annealingSpec }

func (annealingLaw) Bind(runs []lawcore.Run, opts lawcore.BindOptions) (lawcore.Model, error) {
	withDerivative := len(opts.Free) > annLambda && opts.Free[annLambda]
	return &annealingModel{areas: NewAreaTable(runs, withDerivative)}, nil
}

// annealingModel is the annealing law at the points of some runs.
type annealingModel struct {
	areas *AreaTable
}

func (m *annealingModel) Points() int { return m.areas.Points() }

func (m *annealingModel) Thin(every int) lawcore.Model {
	return &annealingModel{areas: m.areas.Thin(every)}
}

func (m *annealingModel) Subset(keep []bool) lawcore.Model {
	return &annealingModel{areas: m.areas.Subset(keep)}
}

func (m *annealingModel) Eval(theta []float64, from int, pred, jac []float64) {
	t := m.areas.At(theta[annLambda])
	n := len(pred)
	logS1, s2 := t.LogS1[from:from+n], t.S2[from:from+n]
	var ds2 []float64
	if t.DS2 != nil {
		ds2 = t.DS2[from : from+n]
	}
	// u = S1^-alpha = exp(-alpha ln S1) at each point, first held in pred
	numeric.MathExpTo(pred, logS1, -theta[annAlpha])
	predictionsAndRows(theta, pred, jac, logS1, s2, ds2)
}

// predictionsAndRows turns each u = S1^-alpha of pred into the law's loss and, unless jac is
// nil, writes the point's derivatives, its row of jac (ds2 nil: lambda held, its derivative 0).
// A loop of its own: see lawcore's package doc on loops.
//
//go:noinline
func predictionsAndRows(theta, pred, jac, logS1, s2, ds2 []float64) {
	l0, a, c := theta[annL0], theta[annA], theta[annC]
	d := len(theta)
	logS1, s2 = logS1[:len(pred)], s2[:len(pred)]
	for i, u := range pred {
		pred[i] = l0 + a*u - c*s2[i]
		if jac == nil {
			continue
		}
		row := jac[i*d : i*d+d]
		row[annL0] = 1
		row[annA] = u
		row[annAlpha] = -a * u * logS1[i]
		row[annC] = -s2[i]
		row[annLambda] = 0
		if ds2 != nil {
			row[annLambda] = -c * ds2[i]
		}
	}
}

func (m *annealingModel) StartGrid(base []float64) lawcore.StartGrid {
	return lawcore.ProductGrid(base, lawcore.Axis{Param: annLambda, Values: lawcore.GridOrHeld(m.areas.withDerivative, lambdaGrid, base[annLambda])}, lawcore.Axis{Param: annAlpha, Values: alphaGrid})
}
