package multipower

import (
	"math"
	"sort"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// The loss-drop tree: see the package documentation for the grouping and its error bound.

// maxLeaves bounds the number of leaves of a change tree (and so its memory); a leaf
// holds at least minBucket changes.
const (
	maxLeaves = 1 << 16
	minBucket = 8
)

// maxRho bounds the relative spread of S over a group: wider groups are split.
const maxRho = 0.5

// localBeta is the beta above which the grouping test also tries the derivative bounds on a
// node's own interval. Up to it, c_j/beta are within a factor 2 of the largest |P_j| can be
// anywhere (see shape.localBounds), and the cheaper test alone keeps ordinary fits as fast
// (and their results as they were); above it, c_2 and c_3 grow like beta^2 and beta^3 while the derivatives near
// a node below phi's peak do not: at the Fig. 2 optimum (beta near 3e6, C near 3e-10, G
// close to 1 - exp(-C*beta*x)) every change would be summed on its own.
const localBeta = 1

// series is one learning-rate schedule prepared for the loss-drop term.
type series struct {
	eta    []float64 // learning rate of every step, as the law counts it
	prefix []float64 // prefix[i] = sum_{j<=i} eta[j]
	ch     []int32   // the steps k >= 1 where eta[k] != eta[k-1], increasing
	nodes  []node
	leaves int // number of leaves (a power of two); node i has children 2i and 2i+1
	// slot numbers every possible group reference (scratch of newFrozen, kept zero)
	slot []int32
}

// slotOf is the index of a group reference in slot.
func (s *series) slotOf(ref int32) int {
	if ref&refKinds == refExact {
		return refKinds*len(s.nodes) + int(ref>>refBits)
	}
	return refKinds*int(ref>>refBits) + int(ref&refKinds)
}

// slots is the size of the slot table.
func (s *series) slots() int { return refKinds*len(s.nodes) + len(s.ch) }

// moments are the mass of a set of changes of one sign and the mass-weighted mean and
// (co)variances of a = ln eta_k and p = P_{k-1}.
type moments struct {
	w, a, p, vaa, vap, vpp float64
	sa, sp                 float64 // sqrt(vaa), sqrt(vpp), for the grouping test
}

// merge combines the moments of two disjoint sets.
func (l moments) merge(r moments) moments {
	switch {
	case l.w == 0:
		return r
	case r.w == 0:
		return l
	}
	w := l.w + r.w
	fl, fr := l.w/w, r.w/w
	m := moments{w: w, a: fl*l.a + fr*r.a, p: fl*l.p + fr*r.p}
	dla, dlp, dra, drp := l.a-m.a, l.p-m.p, r.a-m.a, r.p-m.p
	m.vaa = fl*(l.vaa+dla*dla) + fr*(r.vaa+dra*dra)
	m.vap = fl*(l.vap+dla*dlp) + fr*(r.vap+dra*drp)
	m.vpp = fl*(l.vpp+dlp*dlp) + fr*(r.vpp+drp*drp)
	return m
}

// node summarises the changes ch[lo:hi].
type node struct {
	lo, hi             int32
	dec, inc           moments // LR decreases (d > 0) and increases (d < 0)
	aMin, aMax         float64 // range of ln eta_k (aMin is -Inf when some eta_k is 0)
	pFirst, pLast      float64 // P_{k-1} of the first and the last change
	exactOnly, present bool
}

// newSeries prepares the learning rates eta (one per step from 0, as the law counts them).
func newSeries(eta []float64) *series {
	n := len(eta)
	s := &series{eta: eta, prefix: make([]float64, n)}
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
func (s *series) build() {
	bucket := max(minBucket, (len(s.ch)+maxLeaves-1)/maxLeaves)
	nb := (len(s.ch) + bucket - 1) / bucket
	s.leaves = 1
	for s.leaves < nb {
		s.leaves *= 2
	}
	s.nodes = make([]node, 2*s.leaves)
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
			nd := node{lo: l.lo, hi: r.hi, present: true, dec: l.dec.merge(r.dec), inc: l.inc.merge(r.inc),
				aMin: math.Min(l.aMin, r.aMin), aMax: math.Max(l.aMax, r.aMax), pFirst: l.pFirst, pLast: r.pLast}
			nd.check()
			s.nodes[i] = nd
		}
	}
}

// leaf summarises the changes ch[lo:hi] directly (two passes: means, then spreads).
func (s *series) leaf(lo, hi int) node {
	nd := node{lo: int32(lo), hi: int32(hi), present: true, aMin: math.Inf(1), aMax: math.Inf(-1),
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
		for _, m := range []*moments{&nd.dec, &nd.inc} {
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
func (nd *node) check() {
	for _, m := range []*moments{&nd.dec, &nd.inc} {
		m.sa, m.sp = math.Sqrt(m.vaa), math.Sqrt(m.vpp)
	}
	sum := nd.aMin + nd.aMax + nd.dec.a + nd.dec.p + nd.dec.vaa + nd.dec.vap + nd.dec.vpp +
		nd.inc.a + nd.inc.p + nd.inc.vaa + nd.inc.vap + nd.inc.vpp
	nd.exactOnly = math.IsInf(sum, 0) || math.IsNaN(sum)
}

// changesUpTo is the number of changes at steps <= t.
func (s *series) changesUpTo(t int) int {
	return sort.Search(len(s.ch), func(j int) bool { return int(s.ch[j]) > t })
}

// Group references: collect describes LD(t) as a list of int32, index<<refBits | kind,
// each a part of a tree node (kind refDec: its decreases, refInc: its increases;
// plus refFlat where G is flat over the node, so that its centroid alone is exact to
// working precision and the spread corrections are left out) or one change (refExact).
const (
	refDec   = 0
	refInc   = 1
	refExact = 2
	refFlat  = 4
	refBits  = 3
	refKinds = 1<<refBits - 1
)

// collect appends the groups of LD(t)/B at step t (0 <= t < len(eta)) for the shape's
// parameters and tolerance. stack is scratch space.
func (s *series) collect(t int, sh *shape, refs, stack []int32) ([]int32, []int32) {
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
					kind = refFlat
				}
				if nd.dec.w > 0 {
					refs = append(refs, i<<refBits|refDec|kind)
				}
				if nd.inc.w > 0 {
					refs = append(refs, i<<refBits|refInc|kind)
				}
				continue
			}
		}
		if int(i) >= s.leaves {
			for j := nd.lo; j < min(nd.hi, m); j++ {
				if pt-s.prefix[s.ch[j]-1] > 0 { // else nothing was trained since: G(0) = 0
					refs = append(refs, j<<refBits|refExact)
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
func (s *series) term(ref int32, pt float64) groupTerm {
	idx := ref >> refBits
	if ref&refKinds == refExact {
		k := s.ch[idx]
		return groupTerm{w: s.eta[k-1] - s.eta[k], a: math.Log(s.eta[k]), r: pt - s.prefix[k-1]}
	}
	mo, w := &s.nodes[idx].dec, 1.0
	if ref&1 == refInc {
		mo, w = &s.nodes[idx].inc, -1
	}
	if ref&refFlat != 0 {
		return groupTerm{w: w * mo.w, a: mo.a, r: pt - mo.p}
	}
	return groupTerm{w: w * mo.w, a: mo.a, r: pt - mo.p, vaa: mo.vaa, vap: mo.vap, vpp: mo.vpp}
}

// groupable applies the error test to a node whose changes are all at or before the step
// with prefix sum pt; flat says that G is flat over it (1 or near 0 to within tol, whatever
// the spread), so that the spread corrections must be left out (they may not even be finite
// for extreme parameters). The Taylor test takes H = gamma*(aMax - aMin) + rho
// (rho >= ln(1+rho)), and bounds phi on [yLo, yHi] by phi(1/beta) when 1/beta is inside,
// else by yHi below it (phi(y) <= y) or yLo^(-beta) above it (phi(y) <= y^(-beta)): two
// logarithms or exponentials per node. Where beta > localBeta, a node that fails is tried
// again with the bounds on its own interval (shape.localBounds).
func (s *series) groupable(nd *node, pt float64, sh *shape) (ok, flat bool) {
	if nd.exactOnly {
		return false, false
	}
	sLast, sFirst := pt-nd.pLast, pt-nd.pFirst
	if !(sLast > 0) {
		return false, false
	}
	rho := (sFirst - sLast) / sLast
	if !(rho < maxRho) {
		return false, false
	}
	ha := sh.gamma * (nd.aMax - nd.aMin)
	h := ha + rho
	kappa := rho / (2 * (1 - rho))
	// per unit mass, a part's remainder is at most sum_j (bound of |g^(j)|) * r[j]
	var parts [2][3]float64
	q := 0.0
	for i, mo := range [2]*moments{&nd.dec, &nd.inc} {
		if mo.w == 0 {
			continue
		}
		sz := mo.sp / (pt - mo.p)
		sd := sh.gamma*mo.sa + sz
		su := sd + kappa*sz
		r := &parts[i]
		r[0], r[1], r[2] = rho*sz*sz/(3*(1-rho)), kappa*sz*(2*sd+kappa*sz)/2, h*su*su/6
		q = math.Max(q, sh.c1*r[0]+sh.c2*r[1]+sh.c3*r[2])
	}
	if sh.phiMax*q <= sh.tol {
		return true, false
	}
	if sh.global {
		return false, false
	}
	lnYLo := sh.lnC - sh.gamma*nd.aMax + numeric.Log(sLast)
	lnYHi := lnYLo + h
	if sh.beta*lnYLo > 40 {
		// G = 1 - (1+y)^(-beta) is 1 within e^-40 on the node
		return true, true
	}
	// phi is at most y below its peak and y^(-beta) above it (one exponential); inside, the
	// test above already used its peak
	lnPhi := math.NaN()
	switch {
	case lnYHi < sh.lnPeak:
		lnPhi = lnYHi
	case lnYLo > sh.lnPeak:
		lnPhi = -sh.beta * lnYLo
	}
	if numeric.Exp(lnPhi)*q <= sh.tol {
		return true, false
	}
	if sh.beta > localBeta {
		d1, d2, d3 := sh.localBounds(lnYLo, lnYHi)
		local := 0.0
		for _, r := range parts {
			local = math.Max(local, d1*r[0]+d2*r[1]+d3*r[2])
		}
		if local <= sh.tol {
			return true, false
		}
	}
	// as a last resort (extreme parameters): 0 <= G <= beta*y <= tol on the node
	return sh.beta*numeric.Exp(lnYHi) <= sh.tol, true
}
