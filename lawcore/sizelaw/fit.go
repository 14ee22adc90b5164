package lawcore

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"gonum.org/v1/gonum/optimize"
)

// Fitting the model-size law: the summed Huber loss of log residuals over every fitted point
// of every size, as for the plain law. Positivity comes from optimising logs of L0, A, alpha,
// B, beta, C and gamma. Starts come from a profile: for fixed alpha, beta and gamma the law
// is linear in L0, A, B and C, so the best of them (non-negative, on relative residuals) is a
// small least-squares problem for each point of a grid over (alpha, beta, gamma); its best
// cells are polished with L-BFGS on the exact objective.

// SizeFitResult is the outcome of a model-size fit.
type SizeFitResult struct {
	// Params are the fitted parameters (Beta is the fixed value when BetaFixed).
	Params SizeParams `json:"params"`
	// Objective is the summed Huber loss of the log residuals over every fitted point.
	Objective float64 `json:"objective"`
	// Curves has one entry per request curve, in order.
	Curves []SizeCurveResult `json:"curves"`
	// FitMetrics and ValidateMetrics summarise the "fit" and "validate" curves (see MeanMetrics).
	FitMetrics      Metrics  `json:"fitMetrics"`
	ValidateMetrics *Metrics `json:"validateMetrics"`
	// Sizes are the distinct model sizes of the fitted curves, increasing.
	Sizes []float64 `json:"sizes"`
	// BetaFixed says beta was held (given, or fewer than three sizes); Note says why.
	BetaFixed bool   `json:"betaFixed"`
	Note      string `json:"note,omitempty"`
	// Settings are the settings used, defaults filled in.
	Settings FitSettings `json:"settings"`
	// Search says how the optimum was found.
	Search    Search  `json:"search"`
	ElapsedMs float64 `json:"elapsedMs"`
}

// SizeCurveResult is one curve's fitted or predicted loss at its observed steps.
type SizeCurveResult struct {
	CurveResult
	// Size is the curve's model size N.
	Size float64 `json:"size"`
}

// Optimiser vector layout of the size fit (beta last, present only when it is fitted).
const (
	zL0 = iota
	zA
	zAlpha
	zB
	zC
	zGamma
	zBeta
)

// sizeObjective is the size fit's objective over the observed points of the fit curves.
type sizeObjective struct {
	logObs, logS1, s2 []float64
	group             []int     // size index of each point
	logN              []float64 // log size of each group
	delta             float64
	fitBeta           bool
	beta0             float64
	lambda            float64
	nb, ng            []float64 // per group: N^-beta, N^gamma (scratch)
	evaluations       int
	ctx               context.Context
	cancelled         bool
}

// params maps an optimiser vector to parameters.
func (o *sizeObjective) params(x []float64) SizeParams {
	p := SizeParams{L0: math.Exp(x[zL0]), A: math.Exp(x[zA]), Alpha: math.Exp(x[zAlpha]), B: math.Exp(x[zB]),
		C: math.Exp(x[zC]), Gamma: math.Exp(x[zGamma]), Beta: o.beta0, Lambda: o.lambda}
	if o.fitBeta {
		p.Beta = math.Exp(x[zBeta])
	}
	return p
}

// vector maps parameters (each floored to stay positive) to an optimiser vector.
func (o *sizeObjective) vector(p SizeParams) []float64 {
	l := func(v float64) float64 { return math.Log(math.Max(v, paramFloor)) }
	x := []float64{l(p.L0), l(p.A), l(p.Alpha), l(p.B), l(p.C), l(p.Gamma)}
	if o.fitBeta {
		x = append(x, l(p.Beta))
	}
	return x
}

// value is the objective at p, with its gradient in the optimiser's coordinates when grad is
// not nil.
func (o *sizeObjective) value(p SizeParams, grad []float64) float64 {
	o.evaluations++
	if o.ctx.Err() != nil {
		o.cancelled = true
	}
	if o.cancelled {
		for i := range grad {
			grad[i] = 0
		}
		return 0
	}
	for g, ln := range o.logN {
		o.nb[g] = p.B * math.Exp(-p.Beta*ln)
		o.ng[g] = p.C * math.Exp(p.Gamma*ln)
	}
	var f, gL0, gA, gAlpha, gB, gBeta, gC, gGamma float64
	for k, logObs := range o.logObs {
		g := o.group[k]
		term := p.A * math.Exp(-p.Alpha*o.logS1[k])
		drop := o.ng[g] * o.s2[k] // C*S2*N^gamma
		pred := p.L0 + term + o.nb[g] - drop
		logPred, dlog := safeLog(pred)
		r := logObs - logPred
		f += Huber(r, o.delta)
		if grad == nil {
			continue
		}
		d := -huberSlope(r, o.delta) * dlog
		gL0 += d
		gA += d * term
		gAlpha += d * term * -o.logS1[k]
		gB += d * o.nb[g]
		gBeta += d * o.nb[g] * -o.logN[g]
		gC += d * -drop
		gGamma += d * -drop * o.logN[g]
	}
	if grad != nil {
		grad[zL0] = gL0 * p.L0
		grad[zA] = gA
		grad[zAlpha] = gAlpha * p.Alpha
		grad[zB] = gB
		grad[zC] = gC
		grad[zGamma] = gGamma * p.Gamma
		if o.fitBeta {
			grad[zBeta] = gBeta * p.Beta
		}
	}
	return f
}

// Profile grids of the size fit's starts.
var (
	sizeAlphaGrid = func() []float64 {
		g := make([]float64, 0, len(alphaGrid)/2)
		for i := 0; i < len(alphaGrid); i += 2 {
			g = append(g, alphaGrid[i])
		}
		return g
	}()
	sizeBetaGrid  = logspace(0.02, 2, 12)
	sizeGammaGrid = logspace(0.002, 1.5, 16)
)

// profileStarts returns the best cells of the (alpha, beta, gamma) grid with their best
// non-negative L0, A, B, C, ranked by the exact objective, best first.
func (o *sizeObjective) profileStarts() []sizeStart {
	betas := []float64{o.beta0}
	if o.fitBeta {
		betas = sizeBetaGrid
	}
	type cell struct {
		p   SizeParams
		rss float64
	}
	var cells []cell
	ng := len(o.logN)
	// per group sums of the weighted products (w = 1/obs, u = S1^-alpha, v = S2)
	type sums struct{ P, Q, R, U, X, V, a, b, c float64 }
	groupSums := make([]sums, ng)
	n := float64(len(o.logObs))
	for _, alpha := range sizeAlphaGrid {
		for g := range groupSums {
			groupSums[g] = sums{}
		}
		for k, logObs := range o.logObs {
			w := math.Exp(-logObs)
			u := math.Exp(-alpha * o.logS1[k])
			v := o.s2[k]
			s := &groupSums[o.group[k]]
			w2 := w * w
			s.P += w2
			s.Q += w2 * u
			s.R += w2 * v
			s.U += w2 * u * u
			s.X += w2 * u * v
			s.V += w2 * v * v
			s.a += w
			s.b += w * u
			s.c += w * v
		}
		for _, beta := range betas {
			for _, gamma := range sizeGammaGrid {
				var gram [4][4]float64
				var rhs [4]float64
				for g, s := range groupSums {
					b := math.Exp(-beta * o.logN[g])
					c := math.Exp(gamma * o.logN[g])
					gram[0][0] += s.P
					gram[0][1] += s.Q
					gram[0][2] += s.P * b
					gram[0][3] -= s.R * c
					gram[1][1] += s.U
					gram[1][2] += s.Q * b
					gram[1][3] -= s.X * c
					gram[2][2] += s.P * b * b
					gram[2][3] -= s.R * b * c
					gram[3][3] += s.V * c * c
					rhs[0] += s.a
					rhs[1] += s.b
					rhs[2] += s.a * b
					rhs[3] -= s.c * c
				}
				for i := 0; i < 4; i++ {
					for j := 0; j < i; j++ {
						gram[i][j] = gram[j][i]
					}
				}
				coef, gain := nnls4(gram, rhs)
				cells = append(cells, cell{
					p:   SizeParams{L0: coef[0], A: coef[1], Alpha: alpha, B: coef[2], Beta: beta, C: coef[3], Gamma: gamma, Lambda: o.lambda},
					rss: n - gain})
			}
		}
		if o.ctx.Err() != nil {
			o.cancelled = true
			return nil
		}
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].rss < cells[j].rss })
	var out []sizeStart
	for _, c := range cells[:min(len(cells), 8)] {
		out = append(out, sizeStart{p: c.p, f: o.value(c.p, nil)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].f < out[j].f })
	return out
}

// sizeStart is a candidate start of the size fit with its objective.
type sizeStart struct {
	p SizeParams
	f float64
}

// nnls4 minimises ||X b - y||^2 over b >= 0 for a four-column X from its normal equations,
// by trying every set of free columns (15); it returns b and the gain y'y - ||X b - y||^2.
func nnls4(gram [4][4]float64, rhs [4]float64) ([4]float64, float64) {
	var best [4]float64
	bestGain := 0.0
	for set := 1; set < 16; set++ {
		var idx []int
		for i := 0; i < 4; i++ {
			if set&(1<<i) != 0 {
				idx = append(idx, i)
			}
		}
		m := len(idx)
		// scale the columns to unit diagonal: the sizes make them differ by many orders
		var a [4][5]float64
		var scale [4]float64
		ok := true
		for r, i := range idx {
			if !(gram[i][i] > 0) {
				ok = false
				break
			}
			scale[r] = 1 / math.Sqrt(gram[i][i])
		}
		if !ok {
			continue
		}
		for r, i := range idx {
			for c, j := range idx {
				a[r][c] = gram[i][j] * scale[r] * scale[c]
			}
			a[r][m] = rhs[i] * scale[r]
		}
		x, solved := solveSmall(&a, m)
		if !solved {
			continue
		}
		var b [4]float64
		gain := 0.0
		for r, i := range idx {
			b[i] = x[r] * scale[r]
			if !(b[i] >= 0) {
				ok = false
			}
			gain += b[i] * rhs[i]
		}
		if ok && gain > bestGain {
			best, bestGain = b, gain
		}
	}
	return best, bestGain
}

// solveSmall solves the m x m system in the first m columns of a (right-hand side in column
// m) by Gaussian elimination with partial pivoting; ok is false when it is near singular.
func solveSmall(a *[4][5]float64, m int) (x [4]float64, ok bool) {
	for col := 0; col < m; col++ {
		piv := col
		for r := col + 1; r < m; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if !(math.Abs(a[piv][col]) > 1e-12) {
			return x, false
		}
		a[col], a[piv] = a[piv], a[col]
		for r := col + 1; r < m; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c <= m; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	for r := m - 1; r >= 0; r-- {
		s := a[r][m]
		for c := r + 1; c < m; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}

// polish runs L-BFGS from s on the exact objective.
func (o *sizeObjective) polish(s sizeStart) sizeStart {
	scale := 1 / (o.delta * o.delta * float64(len(o.logObs)))
	x0 := o.vector(s.p)
	lastX, lastGrad := make([]float64, len(x0)), make([]float64, len(x0))
	lastF, have := 0.0, false
	eval := func(x []float64) {
		if have && floatsEqual(x, lastX) {
			return
		}
		lastF = scale * o.value(o.params(x), lastGrad)
		for i := range lastGrad {
			lastGrad[i] *= scale
		}
		copy(lastX, x)
		have = true
	}
	problem := optimize.Problem{
		Func: func(x []float64) float64 { eval(x); return lastF },
		Grad: func(g, x []float64) { eval(x); copy(g, lastGrad) },
	}
	settings := &optimize.Settings{FuncEvaluations: 8000, GradientThreshold: 1e-9,
		Converger: &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-12, Iterations: 12}}
	res, _ := optimize.Minimize(problem, x0, settings, &optimize.LBFGS{})
	if o.cancelled || res == nil || math.IsNaN(res.F) || math.IsInf(res.F, 0) {
		return s
	}
	p := o.params(res.X)
	if f := o.value(p, nil); f < s.f {
		return sizeStart{p: p, f: f}
	}
	return s
}

// FitSize fits the model-size law to the request's "fit" curves and scores every curve.
// progress, if not nil, is called with the fraction done; cancelling ctx stops the fit with
// ctx's error.
func FitSize(ctx context.Context, req SizeFitRequest, progress func(float64)) (*SizeFitResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	conv, err := ParseConvention(req.WarmupConvention)
	if err != nil {
		return nil, err
	}
	lambda, err := req.lambda()
	if err != nil {
		return nil, err
	}
	delta := req.HuberDelta
	if delta == 0 {
		delta = DefaultHuberDelta
	}
	if err := checkPositive("huberDelta", delta); err != nil {
		return nil, err
	}
	if req.Beta != nil && (!(*req.Beta >= 0) || math.IsInf(*req.Beta, 0)) {
		return nil, Errorf("", "beta", "must be a finite number, zero or more, got %v", *req.Beta)
	}
	if len(req.Curves) == 0 {
		return nil, Errorf("", "curves", "no curves to fit")
	}
	curves := make([]*preparedCurve, len(req.Curves))
	sizeIndex := map[float64]int{}
	var sizes []float64
	for i, c := range req.Curves {
		if err := checkSize(i, c); err != nil {
			return nil, err
		}
		pc, err := c.Curve.prepare(i, req.WarmupSteps)
		if err != nil {
			return nil, err
		}
		pc.computeAreas(lambda, conv, false)
		if err := pc.checkForwardArea(i); err != nil {
			return nil, err
		}
		curves[i] = pc
		if _, ok := sizeIndex[c.Size]; !ok && pc.role == RoleFit {
			sizeIndex[c.Size] = 0
			sizes = append(sizes, c.Size)
		}
	}
	sort.Float64s(sizes)
	for g, n := range sizes {
		sizeIndex[n] = g
	}
	res := &SizeFitResult{Sizes: sizes,
		Settings: FitSettings{Lambda: FixedLambda(lambda), WarmupSteps: req.WarmupSteps, WarmupConvention: conv, HuberDelta: delta}}
	switch {
	case len(sizes) == 0:
		return nil, Errorf("", "curves", `no curve has role "fit": mark at least one curve for fitting`)
	case len(sizes) == 1:
		return nil, Errorf("", "curves", "every fitted curve has the model size %g: the model-size law needs fitted curves of at least two sizes (fit one size with the plain law)", sizes[0])
	}
	o := &sizeObjective{delta: delta, lambda: lambda, ctx: ctx, beta0: DefaultSizeBeta, fitBeta: true,
		nb: make([]float64, len(sizes)), ng: make([]float64, len(sizes))}
	switch {
	case req.Beta != nil:
		o.fitBeta, o.beta0 = false, *req.Beta
		res.Note = fmt.Sprintf("beta held at %g as asked", *req.Beta)
	case len(sizes) == 2:
		o.fitBeta = false
		res.Note = fmt.Sprintf("two sizes cannot separate L0, B and beta: beta is held at %g (give \"beta\" to choose it); "+
			"predictions at the two fitted sizes do not depend on it, predictions at other sizes do", DefaultSizeBeta)
	}
	res.BetaFixed = !o.fitBeta
	for _, n := range sizes {
		o.logN = append(o.logN, math.Log(n))
	}
	for i, c := range curves {
		if c.role != RoleFit {
			continue
		}
		g := sizeIndex[req.Curves[i].Size]
		for k, idx := range c.index {
			o.logObs = append(o.logObs, math.Log(c.loss[k]))
			o.logS1 = append(o.logS1, math.Log(c.s1[idx]))
			o.s2 = append(o.s2, c.s2[idx])
			o.group = append(o.group, g)
		}
	}
	progress(0.05)
	starts := o.profileStarts()
	if o.cancelled {
		return nil, ctx.Err()
	}
	progress(0.3)
	polished := 0
	best := sizeStart{f: math.Inf(1)}
	for i, s := range starts {
		if i >= 4 || (i > 0 && s.f > promisingFactor*starts[0].f) {
			break
		}
		got := o.polish(s)
		polished++
		if o.cancelled {
			return nil, ctx.Err()
		}
		if got.f < best.f {
			best = got
		}
		progress(0.3 + 0.7*float64(i+1)/4)
	}
	res.Params, res.Objective = best.p, best.f
	res.Search = Search{Starts: polished, Evaluations: o.evaluations}
	var fitM, valM []Metrics
	for i, c := range curves {
		n := req.Curves[i].Size
		pred := make([]float64, len(c.index))
		for k, idx := range c.index {
			pred[k] = best.p.Loss(c.s1[idx], c.s2[idx], n)
		}
		m := ComputeMetrics(c.loss, pred)
		res.Curves = append(res.Curves, SizeCurveResult{CurveResult: CurveResult{Name: c.name, Role: c.role, Metrics: m, Predicted: pred}, Size: n})
		if c.role == RoleFit {
			fitM = append(fitM, m)
		} else {
			valM = append(valM, m)
		}
	}
	res.FitMetrics = MeanMetrics(fitM)
	if len(valM) > 0 {
		v := MeanMetrics(valM)
		res.ValidateMetrics = &v
	}
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	progress(1)
	return res, nil
}
