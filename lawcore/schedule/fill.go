package schedule

import "math"

// How a schedule becomes one learning rate per step. Sweeps expand hundreds of schedules of
// 100K steps, so the common kinds (constant, cosine, WSD, multi-step) are filled by loops
// with their invariants hoisted, the cosine and geometric decays advanced by recurrences
// (re-anchored every anchorEvery steps, so that the rounding drift stays below 1e-12
// relative): about 1-2 ns a step, against 15-25 ns for evaluating each step's formula. The
// other kinds evaluate their formula at each step (at). Every kind then gets its warmup.

// anchorEvery is how often the recurrences are recomputed exactly.
const anchorEvery = 256

// fill writes the learning rate of steps 0..len(lr)-1 of a valid schedule.
func (s *Schedule) fill(lr []float64) {
	switch s.Kind {
	case KindConcat:
		s.fillConcat(lr)
		return
	case KindExplicit:
		s.fillExplicit(lr)
		return
	case KindConstant:
		for i := range lr {
			lr[i] = s.Peak
		}
	case KindCosine:
		s.fillCosine(lr)
	case KindWSD:
		s.fillWSD(lr)
	case KindMultistep:
		s.fillMultistep(lr)
	default:
		for i := range lr {
			lr[i] = s.at(i)
		}
	}
	s.applyWarmup(lr)
}

// applyWarmup overwrites steps 0..Warmup-1 with a linear ramp from WarmupFrom to the value at
// step Warmup.
func (s *Schedule) applyWarmup(lr []float64) {
	w := s.Warmup
	if w <= 0 || w >= len(lr) {
		return
	}
	target := lr[w]
	for i := 0; i < w; i++ {
		lr[i] = s.WarmupFrom + (target-s.WarmupFrom)*float64(i)/float64(w)
	}
}

// at is the value at step i, ignoring warmup, of the kinds filled step by step; their decays
// start at step Warmup.
func (s *Schedule) at(i int) float64 {
	w := float64(s.Warmup)
	x := float64(i)
	span := float64(s.Total) - w
	progress := 0.0
	if span > 0 {
		progress = math.Max(0, (x-w)/span)
	}
	switch s.Kind {
	case KindLinear:
		return s.Peak + (s.Final-s.Peak)*progress
	case KindPolynomial:
		return (s.Peak-s.Final)*math.Pow(1-progress, s.power()) + s.Final
	case KindCyclic:
		return s.cyclic(x)
	case KindInverseSqrt:
		tau := s.timescale()
		if x < w {
			return s.Peak
		}
		return s.Peak / math.Sqrt((x+tau-w)/tau)
	case KindOneCycle:
		return s.oneCycle(x)
	}
	panic("lawcore: schedule kind " + s.Kind + " has no per-step formula")
}

func (s *Schedule) power() float64 {
	if s.Power == 0 {
		return 1
	}
	return s.Power
}

func (s *Schedule) timescale() float64 {
	switch {
	case s.Timescale > 0:
		return s.Timescale
	case s.Warmup > 0:
		return float64(s.Warmup)
	}
	return 10000
}

func (s *Schedule) cycle() int {
	if s.Cycle == 0 {
		return s.Total
	}
	return s.Cycle
}

// halfCosine goes from 1 at u=0 to 0 at u=1.
func halfCosine(u float64) float64 { return 0.5 * (1 + math.Cos(math.Pi*u)) }

// cosineRun writes base + amp*halfCosine(u) for u = u0 + k*du into out[k], by rotating the
// angle pi*u (recomputed exactly every anchorEvery steps). The half cosine is clamped to
// [0, 1], so that rounding never takes a rate past its ends (a cosine to 0 ending at -1e-19).
func cosineRun(out []float64, base, amp, u0, du float64) {
	sd, cd := math.Sincos(math.Pi * du)
	var s, c float64
	for k := range out {
		if k%anchorEvery == 0 {
			s, c = math.Sincos(math.Pi * (u0 + float64(k)*du))
		} else {
			s, c = s*cd+c*sd, c*cd-s*sd
		}
		out[k] = base + amp*min(1, max(0, 0.5*(1+c)))
	}
}

// geometricRun writes a * r^k into out[k], anchored like cosineRun (r = exp(logR)).
func geometricRun(out []float64, a, logR float64) {
	r := math.Exp(logR)
	v := a
	for k := range out {
		if k%anchorEvery == 0 {
			v = a * math.Exp(logR*float64(k))
		} else {
			v *= r
		}
		out[k] = v
	}
}

// fillCosine writes Final + (Peak-Final)*halfCosine(u), u = (step-Warmup)/(Cycle-Warmup),
// clamped at 0 before the warmup ends; past the cycle (u > 1) the LR holds Final ("hold"),
// the wave goes on ("continue", halfCosine being periodic with period 2), or a new cycle
// starts ("restart": u runs through (0, 1] again).
func (s *Schedule) fillCosine(lr []float64) {
	if s.Cycles > 0 {
		s.fillRestarts(lr)
		return
	}
	w := s.Warmup
	period := s.cycle() - w
	amp := s.Peak - s.Final
	for i := 0; i < w && i < len(lr); i++ {
		lr[i] = s.Peak // u clamps to 0 before warmup; the warmup overwrites these
	}
	if w >= len(lr) {
		return
	}
	du := 1 / float64(period)
	switch s.After {
	case "continue":
		cosineRun(lr[w:], s.Final, amp, 0, du)
	case "restart":
		// cycle 0 covers steps w..w+period, cycle c >= 1 steps w+c*period+1..w+(c+1)*period
		cosineRun(lr[w:min(len(lr), w+period+1)], s.Final, amp, 0, du)
		for start := w + period + 1; start < len(lr); start += period {
			cosineRun(lr[start:min(len(lr), start+period)], s.Final, amp, du, du)
		}
	default:
		end := min(len(lr), s.cycle()+1)
		cosineRun(lr[w:end], s.Final, amp, 0, du)
		for i := end; i < len(lr); i++ {
			lr[i] = s.Final // held: halfCosine(1) = 0
		}
	}
}

// fillRestarts writes a cosine with Cycles hard restarts as transformers'
// get_cosine_with_hard_restarts_schedule_with_warmup computes it, step by step and in its
// floating-point order, so that it rounds alike: where Cycles*progress falls just below a
// whole number (22 cycles over 2,200 steps: 22*(1500/2200) = 14.999999999999998), the restart
// step is at the bottom of the cycle that ends there, as in transformers, not at the peak.
//
//	progress = (step-Warmup) / max(1, Total-Warmup)
//	LR = Final                                                     if progress >= 1
//	LR = Final + (Peak-Final) * 0.5*(1 + cos(pi*((Cycles*progress) mod 1)))  otherwise
//
// so a restart step is at Peak (but for that rounding) and the last step at Final.
func (s *Schedule) fillRestarts(lr []float64) {
	w := s.Warmup
	span := float64(max(1, s.Total-w))
	cycles := float64(s.Cycles)
	amp := s.Peak - s.Final
	for i := range lr {
		if i < w {
			lr[i] = s.Peak // the warmup overwrites these
			continue
		}
		progress := float64(i-w) / span
		if progress >= 1 {
			lr[i] = s.Final
			continue
		}
		lr[i] = s.Final + amp*max(0, 0.5*(1+math.Cos(math.Pi*math.Mod(cycles*progress, 1))))
	}
}

func (s *Schedule) decaySteps() int {
	if s.DecaySteps > 0 {
		return s.DecaySteps
	}
	return int(math.Round(s.DecayFraction * float64(s.Total)))
}

// fillWSD holds the peak to step Total-d and then decays over the last d steps with the
// shape Decay (t = (step - (Total-d))/d from 0 to 1): cosine (the default), linear, 1-sqrt,
// 1-square, exponential (Peak^(1-t) Final^t) or half-life (halving every HalfLife steps, down
// to Final).
func (s *Schedule) fillWSD(lr []float64) {
	d := s.decaySteps()
	start := s.Total - d
	for i := 0; i <= start && i < len(lr); i++ {
		lr[i] = s.Peak
	}
	if d == 0 || start+1 >= len(lr) {
		for i := range lr {
			lr[i] = s.Peak
		}
		return
	}
	fd := float64(d)
	decay := lr[start+1:]
	switch s.Decay {
	case "linear":
		for k := range decay {
			t := float64(k+1) / fd
			decay[k] = s.Final + (s.Peak-s.Final)*(1-t)
		}
	case "1-sqrt":
		for k := range decay {
			t := float64(k+1) / fd
			decay[k] = s.Final + (s.Peak-s.Final)*(1-math.Sqrt(t))
		}
	case "1-square":
		for k := range decay {
			t := float64(k+1) / fd
			decay[k] = s.Final + (s.Peak-s.Final)*(1-t*t)
		}
	case "exponential":
		// Peak^(1-t) * Final^t = Peak * (Final/Peak)^t
		logR := math.Log(s.Final/s.Peak) / fd
		geometricRun(decay, s.Peak*math.Exp(logR), logR)
	case "half-life":
		logR := -math.Ln2 / s.HalfLife
		geometricRun(decay, s.Peak*math.Exp(logR), logR)
		for k := range decay {
			decay[k] = math.Max(s.Final, decay[k])
		}
	default:
		cosineRun(decay, s.Final, s.Peak-s.Final, 1/fd, 1/fd)
	}
}

// fillMultistep holds Peak*Levels[k] in stage k; stage k ends at the step nearest to Warmup
// plus the first k+1 Stages' share of the steps after warmup (its boundary), and the next
// level begins at the step after it, or with Drop "at" on the boundary step itself (PyTorch
// MultiStepLR's milestone). With a Transition, the level moves from one stage's to the next
// along a half cosine over that many steps from where it would have changed.
func (s *Schedule) fillMultistep(lr []float64) {
	w := float64(s.Warmup)
	span := float64(s.Total) - w
	bounds := make([]float64, len(s.Levels)) // bounds[k]: last step of stage k-1 (k >= 1)
	boundary := w
	for k := 1; k < len(s.Levels); k++ {
		boundary += s.Stages[k-1] * span
		bounds[k] = math.Round(boundary)
		if s.Drop == "at" {
			bounds[k]-- // the boundary step is the new level's first
		}
	}
	tr := float64(s.Transition)
	k := 1 // first boundary the step has not passed
	for i := range lr {
		x := float64(i)
		for k < len(s.Levels) && x > bounds[k] && !(tr > 0 && x < bounds[k]+tr) {
			k++
		}
		level := s.Levels[k-1]
		if k < len(s.Levels) && x > bounds[k] { // within the transition after boundary k
			prev, next := s.Levels[k-1], s.Levels[k]
			level = next + (prev-next)*halfCosine((x-bounds[k])/tr)
		}
		lr[i] = s.Peak * level
	}
}

// cyclic starts at the peak (where the warmup left off), goes down to Final over StepSize
// steps and back up; under "triangular2" the amplitude halves every cycle. With Start "base"
// it follows cyclicFromBase.
func (s *Schedule) cyclic(x float64) float64 {
	if s.Start == "base" {
		return s.cyclicFromBase(x)
	}
	h := float64(s.StepSize)
	pos := math.Max(0, x-float64(s.Warmup))
	cycle := math.Floor(pos / (2 * h))
	phase := pos - cycle*2*h
	down := phase / h
	if down > 1 {
		down = 2 - down
	}
	amp := 1.0
	if s.Mode == "triangular2" {
		amp = math.Exp2(-cycle)
	}
	return s.Final + (s.Peak-s.Final)*amp*(1-down)
}

// cyclicFromBase follows torch.optim.lr_scheduler.CyclicLR(base_lr=Final, max_lr=Peak,
// step_size_up=StepSize) (step_size_down the same) in its floating-point order, its step 0 at
// step Warmup: Final there, up to Peak over StepSize steps and back down; "triangular2"
// halves the amplitude every cycle (scale 1/2^(cycle-1), cycle counted from 1).
func (s *Schedule) cyclicFromBase(x float64) float64 {
	size := 2 * float64(s.StepSize)
	ratio := float64(s.StepSize) / size
	n := math.Max(0, x-float64(s.Warmup))
	cycle := math.Floor(1 + n/size)
	f := 1 + n/size - cycle
	scale := (f - 1) / (ratio - 1)
	if f <= ratio {
		scale = f / ratio
	}
	amp := 1.0
	if s.Mode == "triangular2" {
		amp = 1 / math.Pow(2, cycle-1)
	}
	return s.Final + (s.Peak-s.Final)*scale*amp
}

func (s *Schedule) oneCycleDefaults() (pct, div, finalDiv float64) {
	pct, div, finalDiv = s.PctStart, s.DivFactor, s.FinalDivFactor
	if pct == 0 {
		pct = 0.3
	}
	if div == 0 {
		div = 25
	}
	if finalDiv == 0 {
		finalDiv = 1e4
	}
	return pct, div, finalDiv
}

// oneCycle follows torch.optim.lr_scheduler.OneCycleLR with total_steps = Total+1.
func (s *Schedule) oneCycle(x float64) float64 {
	pct, div, finalDiv := s.oneCycleDefaults()
	initial := s.Peak / div
	minimum := initial / finalDiv
	end1 := pct*float64(s.Total+1) - 1
	end2 := float64(s.Total)
	anneal := func(from, to, t float64) float64 {
		if s.Anneal == "linear" {
			return from + (to-from)*t
		}
		return to + (from-to)*halfCosine(t)
	}
	if x <= end1 {
		return anneal(initial, s.Peak, x/end1)
	}
	return anneal(s.Peak, minimum, (x-end1)/(end2-end1))
}
func (s *Schedule) fillConcat(lr []float64) {
	offset := 0
	for k, seg := range s.Segments {
		part := make([]float64, seg.Length())
		seg.fill(part)
		from := 1
		if k == 0 {
			from = 0
		}
		copy(lr[offset+from:], part[from:])
		offset += len(part) - 1
	}
}

func (s *Schedule) fillExplicit(lr []float64) {
	if len(s.Steps) == 0 {
		n := copy(lr, s.Values)
		for i := n; i < len(lr); i++ {
			lr[i] = s.Values[len(s.Values)-1]
		}
		s.applyWarmup(lr)
		return
	}
	k := 0
	first := int(s.Steps[0])
	for i := range lr {
		x := float64(i)
		switch {
		case i <= first:
			lr[i] = s.Values[0]
		default:
			for k+1 < len(s.Steps) && s.Steps[k+1] < x {
				k++
			}
			if k+1 == len(s.Steps) {
				lr[i] = s.Values[k]
			} else {
				t := (x - s.Steps[k]) / (s.Steps[k+1] - s.Steps[k])
				lr[i] = s.Values[k] + (s.Values[k+1]-s.Values[k])*t
			}
		}
	}
	s.applyWarmup(lr)
}
