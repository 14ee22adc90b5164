// Package sizelaw is the model-size extension of the annealing law (the paper's Sec. 4.4,
// Eq. 5), as a law of lawcore's fit engine:
//
//	L(s, N) = L0 + A*S1^(-alpha) + B*N^(-beta) - C*S2*N^gamma
//
// with N the number of non-embedding parameters, given with each curve (lawcore.Curve.Size).
// At a fixed N it is the plain law with L0' = L0 + B*N^(-beta) and C' = C*N^gamma (see
// Params.At), so everything that predicts with the annealing law predicts a size too.
//
// Identifiability: the data only see L0 + B*N^(-beta) at the fitted sizes. With curves of two
// sizes, three numbers (L0, B, beta) must explain two, so beta cannot be fitted; the fit then
// holds beta (at DefaultBeta, the Chinchilla paper's exponent of N, or at the request's
// fixed value) and says so in its note. Predictions at the fitted sizes do not depend on that
// choice; predictions at other sizes do. Curves of one size cannot fit B, beta or gamma at
// all: the fit refuses them.
package sizelaw

import (
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Name names the model-size law in requests and results.
const Name = "size"

// DefaultBeta is the exponent of N held fixed when only two sizes are fitted: Hoffmann et al.
// (2022) fit L = E + A/N^0.34 + B/D^0.28.
const DefaultBeta = 0.34

// Law is the model-size law. It registers itself with lawcore when the package is imported.
var Law lawcore.Law = law{}

func init() { lawcore.Register(Law) }

// Indices of the parameter vector.
const (
	iL0 = iota
	iA
	iAlpha
	iB
	iBeta
	iC
	iGamma
	iLambda
)

// The start grid over the parameters the law is not linear in.
var (
	alphaGrid = numeric.Logspace(0.01, 4, 24)
	betaGrid  = numeric.Logspace(0.02, 2, 12)
	gammaGrid = numeric.Logspace(0.002, 1.5, 16)
)

var spec = &lawcore.Spec{
	Name:      Name,
	Title:     "model-size law",
	NeedsSize: true,
	Formula:   "L(s, N) = L0 + A·S1(s)^(−α) + B·N^(−β) − C·S2(s)·N^γ",
	Reference: "Tissue et al., Scaling Law with Learning Rate Annealing, Sec. 4.4, Eq. 5",
	Params: []lawcore.Param{
		{Name: "L0", Symbol: "L0", Meaning: "the loss with unlimited training and an unlimited model", Domain: lawcore.Positive, Default: 1.9, Linear: true, Prior: annealing.PriorL0},
		{Name: "A", Symbol: "A", Meaning: "the scale of the power law in the forward area S1", Domain: lawcore.Positive, Default: 0.45, Linear: true},
		{Name: "alpha", Symbol: "α", Meaning: "the exponent of the power law in S1", Domain: lawcore.Positive, Default: 0.5, Grid: alphaGrid, Prior: annealing.PriorAlpha},
		{Name: "B", Symbol: "B", Meaning: "the scale of the power law in the model size N", Domain: lawcore.Positive, Default: 40, Linear: true},
		{Name: "beta", Symbol: "β", Meaning: "the exponent of the power law in N", Domain: lawcore.Positive, Default: DefaultBeta, Grid: betaGrid,
			Prior: &lawcore.Prior{Median: 0.3, Spread: 0.7, Source: "β near 0.3 (90%: 0.1-0.95): Chinchilla's model-size exponent (0.34, Hoffmann et al. 2022), Kaplan et al.'s (0.076)"}},
		{Name: "C", Symbol: "C", Meaning: "the loss drop per unit of annealing area, at N = 1", Domain: lawcore.Positive, Default: 0.01, Linear: true},
		{Name: "gamma", Symbol: "γ", Meaning: "how the annealing term grows with N", Domain: lawcore.Positive, Default: 0.2, Grid: gammaGrid},
		{Name: "lambda", Symbol: "λ", Meaning: "the decay factor of the annealing momentum", Domain: lawcore.UnitInterval, Default: lawcore.DefaultLambda, Held: true},
	},
	Terms:      [2]lawcore.Term{{Param: "A", Label: "A·S1^−α"}, {Param: "C", Label: "C·S2·N^γ"}},
	Convention: schedule.WarmupPeak,
}

type law struct{}

func (law) Spec() *lawcore.Spec { return spec }

// checkSizes reports a run without a usable model size.
func checkSizes(runs []lawcore.Run) error {
	for _, r := range runs {
		if !(r.Size > 0) || math.IsInf(r.Size, 0) {
			return input.Errorf(fmt.Sprintf("curve %q", r.Name), "size", "the model size N must be a positive number of parameters (such as 25e6), got %v", r.Size)
		}
	}
	return nil
}

// Hold holds beta when the fitted runs have two sizes, and refuses runs of one size.
func (law) Hold(runs []lawcore.Run) ([]string, string, error) {
	if err := checkSizes(runs); err != nil {
		return nil, "", err
	}
	sizes := map[float64]bool{}
	for _, r := range runs {
		sizes[r.Size] = true
	}
	switch len(sizes) {
	case 1:
		return nil, "", input.Errorf("", "curves", "every fitted curve has the model size %g: the model-size law needs fitted curves of at least two sizes (fit one size with the plain law)", runs[0].Size)
	case 2:
		return []string{"beta"}, fmt.Sprintf("two sizes cannot separate L0, B and beta: beta is held at %g (give \"fixed\": {\"beta\": ...} to choose it); "+
			"predictions at the two fitted sizes do not depend on it, predictions at other sizes do", DefaultBeta), nil
	}
	return nil, "", nil
}

func (law) Bind(runs []lawcore.Run, opts lawcore.BindOptions) (lawcore.Model, error) {
	if err := checkSizes(runs); err != nil {
		return nil, err
	}
	free := func(i int) bool { return len(opts.Free) > i && opts.Free[i] }
	m := &model{areas: annealing.NewAreaTable(runs, free(iLambda)), fitBeta: free(iBeta)}
	for _, r := range runs {
		for range r.Steps {
			m.logN = append(m.logN, math.Log(r.Size))
		}
	}
	return m, nil
}

// model is the model-size law at the points of some runs.
type model struct {
	areas   *annealing.AreaTable
	logN    []float64 // ln N at each point
	fitBeta bool
}

func (m *model) Points() int { return m.areas.Points() }

func (m *model) Thin(every int) lawcore.Model {
	t := &model{areas: m.areas.Thin(every), fitBeta: m.fitBeta}
	for k := 0; k < len(m.logN); k += every {
		t.logN = append(t.logN, m.logN[k])
	}
	return t
}

// Subset shares the areas computed already (lawcore.Subsetter: the refits of a fit's intervals).
func (m *model) Subset(keep []bool) lawcore.Model {
	s := &model{areas: m.areas.Subset(keep), fitBeta: m.fitBeta}
	for k, kp := range keep {
		if kp {
			s.logN = append(s.logN, m.logN[k])
		}
	}
	return s
}

func (m *model) Eval(theta []float64, from int, pred, jac []float64) {
	t := m.areas.At(theta[iLambda])
	l0, a, alpha, b, beta, c, gamma := theta[iL0], theta[iA], theta[iAlpha], theta[iB], theta[iBeta], theta[iC], theta[iGamma]
	d := len(theta)
	for i := range pred {
		k := from + i
		u := math.Exp(-alpha * t.LogS1[k])
		nb := math.Exp(-beta * m.logN[k]) // N^-beta
		ng := math.Exp(gamma * m.logN[k]) // N^gamma
		pred[i] = l0 + a*u + b*nb - c*t.S2[k]*ng
		if jac == nil {
			continue
		}
		row := jac[i*d : i*d+d]
		row[iL0] = 1
		row[iA] = u
		row[iAlpha] = -a * u * t.LogS1[k]
		row[iB] = nb
		row[iBeta] = -b * nb * m.logN[k]
		row[iC] = -t.S2[k] * ng
		row[iGamma] = -c * t.S2[k] * ng * m.logN[k]
		row[iLambda] = 0
		if t.DS2 != nil {
			row[iLambda] = -c * t.DS2[k] * ng
		}
	}
}

func (m *model) StartGrid(base []float64) lawcore.StartGrid {
	return lawcore.ProductGrid(base,
		lawcore.Axis{Param: iAlpha, Values: alphaGrid},
		lawcore.Axis{Param: iBeta, Values: lawcore.GridOrHeld(m.fitBeta, betaGrid, base[iBeta])},
		lawcore.Axis{Param: iGamma, Values: gammaGrid})
}

// Params are the model-size law's parameters, typed.
type Params struct {
	L0     float64 `json:"L0"`
	A      float64 `json:"A"`
	Alpha  float64 `json:"alpha"`
	B      float64 `json:"B"`
	Beta   float64 `json:"beta"`
	C      float64 `json:"C"`
	Gamma  float64 `json:"gamma"`
	Lambda float64 `json:"lambda"`
}

// Values are the parameters by name, as lawcore's requests and results carry them.
func (p Params) Values() lawcore.Values {
	return lawcore.Values{"L0": p.L0, "A": p.A, "alpha": p.Alpha, "B": p.B, "beta": p.Beta, "C": p.C, "gamma": p.Gamma, "lambda": p.Lambda}
}

// ParamsOf types parameters given by name, checking them.
func ParamsOf(v lawcore.Values) (Params, error) {
	theta, err := spec.Theta(v)
	if err != nil {
		return Params{}, err
	}
	return Params{L0: theta[iL0], A: theta[iA], Alpha: theta[iAlpha], B: theta[iB], Beta: theta[iBeta], C: theta[iC], Gamma: theta[iGamma], Lambda: theta[iLambda]}, nil
}

// Loss is the law at areas s1, s2 and size n.
func (p Params) Loss(s1, s2, n float64) float64 {
	return p.L0 + p.A*math.Pow(s1, -p.Alpha) + p.B*math.Pow(n, -p.Beta) - p.C*s2*math.Pow(n, p.Gamma)
}

// At returns the plain annealing law at size n: L0 + B*n^(-beta) as L0 and C*n^gamma as C.
func (p Params) At(n float64) annealing.Params {
	return annealing.Params{L0: p.L0 + p.B*math.Pow(n, -p.Beta), A: p.A, Alpha: p.Alpha, C: p.C * math.Pow(n, p.Gamma), Lambda: p.Lambda}
}
