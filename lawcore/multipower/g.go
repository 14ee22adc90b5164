package multipower

import (
	"math"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// The function G of the Multi-Power Law's loss drop, G(x) = 1 - (1 + C*x)^(-beta), at
// x = eta^(-gamma) * S, for one change or one group of changes (see multipower_ld.go), with
// its derivatives in ln C, beta and gamma.

// shape holds the loss-drop parameters of one evaluation and what the grouping test
// derives from them.
type shape struct {
	c, lnC, beta, gamma float64
	tol                 float64
	c1, c2, c3, phiMax  float64 // derivative bounds |g^(j)| <= c_j*phi(y)
	lnPhiMax            float64 // ln phiMax
	lnPeak              float64 // ln of where phi peaks, -ln beta
	// global makes the grouping test use the bound over all y (phiMax), valid for any C
	global bool
}

// newShape prepares the evaluation of G(x) = 1 - (1 + C*x)^(-beta) with x = eta^(-gamma) S
// to the tolerance tol (see the top of this file).
func newShape(c, beta, gamma, tol float64) *shape {
	sh := &shape{c: c, lnC: math.Log(c), beta: beta, gamma: gamma, tol: tol}
	sh.c1 = beta
	sh.c2 = beta * math.Max(1, beta)
	sh.c3 = beta * math.Max(math.Max(1, beta*beta), (1+3*beta)/2)
	sh.phiMax = phi(1/beta, beta)
	sh.lnPeak = -math.Log(beta)
	if !(sh.phiMax >= 0) { // beta = 0: G is zero, every grouping is exact
		sh.phiMax = 0
	}
	sh.lnPhiMax = math.Log(sh.phiMax)
	return sh
}

// newGridShape is a shape whose grouping is valid to tol for every C, every beta of
// betas and every gamma up to the largest of gammas (for evaluating a grid of shapes on one
// frozen grouping). Its own C, beta and gamma are placeholders.
func newGridShape(betas, gammas []float64, tol float64) *shape {
	sh := &shape{c: 1, beta: 1, tol: tol, global: true}
	for _, g := range gammas {
		sh.gamma = math.Max(sh.gamma, g)
	}
	// the test multiplies phiMax by c_j: put the largest product over betas in c_j
	sh.phiMax = 1
	for _, b := range betas {
		one := newShape(1, b, 0, tol)
		sh.c1 = math.Max(sh.c1, one.c1*one.phiMax)
		sh.c2 = math.Max(sh.c2, one.c2*one.phiMax)
		sh.c3 = math.Max(sh.c3, one.c3*one.phiMax)
	}
	return sh
}

// localBounds bounds the first three derivatives of g(u) = G(e^u / C) in absolute value for
// y = e^u in [e^lnYLo, e^lnYHi]. The j-th is beta*phi(y)*|P_j(q)| with q = y/(1+y):
// P_1 = 1, P_2 = 1 - (1+beta) q and P_3 = 1 - 3(1+beta) q + (1+beta)(2+beta) q^2 (the
// factors of addY's g2 and g3). phi is unimodal with its peak at y = 1/beta, so its largest
// value on the interval is at an end unless the peak is inside; P_2 is linear and P_3 a
// parabola in q, so their largest magnitudes are at an end or at P_3's vertex. Unlike
// c_j*phiMax, which hold for every y, these do not grow like beta^2 and beta^3 where y stays
// below the peak.
func (sh *shape) localBounds(lnYLo, lnYHi float64) (d1, d2, d3 float64) {
	beta := sh.beta
	yLo, yHi := numeric.Exp(lnYLo), numeric.Exp(lnYHi)
	lnPhi := sh.lnPhiMax
	switch {
	case lnYHi <= sh.lnPeak:
		lnPhi = lnYHi - (beta+1)*numeric.Log(1+yHi)
	case lnYLo >= sh.lnPeak:
		lnPhi = lnYLo - (beta+1)*numeric.Log(1+yLo)
	}
	phiHat := beta * numeric.Exp(lnPhi)
	qLo, qHi := 1-1/(1+yLo), 1-1/(1+yHi) // 1 where y overflows
	p2 := func(q float64) float64 { return math.Abs(1 - (1+beta)*q) }
	p3 := func(q float64) float64 { return math.Abs(1 - 3*(1+beta)*q + (1+beta)*(2+beta)*q*q) }
	m3 := math.Max(p3(qLo), p3(qHi))
	if v := 3 / (2 * (2 + beta)); qLo < v && v < qHi {
		m3 = math.Max(m3, p3(v))
	}
	return phiHat, phiHat * math.Max(p2(qLo), p2(qHi)), phiHat * m3
}

// phi is y (1+y)^(-beta-1).
func phi(y, beta float64) float64 {
	return y * math.Exp(-(beta+1)*math.Log1p(y))
}

// groupTerm is one term of the grouped sum: w (signed mass) times G at eta = exp(a) and
// S = r, corrected by the spreads vaa, vap, vpp of a and p. A single change has no spread;
// a = -Inf marks a change to a zero LR followed by training (G = 1).
type groupTerm struct {
	w, a, r, vaa, vap, vpp float64
}

// drop is LD(t)/B and, when asked for, its derivatives in ln C, beta and gamma.
type drop struct {
	ld, dLnC, dBeta, dGamma float64
}

// saturated is the y beyond which G is 1 to working precision for any beta of interest;
// it also keeps y/(1+y) and friends finite.
const saturated = 1e250

// factor is C * eta^(-gamma) for a = ln eta: +Inf for a zero LR (so that G = 1), unless
// gamma = 0.
func (sh *shape) factor(a float64) float64 {
	if sh.gamma == 0 {
		return sh.c
	}
	return numeric.Exp(sh.lnC - sh.gamma*a)
}

// addTerms adds the groups idx of groups (each w times G, with its second-order spread
// correction), at prefix sum pt, to out, and their derivatives if grad; factor[u] is group u's
// C * eta^(-gamma), so that a term's y is factor[u] * (r + pt). ys, ls and es are scratch of at
// least len(idx), for every term's y, ln(1+y) and (1+y)^(-beta). The terms are looped over
// here, their logs and powers in numeric.LogOnePlusPowTo, so that wasm makes two calls per
// step rather than three per term (a call there costs about as much as the operation).
func (sh *shape) addTerms(out *drop, groups []groupTerm, idx []int32, factor []float64, pt float64, ys, ls, es []float64, grad bool) {
	ys, ls, es = ys[:len(idx)], ls[:len(idx)], es[:len(idx)]
	for k, u := range idx {
		ys[k] = factor[u] * (groups[u].r + pt)
	}
	numeric.LogOnePlusPowTo(ls, es, ys, sh.beta)
	beta, gamma := sh.beta, sh.gamma
	for k, u := range idx {
		tm := &groups[u]
		y := ys[k]
		if !(y < saturated) {
			out.ld += tm.w
			continue
		}
		l1, e := ls[k], es[k]
		g0 := 1 - e               // G; its absolute error (what the sum needs) is one ulp
		q, iy := y/(1+y), 1/(1+y) // written so that a large y cannot overflow
		g1 := beta * e * q        // dG/du, u = ln y
		if tm.vaa == 0 && tm.vpp == 0 && tm.vap == 0 {
			// a single change
			out.ld += tm.w * g0
			if grad {
				out.dLnC += tm.w * g1
				out.dGamma -= tm.w * tm.a * g1
				out.dBeta += tm.w * l1 * e
			}
			continue
		}
		g2 := g1 * (iy - beta*q)
		ir := 1 / (tm.r + pt)
		m1 := -0.5 * tm.vpp * ir * ir
		m2 := gamma*gamma*tm.vaa + 2*gamma*tm.vap*ir + tm.vpp*ir*ir
		out.ld += tm.w * (g0 + g1*m1 + 0.5*g2*m2)
		if grad {
			g3 := g1 * (iy*iy - (1+3*beta)*q*iy + beta*beta*q*q)
			du := g1 + g2*m1 + 0.5*g3*m2
			out.dLnC += tm.w * du
			out.dGamma += tm.w * (-tm.a*du + g2*(gamma*tm.vaa+tm.vap*ir))
			d1 := e * q * (1 - beta*l1) // d g1 / d beta
			d2 := e * q * ((1-beta*l1)*(iy-beta*q) - beta*q)
			out.dBeta += tm.w * (l1*e + d1*m1 + 0.5*d2*m2)
		}
	}
}
