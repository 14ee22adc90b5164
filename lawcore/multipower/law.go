package multipower

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Name names the Multi-Power Law in requests and results.
const Name = "multi-power"

// Tolerance is the tolerance of the grouped loss-drop sum in predictions and in the metrics
// of a fit: the error of LD(t) is at most this times B times the total LR change before t
// (see the package documentation), 2e-6 of loss on the release's curves; the errors measured
// are four orders of magnitude smaller still.
const Tolerance = 1e-5

// fitTolerance is the grouping tolerance while fitting: a bound of 1e-3 of the largest
// possible loss drop, the errors measured at it being under 1e-5 of it (about 1e-6 of the
// loss on the release's curves, against residuals near 1e-3): the optimum comes out the same
// as with 1e-4, with a third fewer terms.
const fitTolerance = 1e-3

// refreeze is the change of ln C, ln beta or ln gamma that calls for a new grouping.
const refreeze = 0.5

// Law is the Multi-Power Law. It registers itself with lawcore when the package is imported.
var Law lawcore.Law = law{}

func init() { lawcore.Register(Law) }

// Indices of the parameter vector.
const (
	iL0 = iota
	iA
	iAlpha
	iB
	iC
	iBeta
	iGamma
)

// The start grid: the loss drop's shape (C, beta, gamma) and alpha. C is gridded through
// c = C * eta^(1-gamma) at the peak LR eta of the fitted curves, the growth of C*x per step
// of training at the peak: G reaches a given level after about 1/c steps, which is what the
// data can tell, whatever gamma is.
var (
	gammaGrid = []float64{0.3, 0.55, 0.8}
	betaGrid  = []float64{0.3, 0.6, 1}
	stepGrid  = []float64{1e-3, 1e-2, 1e-1, 1}
	alphaGrid = numeric.Logspace(0.01, 4, 48)
)

// The priors of the loss-drop's parameters (lawcore.Prior), from the fits of the law's paper
// (Luo et al. 2025; its release's defaults at peak LR 3e-4: B 364, β 0.58, γ 0.64). L0 and α
// take the annealing law's.
var (
	priorB = &lawcore.Prior{Median: 0.11, Spread: 1.5, Scale: lawcore.ScalePeakLR,
		Source: "B times the peak LR near 0.11, the largest loss drop (90%: 0.01-1.3): the Multi-Power Law's release fits (B 364 at peak 3e-4)"}
	priorBeta = &lawcore.Prior{Median: 0.58, Spread: 0.5,
		Source: "β near 0.58 (90%: 0.25-1.3): the Multi-Power Law's release fits"}
	priorGamma = &lawcore.Prior{Median: 0.64, Spread: 0.5,
		Source: "γ near 0.64 (90%: 0.28-1.5): the Multi-Power Law's release fits"}
)

var spec = &lawcore.Spec{
	Name:      Name,
	Title:     "Multi-Power Law",
	Formula:   "L(t) = L0 + A·(S1(t)+S_W)^(−α) − LD(t),  LD(t) = B·Σ_k (η_{k−1}−η_k)·G(η_k^(−γ)·S_k(t)),  G(x) = 1 − (C·x+1)^(−β)",
	Reference: "Luo, Wen, Hu, et al., A Multi-Power Law for Loss Curve Prediction Across Learning Rate Schedules, ICLR 2025 (arXiv 2503.12811)",
	Params: []lawcore.Param{
		{Name: "L0", Symbol: "L0", Meaning: "the loss with unlimited training", Domain: lawcore.Positive, Default: 3.04, Linear: true, Prior: annealing.PriorL0},
		{Name: "A", Symbol: "A", Meaning: "the scale of the power law in the learning-rate area", Domain: lawcore.Positive, Default: 0.52, Linear: true},
		{Name: "alpha", Symbol: "α", Meaning: "the exponent of that power law", Domain: lawcore.Positive, Default: 0.51, Grid: alphaGrid, Prior: annealing.PriorAlpha},
		{Name: "B", Symbol: "B", Meaning: "the scale of the loss drop", Domain: lawcore.Positive, Default: 364, Linear: true, Prior: priorB},
		{Name: "C", Symbol: "C", Meaning: "how fast the loss drop saturates with the area after a decrease", Domain: lawcore.Positive, Default: 2.07,
			Grid: stepGrid}, // times peak^(gamma-1): see StartGrid
		{Name: "beta", Symbol: "β", Meaning: "the power of the saturation G", Domain: lawcore.Positive, Default: 0.58, Grid: betaGrid, Prior: priorBeta},
		{Name: "gamma", Symbol: "γ", Meaning: "how the saturation depends on the learning rate reached", Domain: lawcore.Positive, Default: 0.64, Grid: gammaGrid, Prior: priorGamma},
	},
	Terms:      [2]lawcore.Term{{Param: "A", Label: "A·(S1+S_W)^−α"}, {Param: "B", Label: "LD"}},
	Convention: schedule.WarmupActual,
	// every step of a long run costs tens of grouped terms: a 72,000-step line takes about a
	// second in the page
	LinePoints: 2000,
}

type law struct{}

func (law) Spec() *lawcore.Spec { return spec }

func (law) Bind(runs []lawcore.Run, opts lawcore.BindOptions) (lawcore.Model, error) {
	m := &model{tol: fitTolerance, predict: opts.Predict}
	if opts.Predict {
		m.tol = Tolerance
	}
	for ri, r := range runs {
		s := newSeries(r.LR)
		m.series = append(m.series, s)
		for _, t := range r.Steps {
			m.steps = append(m.steps, stepRef{curve: ri, t: t})
			m.lnP = append(m.lnP, math.Log(s.prefix[t]))
		}
	}
	return m, nil
}

// model is the Multi-Power Law at the steps of some runs. While fitting, it keeps one
// grouping of the loss-drop sum (frozen) chosen at an anchor point, and the loss drops of
// every point for the last parameters it saw; in predictions it groups each chunk of steps
// for the exact parameters, to Tolerance, unless it was anchored: then, as in a fit, one
// grouping of every step serves every parameter set within refreeze of the anchor (a band's
// replicates, whose spread the grouping's error, common to them, then leaves alone).
type model struct {
	series  []*series
	steps   []stepRef
	lnP     []float64 // ln(S1 + S_W) at each point
	tol     float64
	predict bool

	frozen   *frozen
	anchor   [3]float64 // ln C, ln beta, ln gamma of the grouping
	anchored bool

	drops     []drop     // the loss drops of every point (fitting) or of a chunk (prediction)
	dropsAt   [4]float64 // C, beta, gamma and whether derivatives were computed
	dropsFrom int        // the first point of a prediction's chunk
	dropsOK   bool
}

func (m *model) Points() int { return len(m.steps) }

func (m *model) Thin(every int) lawcore.Model {
	t := &model{series: m.series, tol: m.tol, predict: m.predict}
	for k := 0; k < len(m.steps); k += every {
		t.steps = append(t.steps, m.steps[k])
		t.lnP = append(t.lnP, m.lnP[k])
	}
	return t
}

// shapeOf is the loss drop's shape at theta.
func (m *model) shapeOf(theta []float64) *shape {
	return newShape(theta[iC], theta[iBeta], theta[iGamma], m.tol)
}

func (m *model) Anchor(theta []float64, force bool) bool {
	at := [3]float64{math.Log(theta[iC]), math.Log(theta[iBeta]), math.Log(theta[iGamma])}
	if m.anchored && !force {
		moved := false
		for i := range at {
			moved = moved || math.Abs(at[i]-m.anchor[i]) > refreeze
		}
		if !moved {
			return false
		}
	}
	if m.frozen == nil {
		m.frozen = &frozen{}
	}
	m.frozen.group(m.series, m.steps, m.shapeOf(theta))
	m.anchor, m.anchored, m.dropsOK = at, true, false
	return true
}

// dropsFor computes the loss drops per unit B of the points from, from+1, ..., from+n-1 for
// theta (with their derivatives in ln C, beta and gamma when grad is set), unless they are
// those computed last.
func (m *model) dropsFor(theta []float64, from, n int, grad bool) []drop {
	key := [4]float64{theta[iC], theta[iBeta], theta[iGamma], 0}
	if grad {
		key[3] = 1
	}
	if m.predict && !m.anchored {
		if !(m.dropsOK && key == m.dropsAt && from == m.dropsFrom && len(m.drops) == n) {
			if m.frozen == nil {
				m.frozen = &frozen{}
			}
			sh := m.shapeOf(theta)
			m.frozen.group(m.series, m.steps[from:from+n], sh)
			m.drops = growDrops(m.drops, n)
			m.frozen.eval(sh, m.drops, grad)
			m.dropsAt, m.dropsFrom, m.dropsOK = key, from, true
		}
		return m.drops
	}
	if !m.anchored {
		m.Anchor(theta, true)
	}
	if !(m.dropsOK && key == m.dropsAt) {
		m.drops = growDrops(m.drops, len(m.steps))
		m.frozen.eval(m.shapeOf(theta), m.drops, grad)
		m.dropsAt, m.dropsOK = key, true
	}
	return m.drops[from : from+n]
}

func growDrops(d []drop, n int) []drop {
	if cap(d) < n {
		return make([]drop, n)
	}
	return d[:n]
}

func (m *model) Eval(theta []float64, from int, pred, jac []float64) {
	// a fit needs the shape's derivatives; a prediction only the linear parameters' columns
	grad := jac != nil && !m.predict
	drops := m.dropsFor(theta, from, len(pred), grad)
	l0, a, alpha, b := theta[iL0], theta[iA], theta[iAlpha], theta[iB]
	d := len(theta)
	for i := range pred {
		lnP := m.lnP[from+i]
		u := 0.0
		if a != 0 { // A*(S1+S_W)^(-alpha) is zero when A is, even where the power overflows
			u = numeric.Exp(-alpha * lnP)
		}
		dr := &drops[i]
		pred[i] = l0 + a*u - b*dr.ld
		if jac == nil {
			continue
		}
		row := jac[i*d : i*d+d]
		row[iL0] = 1
		row[iA] = u
		row[iAlpha] = -a * u * lnP
		row[iB] = -dr.ld
		row[iC], row[iBeta], row[iGamma] = 0, 0, 0
		if grad {
			row[iC] = -b * dr.dLnC / theta[iC]
			row[iBeta] = -b * dr.dBeta
			row[iGamma] = -b * dr.dGamma
		}
	}
}

func (m *model) StartGrid(base []float64) lawcore.StartGrid {
	peak := 0.0
	for _, s := range m.series {
		for _, e := range s.eta {
			peak = math.Max(peak, e)
		}
	}
	// C is set from a step size of the grid: C = step * peak^(gamma-1) (see the package doc)
	g := lawcore.ProductGrid(base, lawcore.Axis{Param: iGamma, Values: gammaGrid}, lawcore.Axis{Param: iBeta, Values: betaGrid},
		lawcore.Axis{Param: iC, Values: stepGrid}, lawcore.Axis{Param: iAlpha, Values: alphaGrid})
	for _, cell := range g.Cells {
		cell[iC] *= math.Pow(peak, cell[iGamma]-1)
	}
	return g
}

// Params are the Multi-Power Law's seven parameters, typed.
type Params struct {
	L0    float64 `json:"L0"`
	A     float64 `json:"A"`
	Alpha float64 `json:"alpha"`
	B     float64 `json:"B"`
	C     float64 `json:"C"`
	Beta  float64 `json:"beta"`
	Gamma float64 `json:"gamma"`
}

// Values are the parameters by name, as lawcore's requests and results carry them.
func (p Params) Values() lawcore.Values {
	return lawcore.Values{"L0": p.L0, "A": p.A, "alpha": p.Alpha, "B": p.B, "C": p.C, "beta": p.Beta, "gamma": p.Gamma}
}

// ParamsOf types parameters given by name, checking them.
func ParamsOf(v lawcore.Values) (Params, error) {
	theta, err := spec.Theta(v)
	if err != nil {
		return Params{}, err
	}
	return Params{L0: theta[iL0], A: theta[iA], Alpha: theta[iAlpha], B: theta[iB], C: theta[iC], Beta: theta[iBeta], Gamma: theta[iGamma]}, nil
}
