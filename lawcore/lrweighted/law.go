// Package lrweighted is the first variant of the annealing law that its paper tried (Tissue
// et al., 2024, appendix "Adding a LR-weighted coefficient to S2?"): each momentum term of
// the annealing area is weighted by the learning rate of its step to the power epsilon,
//
//	L(s) = L0 + A*S1(s)^(-alpha) - C*S2_eps(s),   S2_eps(s) = sum_{i<=s} m_i * eta_i^epsilon,
//
// so that the annealing area stops growing when the learning rate anneals to nearly zero
// (the parameters hardly move then, and neither should the loss). epsilon >= 0 is fitted;
// epsilon = 0 is the annealing law. The paper found epsilon close to 0 and the fits alike.
// It registers itself with lawcore when imported.
package lrweighted

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Name names the law in requests and results.
const Name = "lr-weighted"

// Law is the LR-weighted variant.
var Law lawcore.Law = law{}

func init() { lawcore.Register(Law) }

// Indices of the parameter vector.
const (
	iL0 = iota
	iA
	iAlpha
	iC
	iEpsilon
	iLambda
)

var (
	alphaGrid   = numeric.Logspace(0.01, 4, 48)
	epsilonGrid = []float64{0.003, 0.03, 0.1, 0.3}
	lambdaGrid  = []float64{0.95, 0.99, 0.995, 0.999, 0.9995}
)

var spec = &lawcore.Spec{
	Name:      Name,
	Title:     "LR-weighted annealing law",
	Formula:   "L(s) = L0 + A·S1(s)^(−α) − C·Σ_i m_i·η_i^ε",
	Reference: "Tissue et al., Scaling Law with Learning Rate Annealing, appendix: adding a LR-weighted coefficient to S2",
	Params: []lawcore.Param{
		{Name: "L0", Symbol: "L0", Meaning: "the loss with unlimited training", Domain: lawcore.Positive, Default: 2.628, Linear: true, Prior: annealing.PriorL0},
		{Name: "A", Symbol: "A", Meaning: "the scale of the power law in the forward area S1", Domain: lawcore.Positive, Default: 0.430, Linear: true},
		{Name: "alpha", Symbol: "α", Meaning: "the exponent of the power law in S1", Domain: lawcore.Positive, Default: 0.550, Grid: alphaGrid, Prior: annealing.PriorAlpha},
		{Name: "C", Symbol: "C", Meaning: "the loss drop per unit of weighted annealing area", Domain: lawcore.Positive, Default: 0.411, Linear: true},
		{Name: "epsilon", Symbol: "ε", Meaning: "the power of the learning rate that weights each momentum term (0: the annealing law)", Domain: lawcore.Positive, Default: 0.03, Grid: epsilonGrid},
		{Name: "lambda", Symbol: "λ", Meaning: "the decay factor of the annealing momentum", Domain: lawcore.UnitInterval, Default: lawcore.DefaultLambda, Held: true, Grid: lambdaGrid, Prior: annealing.PriorLambda},
	},
	Terms:      [2]lawcore.Term{{Param: "A", Label: "A·S1^−α"}, {Param: "C", Label: "C·S2_ε"}},
	Convention: schedule.WarmupPeak,
}

type law struct{}

func (law) Spec() *lawcore.Spec { return spec }

func (law) Bind(runs []lawcore.Run, opts lawcore.BindOptions) (lawcore.Model, error) {
	free := func(i int) bool { return len(opts.Free) > i && opts.Free[i] }
	m := &model{runs: runs, every: 1, fitEpsilon: free(iEpsilon), fitLambda: free(iLambda), at: [2]float64{math.NaN(), math.NaN()}}
	for _, r := range runs {
		m.n += len(r.Steps)
		logEta := make([]float64, len(r.LR))
		for i, eta := range r.LR {
			logEta[i] = math.Log(eta) // -Inf at a zero rate, whose weight eta^epsilon is then 0
		}
		m.logEta = append(m.logEta, logEta)
	}
	m.alloc()
	return m, nil
}

// model is the law at the points of some runs (every every-th point). It holds the areas at
// those points for the epsilon and lambda it last saw, and walks the schedules again when
// either changes.
type model struct {
	runs                  []lawcore.Run
	logEta                [][]float64 // ln eta at every step of each run
	every, n              int
	fitEpsilon, fitLambda bool
	at                    [2]float64 // epsilon, lambda of the areas
	logS1, s2             []float64
	ds2Eps, ds2Lambda     []float64
}

func (m *model) alloc() {
	m.logS1, m.s2 = make([]float64, m.n), make([]float64, m.n)
	m.ds2Eps, m.ds2Lambda = make([]float64, m.n), make([]float64, m.n)
}

func (m *model) Points() int { return m.n }

func (m *model) Thin(every int) lawcore.Model {
	t := &model{runs: m.runs, logEta: m.logEta, every: m.every * every, n: (m.n + every - 1) / every,
		fitEpsilon: m.fitEpsilon, fitLambda: m.fitLambda, at: [2]float64{math.NaN(), math.NaN()}}
	t.alloc()
	return t
}

// walk computes the areas at the points for epsilon and lambda: S2_eps = sum m_i w_i with
// w_i = eta_i^epsilon, dS2_eps/depsilon = sum m_i w_i ln eta_i, dS2_eps/dlambda =
// sum (dm_i/dlambda) w_i.
func (m *model) walk(epsilon, lambda float64) {
	if m.at == [2]float64{epsilon, lambda} {
		return
	}
	m.at = [2]float64{epsilon, lambda}
	k, flat := 0, 0
	for ri, r := range m.runs {
		w := schedule.NewAreaWalker(lambda)
		var s2, dEps, dLambda float64
		next := 0
		for i, eta := range r.LR {
			if next == len(r.Steps) {
				break
			}
			w.Add(eta)
			if weight := math.Exp(epsilon * m.logEta[ri][i]); weight > 0 {
				s2 += w.M * weight
				dEps += w.M * weight * m.logEta[ri][i]
				dLambda += w.DM * weight
			}
			if i != r.Steps[next] {
				continue
			}
			if flat%m.every == 0 {
				m.logS1[k], m.s2[k], m.ds2Eps[k], m.ds2Lambda[k] = math.Log(w.S1), s2, dEps, dLambda
				k++
			}
			flat++
			next++
		}
	}
}

func (m *model) Eval(theta []float64, from int, pred, jac []float64) {
	m.walk(theta[iEpsilon], theta[iLambda])
	l0, a, alpha, c := theta[iL0], theta[iA], theta[iAlpha], theta[iC]
	d := len(theta)
	for i := range pred {
		k := from + i
		u := math.Exp(-alpha * m.logS1[k])
		pred[i] = l0 + a*u - c*m.s2[k]
		if jac == nil {
			continue
		}
		row := jac[i*d : i*d+d]
		row[iL0], row[iA], row[iAlpha], row[iC] = 1, u, -a*u*m.logS1[k], -m.s2[k]
		row[iEpsilon], row[iLambda] = -c*m.ds2Eps[k], -c*m.ds2Lambda[k]
	}
}

func (m *model) StartGrid(base []float64) lawcore.StartGrid {
	return lawcore.ProductGrid(base,
		lawcore.Axis{Param: iLambda, Values: lawcore.GridOrHeld(m.fitLambda, lambdaGrid, base[iLambda])},
		lawcore.Axis{Param: iEpsilon, Values: lawcore.GridOrHeld(m.fitEpsilon, epsilonGrid, base[iEpsilon])},
		lawcore.Axis{Param: iAlpha, Values: alphaGrid})
}
