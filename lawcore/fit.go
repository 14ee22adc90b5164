package lawcore

import (
	"context"
	"math"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// FitResult is the outcome of a fit: the parameters, the objective they reach, how each curve
// is fitted or predicted, and how the search went.
type FitResult struct {
	// Model is ModelAnnealing.
	Model string `json:"model"`
	// Params are the fitted parameters (Lambda is the fixed or fitted decay factor).
	Params Params `json:"params"`
	// Objective is the summed Huber loss of the log residuals over every fitted point.
	Objective float64 `json:"objective"`
	// Curves has one entry per request curve, in order.
	Curves []CurveResult `json:"curves"`
	// FitMetrics summarises the curves with role "fit" (see MeanMetrics).
	FitMetrics Metrics `json:"fitMetrics"`
	// ValidateMetrics summarises the curves with role "validate"; nil when there are none.
	ValidateMetrics *Metrics `json:"validateMetrics"`
	// Settings are the settings the fit used, defaults filled in.
	Settings FitSettings `json:"settings"`
	// Search says how the optimum was found.
	Search Search `json:"search"`
	// Auto, set when the request asked for "auto", says what was picked and why.
	Auto *AutoChoice `json:"auto,omitempty"`
	// ElapsedMs is the time the fit took, in milliseconds.
	ElapsedMs float64 `json:"elapsedMs"`
}

// FitSettings records the settings a fit used.
type FitSettings struct {
	Lambda           LambdaSetting `json:"lambda"`
	WarmupSteps      int           `json:"warmupSteps"`
	WarmupConvention Convention    `json:"warmupConvention"`
	HuberDelta       float64       `json:"huberDelta"`
}

// CurveResult is one curve's fitted (role "fit") or predicted (role "validate") loss at its
// observed steps, and its metrics.
type CurveResult struct {
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	Metrics   Metrics   `json:"metrics"`
	Predicted []float64 `json:"predicted"`
}

// Search describes the optimiser's work: how many starts were polished, how many objective
// evaluations everything took (the profile over alpha included).
type Search struct {
	Starts      int `json:"starts"`
	Evaluations int `json:"evaluations"`
}

// maxStarts is how many of the profile's local minima are polished.
const maxStarts = 4

// Fit fits the law to the request's "fit" curves, minimising the summed Huber loss of
// log(observed) - log(predicted), and scores every curve with the result. progress, if not
// nil, is called with the fraction done. Cancelling ctx stops the fit promptly with ctx's
// error.
func Fit(ctx context.Context, req FitRequest, progress func(fraction float64)) (*FitResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	if req.Auto {
		return fitAuto(ctx, req, progress)
	}
	curves, conv, delta, err := req.prepare()
	if err != nil {
		return nil, err
	}
	lambda := req.Lambda.fixed()
	if req.Lambda.Fit {
		lambda = DefaultLambda
	}
	obj := newObjective(ctx, curves, conv, delta, req.Lambda.Fit, lambda)
	for i, c := range curves {
		if c.role == RoleFit {
			if err := c.checkForwardArea(i); err != nil {
				return nil, err
			}
		}
	}

	// progress: the profile search is the first fifth, each polish an equal share of the rest
	done, share, budget := 0.0, 0.2, 0
	obj.tick = func() {
		budget++
		progress(done + share*math.Min(0.95, float64(budget)/200))
	}
	starts := obj.searchStarts()
	done, share, budget = 0.2, 0.8/math.Max(1, float64(len(starts))), 0
	progress(done)
	if obj.cancelled || ctx.Err() != nil {
		return nil, ctx.Err()
	}
	best := start{f: math.Inf(1)}
	for i, s := range starts {
		got, err := obj.polish(s)
		if err != nil {
			return nil, err
		}
		if got.f < best.f {
			best = got
		}
		done, budget = 0.2+share*float64(i+1), 0
		progress(done)
	}

	res := &FitResult{
		Model:     ModelAnnealing,
		Params:    best.p,
		Objective: best.f,
		Settings: FitSettings{Lambda: req.Lambda, WarmupSteps: req.WarmupSteps,
			WarmupConvention: conv, HuberDelta: delta},
		Search: Search{Starts: len(starts), Evaluations: obj.evaluations},
	}
	if !req.Lambda.Fit {
		res.Settings.Lambda = FixedLambda(lambda)
	}
	var fitMetrics, validateMetrics []Metrics
	for i, c := range curves {
		c.computeAreas(best.p.Lambda, conv, false)
		if err := c.checkForwardArea(i); err != nil {
			return nil, err
		}
		pred := make([]float64, len(c.index))
		for k, idx := range c.index {
			pred[k] = best.p.Loss(c.s1[idx], c.s2[idx])
		}
		m := ComputeMetrics(c.loss, pred)
		res.Curves = append(res.Curves, CurveResult{Name: c.name, Role: c.role, Metrics: m, Predicted: pred})
		if c.role == RoleFit {
			fitMetrics = append(fitMetrics, m)
		} else {
			validateMetrics = append(validateMetrics, m)
		}
	}
	res.FitMetrics = MeanMetrics(fitMetrics)
	if len(validateMetrics) > 0 {
		v := MeanMetrics(validateMetrics)
		res.ValidateMetrics = &v
	}
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}

// searchStarts returns the starts to polish: the best local minima of the alpha profile (over
// a grid of lambdas when lambda is fitted). Minima far worse than the best are dropped: the
// profile already holds the best L0, A and C for each alpha, so polishing moves a start a
// little, never by a factor of several in the objective.
func (o *objective) searchStarts() []start {
	if !o.fitLambda {
		return promising(o.profileStarts())
	}
	var all []start
	for _, lambda := range lambdaGrid {
		o.setLambda(lambda)
		all = append(all, firstN(o.profileStarts(), 2)...)
		if o.ctx.Err() != nil {
			o.cancelled = true
			return nil
		}
	}
	sortStarts(all)
	return promising(all)
}

// promisingFactor is how much worse than the best start a start may be and still be polished.
const promisingFactor = 3

// promising keeps the sorted starts within promisingFactor of the best, at most maxStarts.
func promising(s []start) []start {
	n := 0
	for n < len(s) && n < maxStarts && s[n].f <= promisingFactor*s[0].f {
		n++
	}
	return s[:n]
}

func firstN(s []start, n int) []start {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// polish runs L-BFGS from s on the exact objective, in log / logit coordinates whitened by
// the Gauss-Newton Hessian at the start: x = x0 + W z with W W' = H^-1, so that L-BFGS sees
// a problem of condition near one and needs a few dozen evaluations, not hundreds.
func (o *objective) polish(s start) (start, error) {
	x0 := o.vector(s.p)
	n := len(x0)
	w := o.whitening(s.p)
	// scale the objective to order one so that the optimiser's tolerances mean something
	scale := 1 / (o.delta * o.delta * float64(len(o.logObs)))
	x := make([]float64, n)
	toX := func(z []float64) []float64 {
		for i := range x {
			x[i] = x0[i]
			for j := range z {
				x[i] += w[i][j] * z[j]
			}
		}
		return x
	}
	// gonum asks for the value and the gradient at the same point in separate calls; one pass
	// computes both, so the last point's are kept
	lastZ, lastGrad, gx := make([]float64, n), make([]float64, n), make([]float64, n)
	lastF, have := 0.0, false
	eval := func(z []float64) {
		if have && floatsEqual(z, lastZ) {
			return
		}
		lastF = scale * o.value(o.params(toX(z)), gx)
		// d f / d z = W' d f / d x
		for j := range lastGrad {
			lastGrad[j] = 0
			for i := range gx {
				lastGrad[j] += w[i][j] * gx[i] * scale
			}
		}
		copy(lastZ, z)
		have = true
	}
	problem := optimize.Problem{
		Func: func(z []float64) float64 { eval(z); return lastF },
		Grad: func(grad, z []float64) { eval(z); copy(grad, lastGrad) },
		Status: func() (optimize.Status, error) {
			if o.cancelled {
				return optimize.Failure, o.ctx.Err()
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		FuncEvaluations:   5000,
		GradientThreshold: 1e-9,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-12, Iterations: 8},
	}
	// gonum reports "no progress" (and other line-search failures) at points that did
	// converge, so its error is not the verdict: a finite objective at least as good as the
	// start is a result, and otherwise the start itself (a valid, if unpolished, fit) stands.
	res, _ := optimize.Minimize(problem, make([]float64, n), settings, &optimize.LBFGS{})
	if o.cancelled {
		return start{}, o.ctx.Err()
	}
	if res == nil || math.IsNaN(res.F) || math.IsInf(res.F, 0) {
		return s, nil
	}
	p := o.params(toX(res.X))
	f := o.value(p, nil)
	if f > s.f {
		return s, nil
	}
	return start{p: p, f: f}, nil
}

// whitening returns W with W W' = (H + mu I)^-1 for the Gauss-Newton Hessian H at p (mu a
// small ridge for directions the data do not determine); the identity if that fails.
func (o *objective) whitening(p Params) [][]float64 {
	h := o.gaussNewton(p)
	n := len(h)
	w := make([][]float64, n)
	for i := range w {
		w[i] = make([]float64, n)
		w[i][i] = 1
	}
	sym := mat.NewSymDense(n, nil)
	maxDiag := 0.0
	for i := 0; i < n; i++ {
		maxDiag = math.Max(maxDiag, h[i][i])
	}
	if !(maxDiag > 0) || math.IsInf(maxDiag, 0) {
		return w
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := h[i][j]
			if i == j {
				v += 1e-10 * maxDiag
			}
			sym.SetSym(i, j, v)
		}
	}
	// H = L L', so W = L'^-1 gives W W' = (L L')^-1
	var chol mat.Cholesky
	if !chol.Factorize(sym) {
		return w
	}
	var l mat.TriDense
	chol.LTo(&l)
	var inv mat.TriDense
	if err := inv.InverseTri(&l); err != nil {
		return w
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w[i][j] = inv.At(j, i) // (L^-1)' = L'^-1
		}
	}
	return w
}

func sortStarts(s []start) {
	sort.Slice(s, func(i, j int) bool { return s[i].f < s[j].f })
}

func floatsEqual(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
