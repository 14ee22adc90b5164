// Package s2power is the second variant of the annealing law that its paper tried (Tissue et
// al., 2024, appendix "L ∝ S2^zeta rather than L ∝ S2?"): the loss drop is a power of the
// annealing area,
//
//	L(s) = L0 + A*S1(s)^(-alpha) - C*S2(s)^zeta,
//
// with zeta > 0 fitted (zeta = 1 is the annealing law; the paper found 1.125 and a marginal
// gain). S2^zeta has no value where S2 < 0, which a re-warmup (or a warmup counted as run)
// makes happen: such a run is refused with a message naming it. It registers itself with
// lawcore when imported.
package s2power

import (
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Name names the law in requests and results.
const Name = "s2-power"

// Law is the S2^zeta variant.
var Law lawcore.Law = law{}

func init() { lawcore.Register(Law) }

// Indices of the parameter vector.
const (
	iL0 = iota
	iA
	iAlpha
	iC
	iZeta
	iLambda
)

var (
	alphaGrid  = numeric.Logspace(0.01, 4, 48)
	zetaGrid   = []float64{0.6, 0.8, 1, 1.25, 1.6}
	lambdaGrid = []float64{0.95, 0.99, 0.995, 0.999, 0.9995}
)

var spec = &lawcore.Spec{
	Name:      Name,
	Title:     "annealing law with S2^ζ",
	Formula:   "L(s) = L0 + A·S1(s)^(−α) − C·S2(s)^ζ",
	Reference: "Tissue et al., Scaling Law with Learning Rate Annealing, appendix: L ∝ S2^ζ rather than L ∝ S2",
	Params: []lawcore.Param{
		{Name: "L0", Symbol: "L0", Meaning: "the loss with unlimited training", Domain: lawcore.Positive, Default: 2.628, Linear: true, Prior: annealing.PriorL0},
		{Name: "A", Symbol: "A", Meaning: "the scale of the power law in the forward area S1", Domain: lawcore.Positive, Default: 0.430, Linear: true},
		{Name: "alpha", Symbol: "α", Meaning: "the exponent of the power law in S1", Domain: lawcore.Positive, Default: 0.550, Grid: alphaGrid, Prior: annealing.PriorAlpha},
		{Name: "C", Symbol: "C", Meaning: "the scale of the loss drop", Domain: lawcore.Positive, Default: 0.411, Linear: true},
		{Name: "zeta", Symbol: "ζ", Meaning: "the power of the annealing area in the loss drop (1: the annealing law)", Domain: lawcore.Positive, Default: 1, Grid: zetaGrid,
			Prior: &lawcore.Prior{Median: 1, Spread: 0.3, Source: "ζ near 1, the annealing law (90%: 0.6-1.6): the paper's fit of this variant (1.05 on its Fig. 2)"}},
		{Name: "lambda", Symbol: "λ", Meaning: "the decay factor of the annealing momentum", Domain: lawcore.UnitInterval, Default: lawcore.DefaultLambda, Held: true, Grid: lambdaGrid, Prior: annealing.PriorLambda},
	},
	Terms:      [2]lawcore.Term{{Param: "A", Label: "A·S1^−α"}, {Param: "C", Label: "C·S2^ζ"}},
	Convention: schedule.WarmupPeak,
}

type law struct{}

func (law) Spec() *lawcore.Spec { return spec }

// Bind refuses a run whose annealing area is negative at one of its steps, for the lambda it
// will first be evaluated with.
func (law) Bind(runs []lawcore.Run, opts lawcore.BindOptions) (lawcore.Model, error) {
	lambda := lawcore.DefaultLambda
	if len(opts.Theta) > iLambda {
		lambda = opts.Theta[iLambda]
	}
	for _, r := range runs {
		t := annealing.NewAreaTable([]lawcore.Run{r}, false).At(lambda)
		for k, s2 := range t.S2 {
			if s2 < 0 {
				return nil, input.Errorf(fmt.Sprintf("curve %q", r.Name), fmt.Sprintf("steps[%d]", k),
					"the annealing area S2 is negative at step %d (the learning rate rose: a re-warmup, or a warmup counted as run), where S2^ζ has no value: use another law, or count the warmup at its peak", r.Steps[k])
			}
		}
	}
	free := len(opts.Free) > iLambda && opts.Free[iLambda]
	return &model{areas: annealing.NewAreaTable(runs, free), fitZeta: len(opts.Free) > iZeta && opts.Free[iZeta]}, nil
}

// model is the law at the points of some runs.
type model struct {
	areas   *annealing.AreaTable
	fitZeta bool
}

func (m *model) Points() int { return m.areas.Points() }

func (m *model) Thin(every int) lawcore.Model {
	return &model{areas: m.areas.Thin(every), fitZeta: m.fitZeta}
}

// Subset shares the areas computed already (lawcore.Subsetter: the refits of a fit's intervals).
func (m *model) Subset(keep []bool) lawcore.Model {
	return &model{areas: m.areas.Subset(keep), fitZeta: m.fitZeta}
}

func (m *model) Eval(theta []float64, from int, pred, jac []float64) {
	t := m.areas.At(theta[iLambda])
	l0, a, alpha, c, zeta := theta[iL0], theta[iA], theta[iAlpha], theta[iC], theta[iZeta]
	d := len(theta)
	for i := range pred {
		k := from + i
		u := math.Exp(-alpha * t.LogS1[k])
		// S2^zeta, extended as -|S2|^zeta below 0 so that a fit whose lambda wanders where
		// some S2 turns negative stays defined (Bind refused runs negative at the start)
		s2 := t.S2[k]
		v, logS2 := 0.0, 0.0
		if s2 != 0 {
			logS2 = math.Log(math.Abs(s2))
			v = math.Copysign(math.Exp(zeta*logS2), s2)
		}
		pred[i] = l0 + a*u - c*v
		if jac == nil {
			continue
		}
		row := jac[i*d : i*d+d]
		row[iL0], row[iA], row[iAlpha], row[iC] = 1, u, -a*u*t.LogS1[k], -v
		row[iZeta] = -c * v * logS2
		row[iLambda] = 0
		if t.DS2 != nil && s2 != 0 {
			// dv/dS2 = zeta*|S2|^(zeta-1) = zeta*v/S2
			row[iLambda] = -c * zeta * v / s2 * t.DS2[k]
		}
	}
}

func (m *model) StartGrid(base []float64) lawcore.StartGrid {
	return lawcore.ProductGrid(base,
		lawcore.Axis{Param: iLambda, Values: lawcore.GridOrHeld(m.areas.DS2 != nil, lambdaGrid, base[iLambda])},
		lawcore.Axis{Param: iZeta, Values: lawcore.GridOrHeld(m.fitZeta, zetaGrid, base[iZeta])},
		lawcore.Axis{Param: iAlpha, Values: alphaGrid})
}
