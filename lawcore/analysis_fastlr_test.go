package lawcore

import (
	"fmt"
	"testing"
)

// fastFill writes the values Schedule.LR does, for every kind and shape it takes.
func TestFastFillMatchesSchedule(t *testing.T) {
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
				}))
		}
	}
	for _, s := range cases {
		name := fmt.Sprintf("%s/%s total %d warmup %d cycle %d after %q fraction %g", s.Kind, s.Decay, s.Total, s.Warmup, s.Cycle, s.After, s.DecayFraction)
		want, err := s.LR()
		if err != nil {
			t.Fatal(name, err)
		}
		got := make([]float64, len(want))
		if !fastFill(&s, got) {
			t.Fatalf("%s: fastFill declined", name)
		}
		for i := range want {
			if !closeRel(got[i], want[i], 1e-12) && !closeRel(got[i]/3e-4, want[i]/3e-4, 1e-12) {
				t.Fatalf("%s: step %d: fastFill %.17g, Schedule.LR %.17g", name, i, got[i], want[i])
			}
		}
	}
	t.Logf("%d schedules agree", len(cases))
}
