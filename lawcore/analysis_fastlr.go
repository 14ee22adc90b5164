package lawcore

import "math"

// A sweep expands hundreds of schedules of 100K steps; Schedule.fill evaluates each step
// through the general description (a switch, divisions, a cosine or a power per step), about
// 15-25 ns a step. fastFill writes the same values for the kinds the analyses build most
// (constant, cosine, WSD, multi-step without transitions) with loop invariants hoisted and
// the cosine and geometric decays advanced by recurrences (re-anchored every anchorEvery
// steps, so the rounding drift stays below 1e-12 relative), about 1-2 ns a step. Other
// schedules fall back to fill. fastfill_test.go checks both agree on every kind and shape.

// anchorEvery is how often the recurrences are recomputed exactly.
const anchorEvery = 256

// fastFill writes the learning rates of a valid schedule into lr (len(lr) == s.Length()) and
// reports whether it could; when it returns false, lr is untouched.
func fastFill(s *Schedule, lr []float64) bool {
	switch s.Kind {
	case KindConstant:
		for i := range lr {
			lr[i] = s.Peak
		}
	case KindCosine:
		if s.After == "restart" {
			return false
		}
		fillCosine(s, lr)
	case KindWSD:
		fillWSD(s, lr)
	case KindMultistep:
		if s.Transition > 0 {
			return false
		}
		fillMultistep(s, lr)
	default:
		return false
	}
	s.applyWarmup(lr)
	return true
}

// cosineRun writes base + amp*halfCosine(u) for u = u0 + k*du into out[k], by rotating the
// angle pi*u (exactly recomputed every anchorEvery steps).
func cosineRun(out []float64, base, amp, u0, du float64) {
	sd, cd := math.Sincos(math.Pi * du)
	var s, c float64
	for k := range out {
		if k%anchorEvery == 0 {
			s, c = math.Sincos(math.Pi * (u0 + float64(k)*du))
		} else {
			s, c = s*cd+c*sd, c*cd-s*sd
		}
		out[k] = base + amp*0.5*(1+c)
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

// fillCosine mirrors Schedule.cosine for After "hold" and "continue".
func fillCosine(s *Schedule, lr []float64) {
	w := s.Warmup
	period := float64(s.cycle() - w)
	amp := s.Peak - s.Final
	for i := 0; i < w && i < len(lr); i++ {
		lr[i] = s.Peak // u clamps to 0 before warmup; the warmup overwrites these
	}
	if w >= len(lr) {
		return
	}
	end := len(lr)
	if s.After != "continue" {
		end = min(len(lr), s.cycle()+1) // u <= 1 up to the cycle's end
	}
	cosineRun(lr[w:end], s.Final, amp, 0, 1/period)
	for i := end; i < len(lr); i++ {
		lr[i] = s.Final // held: halfCosine(1) = 0
	}
}

// fillWSD mirrors Schedule.wsd.
func fillWSD(s *Schedule, lr []float64) {
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

// fillMultistep mirrors Schedule.multistep without transitions: level k holds after the
// rounded boundary of stage k-1.
func fillMultistep(s *Schedule, lr []float64) {
	w := float64(s.Warmup)
	span := float64(s.Total) - w
	from := 0
	boundary := w
	for k := 0; k < len(s.Levels); k++ {
		to := len(lr) // exclusive
		if k+1 < len(s.Levels) {
			boundary += s.Stages[k] * span
			to = min(len(lr), max(from, int(math.Round(boundary))+1))
		}
		v := s.Peak * s.Levels[k]
		for i := from; i < to; i++ {
			lr[i] = v
		}
		from = to
	}
}
