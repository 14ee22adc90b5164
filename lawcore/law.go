package lawcore

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// A Law is a law of loss curves that the fit engine can fit and [Predict] can evaluate: the
// annealing law of this package, and the laws of other packages (the Multi-Power Law, the
// paper's variants, the model-size law) registered with [Register].
//
// A law declares its parameters in its [Spec]. [Law.Bind] turns schedules into what the law
// needs from them (its areas, its loss drops) at the steps where it will be evaluated, and
// returns a [Model]: the law as a function of its parameters at those steps, with its
// analytic gradient. The engine does the rest, the same way for every law: the objective
// (the summed Huber loss of log residuals), the start search, the polish, thinning long
// curves, cancelling, progress, metrics and predictions.
type Law interface {
	// Spec describes the law: its name, its formula and its parameters.
	Spec() *Spec
	// Bind prepares the law for the runs: the learning rates of each (as counted by the
	// warmup convention) and the steps at which the law will be evaluated. It returns an
	// *input.Error naming the run when the law cannot be evaluated on one.
	Bind(runs []Run, opts BindOptions) (Model, error)
}

// Spec describes a law.
type Spec struct {
	// Name names the law in requests and results ("annealing", "multi-power", ...).
	Name string `json:"name"`
	// Title is the law's name in words.
	Title string `json:"title"`
	// Formula is the law in one line, with Symbol names.
	Formula string `json:"formula"`
	// Reference cites where the law comes from.
	Reference string `json:"reference"`
	// Params are the law's parameters, in the order of its parameter vectors.
	Params []Param `json:"params"`
	// Terms are the two parts of the loss a prediction reports apart: the loss is
	// constant + Terms[0] - Terms[1].
	Terms [2]Term `json:"terms"`
	// Convention is the warmup convention the law uses unless told otherwise.
	Convention schedule.Convention `json:"convention"`
	// NeedsSize says every curve must carry its model size (Curve.Size), at least two
	// sizes among them: the law is fitted across model sizes.
	NeedsSize bool `json:"needsSize,omitempty"`
	// LinePoints is how many steps a fitted line is thinned to when the request says
	// nothing (0: every step), for a law whose every step is costly to evaluate.
	LinePoints int `json:"-"`
}

// Domain is the set of values a parameter may take, and so how the engine keeps it there.
type Domain string

const (
	// Positive parameters are fitted through their logarithm (given values may be zero).
	Positive Domain = "positive"
	// UnitInterval parameters lie in (0, 1) and are fitted through their logit (given values
	// may be zero).
	UnitInterval Domain = "unit"
)

// Param is one parameter of a law.
type Param struct {
	// Name names the parameter in requests and results: "L0", "alpha", "lambda".
	Name string `json:"name"`
	// Symbol is how formulas print it: "L0", "α", "λ".
	Symbol string `json:"symbol"`
	// Meaning says what it is, in a sentence.
	Meaning string `json:"meaning"`
	// Domain is where its values lie.
	Domain Domain `json:"domain"`
	// Default is a typical value: where a fit holds it when it is held, and a starting value.
	Default float64 `json:"default"`
	// Held parameters are held at their value unless the request asks to fit them (the
	// annealing law's lambda, which the paper holds at 0.999).
	Held bool `json:"held"`
	// Linear marks a parameter the law is linear in: the start search solves for it by
	// least squares instead of searching a grid (at most four per law).
	Linear bool `json:"linear"`
	// Grid, for a parameter the law is not linear in, are the values the start search
	// tries (a law's model may refine them from the data).
	Grid []float64 `json:"-"`
	// Prior, when set, is the parameter's weakly informative prior (see Prior).
	Prior *Prior `json:"prior,omitempty"`
}

// Prior is a weakly informative prior on a parameter, for what the fitted curves leave open
// (one short run cannot fix both L0 and alpha, and a fit left to itself slides along that
// ridge to values no published fit has): ln(x) ~ N(ln Median, Spread²), x the parameter as
// Scale relates it to the curves. A fit with priors (FitRequest.Priors) minimises its
// objective plus the prior's negative log density in the objective's own units, so that a
// parameter the curves determine is where they put it, and one they leave open is near
// Median. Source says where Median and Spread come from.
type Prior struct {
	Median float64    `json:"median"`
	Spread float64    `json:"spread"`
	Scale  PriorScale `json:"scale,omitempty"`
	Source string     `json:"source"`
}

// PriorScale says what a prior is a prior of, so that it holds whatever the loss's or the
// learning rate's units.
type PriorScale string

// The scales of priors.
const (
	// ScaleValue: the parameter itself (an exponent, which has no units).
	ScaleValue PriorScale = ""
	// ScaleLowestLoss: the parameter divided by the lowest loss of the fitted points.
	ScaleLowestLoss PriorScale = "lowest-loss"
	// ScalePeakLR: the parameter times the highest learning rate of the fitted runs.
	ScalePeakLR PriorScale = "peak-lr"
	// ScaleMemory: 1/(1 - the parameter), for a decay factor: its memory in steps.
	ScaleMemory PriorScale = "memory"
)

// Term is one of the two parts of the loss that predictions report apart: the contribution
// of the linear parameter Param, Param * d(loss)/d(Param), with its sign removed.
type Term struct {
	// Param names the linear parameter.
	Param string `json:"param"`
	// Label is how charts name the term: "A·S1^(−α)", "C·S2".
	Label string `json:"label"`
}

// Index returns the position of the parameter named name, or -1.
func (s *Spec) Index(name string) int {
	for i, p := range s.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// Defaults is the parameter vector of every parameter's Default.
func (s *Spec) Defaults() []float64 {
	theta := make([]float64, len(s.Params))
	for i, p := range s.Params {
		theta[i] = p.Default
	}
	return theta
}

// Theta turns named values into the law's parameter vector, checking that every parameter
// is given, that none is unknown and that each lies in its domain.
func (s *Spec) Theta(v Values) ([]float64, error) {
	theta := make([]float64, len(s.Params))
	for name := range v {
		if s.Index(name) < 0 {
			return nil, input.Errorf("params", name, "the %s has no parameter %q; its parameters are %s", s.Title, name, s.paramNames())
		}
	}
	for i, p := range s.Params {
		x, ok := v[p.Name]
		if !ok {
			return nil, input.Errorf("params", p.Name, "missing: the %s needs %s", s.Title, s.paramNames())
		}
		if err := p.check(x); err != nil {
			return nil, input.Within("params", err)
		}
		theta[i] = x
	}
	return theta, nil
}

// Values names the entries of a parameter vector.
func (s *Spec) Values(theta []float64) Values {
	v := make(Values, len(s.Params))
	for i, p := range s.Params {
		v[p.Name] = theta[i]
	}
	return v
}

func (s *Spec) paramNames() string {
	names := make([]string, len(s.Params))
	for i, p := range s.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// check reports a value outside the parameter's domain.
func (p Param) check(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return input.Errorf("", p.Name, "must be a finite number, zero or more, got %v", x)
	}
	if p.Domain == UnitInterval && !(x < 1) {
		return input.Errorf("", p.Name, "must be in [0, 1), got %v", x)
	}
	return nil
}

// Values are a law's parameters by name, as requests and results carry them.
type Values map[string]float64

// Run is one schedule as a law sees it.
type Run struct {
	// Name names the run in error messages.
	Name string
	// LR is the learning rate of every step from 0, counted by the warmup convention (see
	// CountWarmup).
	LR []float64
	// Steps are the steps at which the law is evaluated: increasing, each from 1 to
	// len(LR)-1, with something trained by then (a positive forward area).
	Steps []int
	// Size is the model's size N, for laws that take it (0 otherwise).
	Size float64
}

// SubsetRuns returns runs with the steps keep marks (one per step of every run, in order).
func SubsetRuns(runs []Run, keep []bool) []Run {
	out := make([]Run, len(runs))
	at := 0
	for i, r := range runs {
		kept := r
		kept.Steps = make([]int, 0, len(r.Steps))
		for _, st := range r.Steps {
			if keep[at] {
				kept.Steps = append(kept.Steps, st)
			}
			at++
		}
		out[i] = kept
	}
	return out
}

// BindOptions say what a bound model will be used for.
type BindOptions struct {
	// Free marks the parameters a fit varies (nil: none, as in a prediction); a model may skip
	// the derivatives of the others.
	Free []bool
	// Predict asks for the accuracy of a prediction rather than of a fit's search, for laws
	// that trade the two (the Multi-Power Law's loss-drop grouping).
	Predict bool
	// Theta is the parameter vector the model will first be evaluated at (a fit's defaults
	// and held values, a prediction's parameters): a law whose values are not defined
	// everywhere may check the runs against it.
	Theta []float64
}

// A Model is a law bound to the steps of some runs: a function of the law's parameters at
// those points, flattened run by run.
type Model interface {
	// Points is the number of points.
	Points() int
	// Eval writes the predicted loss at the points from, from+1, ... into pred (one per
	// element) for the parameter vector theta, and, when jac is not nil, the derivatives of
	// each in each parameter: jac[k*len(theta)+j] = d pred[k] / d theta[j] (the derivatives
	// of parameters that BindOptions.Free left out may be left at zero). It must return
	// finite numbers or infinities, never panic, for any theta in the parameters' domains.
	Eval(theta []float64, from int, pred, jac []float64)
	// Thin returns the model at every every-th point (0, every, 2*every, ...), sharing what
	// it can.
	Thin(every int) Model
	// StartGrid lists where the start search looks, from base (the defaults and held
	// values): see StartGrid.
	StartGrid(base []float64) StartGrid
}

// A Subsetter is a Model that gives the model at some of its points sharing what it has
// computed, for the refits of a fit's intervals (the annealing law's areas). Models without it
// are bound again on the runs with those points.
type Subsetter interface {
	// Subset returns the model at the points keep marks (one per point, in order), as Bind
	// gives on the runs with those steps.
	Subset(keep []bool) Model
}

// StartGrid is where the start search of a fit looks. Each cell is a full parameter vector
// whose linear parameters are ignored (the search solves for them). The cells come in runs of
// Run cells that vary along one parameter only, in order: the search keeps the local minima
// of each run's profile, so that distinct basins along a ridge each get a start.
type StartGrid struct {
	Cells [][]float64
	Run   int
}

// Axis is one parameter of a product grid and its values.
type Axis struct {
	Param  int
	Values []float64
}

// ProductGrid is the grid of every combination of the axes' values over base, the last axis
// varying fastest: its runs vary along the last axis alone.
func ProductGrid(base []float64, axes ...Axis) StartGrid {
	g := StartGrid{Cells: [][]float64{append([]float64(nil), base...)}}
	for _, a := range axes {
		var next [][]float64
		for _, cell := range g.Cells {
			for _, v := range a.Values {
				c := append([]float64(nil), cell...)
				c[a.Param] = v
				next = append(next, c)
			}
		}
		g.Cells = next
	}
	g.Run = 1
	if len(axes) > 0 {
		g.Run = len(axes[len(axes)-1].Values)
	}
	return g
}

// GridOrHeld is grid when the parameter is fitted, else the held value alone.
func GridOrHeld(fitted bool, grid []float64, held float64) []float64 {
	if fitted {
		return grid
	}
	return []float64{held}
}

// Anchored is a model whose features are approximated around an anchor point of its
// parameters (the Multi-Power Law groups the terms of its loss-drop sum for one set of shape
// parameters). The engine calls Anchor at each point it starts from (force set) and after
// each step it takes (the model decides whether the parameters moved far enough to need a
// new anchor); Anchor reports whether the model changed.
type Anchored interface {
	Anchor(theta []float64, force bool) bool
}

// Holder is a law that decides from the runs to fit which parameters they cannot determine,
// and must be held at their value (the model-size law with two sizes holds beta), saying why
// in a note.
type Holder interface {
	Hold(runs []Run) (held []string, note string, err error)
}

// Searcher is a law with search strategies of its own besides the engine's "optimum" (the
// Multi-Power Law's "release": the procedure of its authors' code). A strategy works on the
// fit's objective and returns the parameter vector it ends at.
type Searcher interface {
	Searches() []string
	Search(ctx context.Context, name string, obj *Objective, progress func(float64)) ([]float64, error)
}

// SearchOptimum names the engine's own search: the objective's minimum.
const SearchOptimum = "optimum"

var registry struct {
	sync.RWMutex
	laws []Law
}

// Register makes a law available by its name to Fit, Predict, validation and the analyses.
// It panics if the name is taken: laws register once, when their program starts.
func Register(l Law) {
	registry.Lock()
	defer registry.Unlock()
	for _, have := range registry.laws {
		if have.Spec().Name == l.Spec().Name {
			panic("lawcore: a law named " + l.Spec().Name + " is registered twice")
		}
	}
	registry.laws = append(registry.laws, l)
}

// DefaultLaw names the law of a request that names none: the annealing law, which a program
// registers by importing lawcore/annealing (lawcore/laws imports every law).
const DefaultLaw = "annealing"

// Laws returns every registered law, the annealing law first.
func Laws() []Law {
	registry.RLock()
	defer registry.RUnlock()
	return append([]Law(nil), registry.laws...)
}

// Lookup returns the law registered under name ("" is the annealing law).
func Lookup(name string) (Law, error) {
	if name == "" {
		name = DefaultLaw
	}
	registry.RLock()
	defer registry.RUnlock()
	var names []string
	for _, l := range registry.laws {
		if l.Spec().Name == name {
			return l, nil
		}
		names = append(names, fmt.Sprintf("%q", l.Spec().Name))
	}
	sort.Sort(sort.StringSlice(names)) // not sort.Strings: wasm/methods.go, methodNames
	return nil, input.Errorf("", "law", "unknown law %q; the laws are %s", name, strings.Join(names, ", "))
}
