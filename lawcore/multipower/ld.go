package lawcore

import (
	"math"
	"sort"
)

// The loss-drop term of the Multi-Power Law, evaluated fast.
//
// For an observed step t,
//
//	LD(t)/B = sum_{k=1..t} d_k * G(eta_k^(-gamma) * S_k(t)),   d_k = eta_{k-1} - eta_k,
//	G(x) = 1 - (1 + C*x)^(-beta),   S_k(t) = sum_{tau=k..t} eta_tau = P_t - P_{k-1},
//
// with P the prefix sums of the learning rates. Steps where the learning rate does not change
// (d_k = 0) contribute nothing, so only the n change steps are kept. They are grouped in a
// binary tree whose leaves hold a few consecutive changes. Every node keeps, separately for
// the LR decreases (d_k > 0) and increases (d_k < 0), the mass W = sum |d_k| and the
// W-weighted mean and (co)variances of a_k = ln eta_k and p_k = P_{k-1}, and over all its
// changes the range of a and the p of its first and last change. In u = ln(C x) a change
// sits at u_k = ln C - gamma*a_k + ln(P_t - p_k); with g(u) = G(e^u / C), one sign's part of
// a node is replaced by the second-order expansion about its centroid
// u_c = ln C - gamma*mean(a) + ln R, R = P_t - mean(p):
//
//	sum w_k g(u_k) ~ W (g(u_c) + g'(u_c) m1 + g''(u_c) m2 / 2),
//	m1 = -Vpp/(2R^2),   m2 = gamma^2 Vaa + 2 gamma Vap/R + Vpp/R^2,
//
// m1 and m2 being the mean and mean square of u_k - u_c to second order in the spread. A
// node is grouped when the remainder of that expansion, per unit of mass, is at most tol for
// each part:
//
//	phi^ * (c1 rho sz^2/(3(1-rho)) + c2 k sz (2 sd + k sz)/2 + c3 H (sd + k sz)^2/6) <= tol.
//
// Here every change of the node lies in [uLo, uLo + H], H = gamma*(aMax - aMin) + rho with
// rho = (S_first - S_last)/S_last < 1/2 (>= ln(S_first/S_last)), which also bounds
// |z| = |p_k - mean p|/R; k = rho/(2(1-rho)), so that |ln(1-z) + z| <= k |z|;
// sz = sqrt(Vpp)/R is the spread of z and sd = gamma*sqrt(Vaa) + sz that of u to first
// order. With y = e^u, |g'| = c1 phi(y), |g''| <= c2 phi(y) and |g'''| <= c3 phi(y), where
// phi(y) = y (1+y)^(-beta-1), c1 = beta, c2 = beta*max(1, beta) and
// c3 = beta*max(1, beta^2, (1+3 beta)/2); phi^ bounds phi on [e^uLo, e^(uLo+H)]: its peak
// phi(1/beta) if 1/beta is inside, else e^(uLo+H) below it (phi(y) <= y) or e^(-beta uLo)
// above it (phi(y) <= y^(-beta)). The three terms bound the errors of m1 and m2 and the
// third-order Taylor remainder (with E|du|^3 <= H E[du^2]); together they bound the part's
// error by tol * W. Two cases are grouped without the test and without the spread
// corrections (which extreme parameters can make overflow): G = 1 within e^-40 over the node
// (beta*uLo > 40), or, when the test fails, 0 <= G <= beta*y <= tol over it. Nodes that fail
// are split; the changes of a leaf that fails are summed exactly. Hence, for every t and
// every parameter set,
//
//	|LD_grouped(t) - LD(t)| <= tol * B * sum_{k<=t} |eta_{k-1} - eta_k|,
//
// tol times the largest loss drop the changes before t could produce (rounding aside). The
// test depends on C, beta and gamma through the derivatives of G, so groups are wide where G
// is saturated or nearly linear, and narrow only where it bends. The bound is far from
// tight: TestMultiPowerGroupedMatchesNaive measures errors 200 (tol 1e-3) to 1000 (tol 1e-6)
// times below it.
//
// Cost: preparing a schedule of T steps takes O(T) time and O(n) memory for its n changes (a
// schedule that only changes during warmup costs only its warmup). Evaluating LD at one step
// visits O(m log n) nodes for m terms, against t terms for the direct double loop. For
// smooth schedules m grows like the logarithm of the number of changes before t over the
// allowed spread (about tol^(1/3)), plus the warmup's gamma*ln(peak/first LR) over it.
// Measured with the release's parameters (terms per step, mean over steps): a 24,000-step
// cosine with a 2,160-step warmup from 0 takes 48, 82, 147 and 262 terms at tol 1e-3, 1e-4,
// 1e-5 and 1e-6; a WSD or a two-level step schedule half as many; a schedule whose LR changes
// at random every step 58 to 1,240.

// mpowMaxLeaves bounds the number of leaves of a change tree (and so its memory); a leaf
// holds at least mpowMinBucket changes.
const (
	mpowMaxLeaves = 1 << 16
	mpowMinBucket = 8
)

// mpowMaxRho bounds the relative spread of S over a group: wider groups are split.
const mpowMaxRho = 0.5

// mpowSeries is one learning-rate schedule prepared for the loss-drop term.
type mpowSeries struct {
	eta    []float64 // learning rate of every step, as the law counts it
	prefix []float64 // prefix[i] = sum_{j<=i} eta[j]
	ch     []int32   // the steps k >= 1 where eta[k] != eta[k-1], increasing
	nodes  []mpowNode
	leaves int // number of leaves (a power of two); node i has children 2i and 2i+1
	// slot numbers every possible group reference (scratch of newMpowFrozen, kept zero)
	slot []int32
}

// slotOf is the index of a group reference in slot.
func (s *mpowSeries) slotOf(ref int32) int {
	if ref&mpowRefKinds == mpowRefExact {
		return mpowRefKinds*len(s.nodes) + int(ref>>mpowRefBits)
	}
	return mpowRefKinds*int(ref>>mpowRefBits) + int(ref&mpowRefKinds)
}

// slots is the size of the slot table.
func (s *mpowSeries) slots() int { return mpowRefKinds*len(s.nodes) + len(s.ch) }

// mpowMoments are the mass of a set of changes of one sign and the mass-weighted mean and
// (co)variances of a = ln eta_k and p = P_{k-1}.
type mpowMoments struct {
	w, a, p, vaa, vap, vpp float64
	sa, sp                 float64 // sqrt(vaa), sqrt(vpp), for the grouping test
}

// merge combines the moments of two disjoint sets.
func (l mpowMoments) merge(r mpowMoments) mpowMoments {
	switch {
	case l.w == 0:
		return r
	case r.w == 0:
		return l
	}
	w := l.w + r.w
	fl, fr := l.w/w, r.w/w
	m := mpowMoments{w: w, a: fl*l.a + fr*r.a, p: fl*l.p + fr*r.p}
	dla, dlp, dra, drp := l.a-m.a, l.p-m.p, r.a-m.a, r.p-m.p
	m.vaa = fl*(l.vaa+dla*dla) + fr*(r.vaa+dra*dra)
	m.vap = fl*(l.vap+dla*dlp) + fr*(r.vap+dra*drp)
	m.vpp = fl*(l.vpp+dlp*dlp) + fr*(r.vpp+drp*drp)
	return m
}

// mpowNode summarises the changes ch[lo:hi].
type mpowNode struct {
	lo, hi             int32
	dec, inc           mpowMoments // LR decreases (d > 0) and increases (d < 0)
	aMin, aMax         float64     // range of ln eta_k (aMin is -Inf when some eta_k is 0)
	pFirst, pLast      float64     // P_{k-1} of the first and the last change
	exactOnly, present bool
}

// newMpowSeries prepares the learning rates lr (one per step from 0); under WarmupPeak the
// first warmup steps count at the learning rate of step warmup, as in FillAreas.
func newMpowSeries(lr []float64, warmup int, conv Convention) *mpowSeries {
	n := len(lr)
	s := &mpowSeries{eta: lr, prefix: make([]float64, n)}
	if conv == WarmupPeak && warmup > 0 && warmup < n {
		s.eta = make([]float64, n)
		copy(s.eta, lr)
		for i := 0; i < warmup; i++ {
			s.eta[i] = lr[warmup]
		}
	}
	sum := 0.0
	for i, e := range s.eta {
		sum += e
		s.prefix[i] = sum
		if i > 0 && e != s.eta[i-1] {
			s.ch = append(s.ch, int32(i))
		}
	}
	s.build()
	return s
}

// build lays out the change tree.
func (s *mpowSeries) build() {
	bucket := max(mpowMinBucket, (len(s.ch)+mpowMaxLeaves-1)/mpowMaxLeaves)
	nb := (len(s.ch) + bucket - 1) / bucket
	s.leaves = 1
	for s.leaves < nb {
		s.leaves *= 2
	}
	s.nodes = make([]mpowNode, 2*s.leaves)
	for b := 0; b < nb; b++ {
		lo, hi := b*bucket, min((b+1)*bucket, len(s.ch))
		s.nodes[s.leaves+b] = s.leaf(lo, hi)
	}
	for i := s.leaves - 1; i >= 1; i-- {
		l, r := &s.nodes[2*i], &s.nodes[2*i+1]
		switch {
		case !l.present:
		case !r.present:
			s.nodes[i] = *l
		default:
			nd := mpowNode{lo: l.lo, hi: r.hi, present: true, dec: l.dec.merge(r.dec), inc: l.inc.merge(r.inc),
				aMin: math.Min(l.aMin, r.aMin), aMax: math.Max(l.aMax, r.aMax), pFirst: l.pFirst, pLast: r.pLast}
			nd.check()
			s.nodes[i] = nd
		}
	}
}

// leaf summarises the changes ch[lo:hi] directly (two passes: means, then spreads).
func (s *mpowSeries) leaf(lo, hi int) mpowNode {
	nd := mpowNode{lo: int32(lo), hi: int32(hi), present: true, aMin: math.Inf(1), aMax: math.Inf(-1),
		pFirst: s.prefix[s.ch[lo]-1], pLast: s.prefix[s.ch[hi-1]-1]}
	for pass := 0; pass < 2; pass++ {
		for j := lo; j < hi; j++ {
			k := s.ch[j]
			d, a, p := s.eta[k-1]-s.eta[k], math.Log(s.eta[k]), s.prefix[k-1]
			m := &nd.dec
			if d < 0 {
				m, d = &nd.inc, -d
			}
			if pass == 0 {
				m.w += d
				m.a += d * a
				m.p += d * p
				nd.aMin, nd.aMax = math.Min(nd.aMin, a), math.Max(nd.aMax, a)
				continue
			}
			da, dp := a-m.a, p-m.p
			m.vaa += d * da * da
			m.vap += d * da * dp
			m.vpp += d * dp * dp
		}
		for _, m := range []*mpowMoments{&nd.dec, &nd.inc} {
			if m.w == 0 {
				continue
			}
			if pass == 0 {
				m.a /= m.w
				m.p /= m.w
			} else {
				m.vaa /= m.w
				m.vap /= m.w
				m.vpp /= m.w
			}
		}
	}
	nd.check()
	return nd
}

// check marks a node that must never be grouped: one with a zero learning rate (ln 0), or
// whose moments are not finite.
func (nd *mpowNode) check() {
	for _, m := range []*mpowMoments{&nd.dec, &nd.inc} {
		m.sa, m.sp = math.Sqrt(m.vaa), math.Sqrt(m.vpp)
	}
	sum := nd.aMin + nd.aMax + nd.dec.a + nd.dec.p + nd.dec.vaa + nd.dec.vap + nd.dec.vpp +
		nd.inc.a + nd.inc.p + nd.inc.vaa + nd.inc.vap + nd.inc.vpp
	nd.exactOnly = math.IsInf(sum, 0) || math.IsNaN(sum)
}

// changesUpTo is the number of changes at steps <= t.
func (s *mpowSeries) changesUpTo(t int) int {
	return sort.Search(len(s.ch), func(j int) bool { return int(s.ch[j]) > t })
}

// Group references: collect describes LD(t) as a list of int32, index<<mpowRefBits | kind,
// each a part of a tree node (kind mpowRefDec: its decreases, mpowRefInc: its increases;
// plus mpowRefFlat where G is flat over the node, so that its centroid alone is exact to
// working precision and the spread corrections are left out) or one change (mpowRefExact).
const (
	mpowRefDec   = 0
	mpowRefInc   = 1
	mpowRefExact = 2
	mpowRefFlat  = 4
	mpowRefBits  = 3
	mpowRefKinds = 1<<mpowRefBits - 1
)

// collect appends the groups of LD(t)/B at step t (0 <= t < len(eta)) for the shape's
// parameters and tolerance. stack is scratch space.
func (s *mpowSeries) collect(t int, sh *mpowShape, refs, stack []int32) ([]int32, []int32) {
	m := int32(s.changesUpTo(t))
	if m == 0 || sh.beta == 0 || sh.c == 0 {
		return refs, stack
	}
	pt := s.prefix[t]
	stack = append(stack[:0], 1)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &s.nodes[i]
		if !nd.present || nd.lo >= m {
			continue
		}
		if nd.hi <= m && nd.hi-nd.lo > 1 {
			if ok, flat := s.groupable(nd, pt, sh); ok {
				kind := int32(0)
				if flat {
					kind = mpowRefFlat
				}
				if nd.dec.w > 0 {
					refs = append(refs, i<<mpowRefBits|mpowRefDec|kind)
				}
				if nd.inc.w > 0 {
					refs = append(refs, i<<mpowRefBits|mpowRefInc|kind)
				}
				continue
			}
		}
		if int(i) >= s.leaves {
			for j := nd.lo; j < min(nd.hi, m); j++ {
				if pt-s.prefix[s.ch[j]-1] > 0 { // else nothing was trained since: G(0) = 0
					refs = append(refs, j<<mpowRefBits|mpowRefExact)
				}
			}
			continue
		}
		// right child first on the stack, so that older changes come first
		stack = append(stack, 2*i+1, 2*i)
	}
	return refs, stack
}

// term is the term a reference stands for at a step with prefix sum pt.
func (s *mpowSeries) term(ref int32, pt float64) mpowTerm {
	idx := ref >> mpowRefBits
	if ref&mpowRefKinds == mpowRefExact {
		k := s.ch[idx]
		return mpowTerm{w: s.eta[k-1] - s.eta[k], a: math.Log(s.eta[k]), r: pt - s.prefix[k-1]}
	}
	mo, w := &s.nodes[idx].dec, 1.0
	if ref&1 == mpowRefInc {
		mo, w = &s.nodes[idx].inc, -1
	}
	if ref&mpowRefFlat != 0 {
		return mpowTerm{w: w * mo.w, a: mo.a, r: pt - mo.p}
	}
	return mpowTerm{w: w * mo.w, a: mo.a, r: pt - mo.p, vaa: mo.vaa, vap: mo.vap, vpp: mo.vpp}
}

// groupable applies the error test to a node whose changes are all at or before the step
// with prefix sum pt; flat says that G is flat over it (1 or near 0 to within tol, whatever
// the spread), so that the spread corrections must be left out (they may not even be finite
// for extreme parameters). The Taylor test takes H = gamma*(aMax - aMin) + rho
// (rho >= ln(1+rho)), and bounds phi on [yLo, yHi] by phi(1/beta) when 1/beta is inside,
// else by yHi below it (phi(y) <= y) or yLo^(-beta) above it (phi(y) <= y^(-beta)): two
// logarithms or exponentials per node.
func (s *mpowSeries) groupable(nd *mpowNode, pt float64, sh *mpowShape) (ok, flat bool) {
	if nd.exactOnly {
		return false, false
	}
	sLast, sFirst := pt-nd.pLast, pt-nd.pFirst
	if !(sLast > 0) {
		return false, false
	}
	rho := (sFirst - sLast) / sLast
	if !(rho < mpowMaxRho) {
		return false, false
	}
	ha := sh.gamma * (nd.aMax - nd.aMin)
	h := ha + rho
	kappa := rho / (2 * (1 - rho))
	// the remainder per unit mass is at most phi(y^) times the largest of the parts' q
	q := 0.0
	for _, mo := range [2]*mpowMoments{&nd.dec, &nd.inc} {
		if mo.w == 0 {
			continue
		}
		sz := mo.sp / (pt - mo.p)
		sd := sh.gamma*mo.sa + sz
		su := sd + kappa*sz
		q = math.Max(q, sh.c1*rho*sz*sz/(3*(1-rho))+sh.c2*kappa*sz*(2*sd+kappa*sz)/2+sh.c3*h*su*su/6)
	}
	if sh.phiMax*q <= sh.tol {
		return true, false
	}
	if sh.global {
		return false, false
	}
	lnYLo := sh.lnC - sh.gamma*nd.aMax + mpowLog(sLast)
	lnYHi := lnYLo + h
	if sh.beta*lnYLo > 40 {
		// G = 1 - (1+y)^(-beta) is 1 within e^-40 on the node
		return true, true
	}
	lnPhi := math.NaN()
	switch {
	case lnYHi < sh.lnPeak:
		lnPhi = lnYHi
	case lnYLo > sh.lnPeak:
		lnPhi = -sh.beta * lnYLo
	}
	if mpowExp(lnPhi)*q <= sh.tol {
		return true, false
	}
	// as a last resort (extreme parameters): 0 <= G <= beta*y <= tol on the node
	return sh.beta*mpowExp(lnYHi) <= sh.tol, true
}
