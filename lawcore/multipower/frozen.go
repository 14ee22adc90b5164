package multipower

// frozen is the loss drop at a fixed set of steps (of one or more schedules) with its
// grouping chosen once, for given parameters and tolerance, and then kept as the parameters
// change: a smooth function of them, cheap to evaluate again. Groups that several steps share
// are stored once, so exp(-gamma * mean ln eta) is computed once per group and evaluation;
// what remains per step and group is one log1p and one exp.
type frozen struct {
	groups  []groupTerm // every distinct group, with r = its mean P_{k-1} (not yet S)
	pt      []float64   // P_t of every step
	from    []int32     // the groups of step i are idx[from[i]:from[i+1]]
	idx     []int32
	factor  []float64 // scratch: exp(ln C - gamma*a) per group
	y, l, e []float64 // scratch: each term of a step's y, ln(1+y) and (1+y)^(-beta)

	refs, stack []int32 // scratch of group
	used        []slotRef
}

// slotRef is a slot of a series' slot table.
type slotRef struct {
	s    *series
	slot int
}

// stepRef names a step t of schedule series[curve].
type stepRef struct {
	curve, t int
}

// newFrozen groups the loss drop of every step for the shape sh.
func newFrozen(series []*series, steps []stepRef, sh *shape) *frozen {
	f := &frozen{}
	f.group(series, steps, sh)
	return f
}

// group (re)chooses the groups of every step for the shape sh, reusing f's memory.
func (f *frozen) group(series []*series, steps []stepRef, sh *shape) {
	f.groups, f.idx, f.used = f.groups[:0], f.idx[:0], f.used[:0]
	if cap(f.pt) < len(steps) {
		f.pt = make([]float64, len(steps))
	}
	f.pt, f.from = f.pt[:len(steps)], f.from[:0]
	for i, st := range steps {
		s := series[st.curve]
		if s.slot == nil {
			s.slot = make([]int32, s.slots())
		}
		f.pt[i] = s.prefix[st.t]
		f.from = append(f.from, int32(len(f.idx)))
		f.refs, f.stack = s.collect(st.t, sh, f.refs[:0], f.stack)
		for _, ref := range f.refs {
			k := s.slotOf(ref)
			if s.slot[k] == 0 {
				// the term at pt = 0 holds -p in r: r = pt + (that)
				f.groups = append(f.groups, s.term(ref, 0))
				s.slot[k] = int32(len(f.groups))
				f.used = append(f.used, slotRef{s, k})
			}
			f.idx = append(f.idx, s.slot[k]-1)
		}
	}
	for _, u := range f.used {
		u.s.slot[u.slot] = 0
	}
	f.from = append(f.from, int32(len(f.idx)))
	if cap(f.factor) < len(f.groups) {
		f.factor = make([]float64, len(f.groups))
	}
	f.factor = f.factor[:len(f.groups)]
	most := 0
	for i := range steps {
		most = max(most, int(f.from[i+1]-f.from[i]))
	}
	if cap(f.y) < most {
		f.y, f.l, f.e = make([]float64, most), make([]float64, most), make([]float64, most)
	}
}

// terms is the number of group terms the evaluation sums.
func (f *frozen) terms() int { return len(f.idx) }

// eval writes LD/B at every step into out (and its derivatives, if grad) for the loss-drop
// parameters of sh (whose tolerance is not used).
func (f *frozen) eval(sh *shape, out []drop, grad bool) {
	for u := range f.groups {
		f.factor[u] = sh.factor(f.groups[u].a)
	}
	for i, pt := range f.pt {
		var d drop
		if sh.beta != 0 && sh.c != 0 {
			sh.addTerms(&d, f.groups, f.idx[f.from[i]:f.from[i+1]], f.factor, pt, f.y, f.l, f.e, grad)
		}
		out[i] = d
	}
}
