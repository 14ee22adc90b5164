package schedule

import (
	"fmt"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// referenceLR is the value at step i of the kinds filled by recurrences (constant, cosine,
// WSD, multi-step), evaluated from the definitions one step at a time, with the warmup ramp.
func referenceLR(s Schedule, i int) float64 {
	if i < s.Warmup {
		return s.WarmupFrom + (referenceLR(s, s.Warmup)-s.WarmupFrom)*float64(i)/float64(s.Warmup)
	}
	w, x := float64(s.Warmup), float64(i)
	switch s.Kind {
	case KindConstant:
		return s.Peak
	case KindCosine:
		if s.Cycles > 0 {
			// transformers' cosine with hard restarts, in its order of operations
			progress := (x - w) / math.Max(1, float64(s.Total)-w)
			if progress >= 1 {
				return s.Final
			}
			v := float64(s.Cycles) * progress
			return s.Final + (s.Peak-s.Final)*0.5*(1+math.Cos(math.Pi*(v-math.Floor(v))))
		}
		u := math.Max(0, (x-w)/(float64(s.cycle())-w))
		if u > 1 {
			switch s.After {
			case "continue":
			case "restart":
				u -= math.Ceil(u) - 1
			default:
				u = 1
			}
		}
		return s.Final + (s.Peak-s.Final)*0.5*(1+math.Cos(math.Pi*u))
	case KindWSD:
		d := float64(s.decaySteps())
		start := float64(s.Total) - d
		if x <= start || d == 0 {
			return s.Peak
		}
		t := (x - start) / d
		switch s.Decay {
		case "linear":
			return s.Final + (s.Peak-s.Final)*(1-t)
		case "1-sqrt":
			return s.Final + (s.Peak-s.Final)*(1-math.Sqrt(t))
		case "1-square":
			return s.Final + (s.Peak-s.Final)*(1-t*t)
		case "exponential":
			return math.Pow(s.Peak, 1-t) * math.Pow(s.Final, t)
		case "half-life":
			return math.Max(s.Final, s.Peak*math.Exp2(-(x-start)/s.HalfLife))
		}
		return s.Final + (s.Peak-s.Final)*0.5*(1+math.Cos(math.Pi*t))
	case KindMultistep:
		span := float64(s.Total) - w
		level, boundary := s.Levels[0], w
		for k := 1; k < len(s.Levels); k++ {
			boundary += s.Stages[k-1] * span
			b := math.Round(boundary)
			if s.Drop == "at" {
				b-- // the new level begins on the boundary step: b is the old one's last
			}
			if x <= b {
				break
			}
			prev, next := s.Levels[k-1], s.Levels[k]
			if tr := float64(s.Transition); tr > 0 && x < b+tr {
				level = next + (prev-next)*0.5*(1+math.Cos(math.Pi*(x-b)/tr))
				break
			}
			level = next
		}
		return s.Peak * level
	}
	panic("no reference for " + s.Kind)
}

// Schedule.LR (whose common kinds are filled by recurrences) agrees with the definitions
// evaluated step by step, for every kind and shape the recurrences take.
func TestFillMatchesDefinitions(t *testing.T) {
	var cases []Schedule
	for _, total := range []int{1, 7, 1000, 100001} {
		for _, warmup := range []int{0, 1, 100} {
			if warmup >= total {
				continue
			}
			base := Schedule{Total: total, Peak: 3e-4, Warmup: warmup, WarmupFrom: 1e-5}
			with := func(f func(*Schedule)) Schedule { s := base; f(&s); return s }
			cases = append(cases,
				with(func(s *Schedule) { s.Kind = KindConstant }),
				with(func(s *Schedule) { s.Kind = KindCosine }),
				with(func(s *Schedule) { s.Kind = KindCosine; s.Final = 3e-5 }),
				with(func(s *Schedule) { s.Kind = KindCosine; s.Cycle = warmup + (total-warmup)/2 + 1 }),
				with(func(s *Schedule) { s.Kind = KindCosine; s.Cycle = 2*total + 3; s.Final = 1e-5 }),
				with(func(s *Schedule) { s.Kind = KindCosine; s.Cycle = warmup + (total-warmup)/3 + 1; s.After = "continue" }),
				with(func(s *Schedule) {
					s.Kind = KindCosine
					s.Cycle = warmup + (total-warmup)/3 + 1
					s.After = "restart"
					s.Final = 2e-5
				}),
				with(func(s *Schedule) { s.Kind, s.Cycles = KindCosine, min(4, total-warmup) }),
				with(func(s *Schedule) { s.Kind, s.Cycles, s.Final = KindCosine, min(3, total-warmup), 2e-5 }),
			)
			for _, shape := range DecayShapes {
				for _, frac := range []float64{0.001, 0.1, 0.5, 1} {
					s := with(func(s *Schedule) {
						s.Kind, s.Decay, s.DecayFraction, s.Final, s.HalfLife = KindWSD, shape, frac, 2e-6, 37
					})
					if s.Validate() == nil {
						cases = append(cases, s)
					}
				}
			}
			cases = append(cases,
				with(func(s *Schedule) {
					s.Kind, s.Stages, s.Levels = KindMultistep, []float64{0.8, 0.1, 0.1}, []float64{1, 0.316, 0.1}
				}),
				with(func(s *Schedule) {
					s.Kind, s.Stages, s.Levels = KindMultistep, []float64{0.33, 0.33, 0.34}, []float64{0.5, 1, 0}
				}),
				with(func(s *Schedule) {
					s.Kind, s.Stages, s.Levels, s.Transition = KindMultistep, []float64{0.8, 0.1, 0.1}, []float64{1, 0.316, 0.1}, 1+total/20 // within the 10% stages
				}),
				with(func(s *Schedule) {
					s.Kind, s.Stages, s.Levels, s.Drop = KindMultistep, []float64{0.8, 0.1, 0.1}, []float64{1, 0.316, 0.1}, "at"
				}),
				with(func(s *Schedule) {
					s.Kind, s.Stages, s.Levels, s.Transition, s.Drop = KindMultistep, []float64{0.5, 0.5}, []float64{1, 0.1}, 1+total/20, "at"
				}))
		}
	}
	for _, s := range cases {
		name := fmt.Sprintf("%s/%s total %d warmup %d cycle %d after %q cycles %d drop %q fraction %g", s.Kind, s.Decay, s.Total, s.Warmup, s.Cycle, s.After, s.Cycles, s.Drop, s.DecayFraction)
		got, err := s.LR()
		if err != nil {
			t.Fatal(name, err)
		}
		for i := range got {
			if got[i] < 0 { // the rounding of a recurrence must not cross 0 (an LR list is then refused)
				t.Fatalf("%s: step %d: a negative rate %g", name, i, got[i])
			}
			want := referenceLR(s, i)
			if !numeric.CloseRel(got[i], want, 1e-12) && !numeric.CloseRel(got[i]/3e-4, want/3e-4, 1e-12) {
				t.Fatalf("%s: step %d: Schedule.LR %.17g, the definition %.17g", name, i, got[i], want)
			}
		}
	}
	t.Logf("%d schedules agree", len(cases))
}
