package analysis

import (
	"fmt"
	"testing"

	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/multipower"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// mplEvaluator is the Multi-Power Law with p under conv.
func mplEvaluator(t testing.TB, p multipower.Params, conv schedule.Convention) *evaluator {
	t.Helper()
	theta, err := multipower.Law.Spec().Theta(p.Values())
	if err != nil {
		t.Fatal(err)
	}
	return &evaluator{law: multipower.Law, theta: theta, conv: conv}
}

// bumpLaws are the laws the bump search is checked under: the annealing law, the Multi-Power
// Law with the release's parameters (under both conventions), fitted to the Fig. 2 curves, and
// at an extreme optimum (large beta, small C), and an average of the two laws.
func bumpLaws(t testing.TB) map[string]*evaluator {
	release, err := multipower.ParamsOf(multipower.Law.Spec().Values(multipower.Law.Spec().Defaults()))
	if err != nil {
		t.Fatal(err)
	}
	fig2 := multipower.Params{L0: 2.6319885587905594, A: 0.4243385956644124, Alpha: 0.5551286207880419, B: 1008.6788775917604,
		C: 0.0002472813354590626, Beta: 0.5965722588579662, Gamma: 1.050155219724065}
	extreme := multipower.Params{L0: 2.7, A: 0.45, Alpha: 0.5, B: 400, C: 3e-10, Beta: 3e6, Gamma: 0.6}
	mpl := mplEvaluator(t, release, schedule.WarmupActual)
	ann := annealingEvaluator(Fig2Params(), schedule.WarmupPeak)
	avg := newEvaluator([]member{
		{law: annealing.Law, theta: ann.theta, conv: schedule.WarmupPeak, weight: 0.35, where: "members[0]"},
		{law: multipower.Law, theta: mpl.theta, conv: schedule.WarmupActual, weight: 0.65, where: "members[1]"},
	}, nil)
	return map[string]*evaluator{
		"annealing":              ann,
		"multi-power release":    mpl,
		"multi-power peak":       mplEvaluator(t, release, schedule.WarmupPeak),
		"multi-power fig2":       mplEvaluator(t, fig2, schedule.WarmupActual),
		"multi-power extreme":    mplEvaluator(t, extreme, schedule.WarmupActual),
		"average with mpl first": avg,
	}
}

// bumpSchedules are re-warmup schedules: every peak (0.25-4 times) and length (0-5000 steps)
// on a short run, and a few of them on longer ones.
func bumpSchedules() []schedule.Schedule {
	var out []schedule.Schedule
	for _, frac := range []float64{0.25, 0.5, 1, 2, 4} {
		for _, steps := range []int{0, 100, 1000, 5000} {
			out = append(out, RewarmupSchedule(DefaultPeak, DefaultWarmup, 4000, frac*DefaultPeak, steps, 7000))
		}
	}
	for _, c := range []struct {
		first, second int
		frac          float64
		steps         int
	}{{20000, 20000, 0.25, 500}, {20000, 20000, 4, 0}, {20000, 30000, 1, 5000}, {50000, 50000, 1, 500}, {50000, 50000, 2, 2000}} {
		out = append(out, RewarmupSchedule(DefaultPeak, 2160, c.first, c.frac*DefaultPeak, c.steps, c.second))
	}
	return out
}

// The bump search finds the dense search's highest loss after the switch (its step and value)
// bit for bit, under every law and on every schedule; under a law with a Multi-Power member it
// takes the bounded search.
func TestHighestAfterIsTheDenseSearchs(t *testing.T) {
	for name, e := range bumpLaws(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := *e
			for i, s := range bumpSchedules() {
				first := s.Segments[0].Total
				if testing.Short() && first > 20000 {
					continue
				}
				lr, warmup, err := e.expand(&s)
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("schedule %d (first %d, peak %g, re-warmup %d, second %d)", i, first,
					s.Segments[1].Peak/DefaultPeak, s.Segments[1].Warmup, s.Segments[1].Total)
				if bounded := e.riseBounds(lr, warmup, map[int]float64{}) != nil; bounded != (name != "annealing") {
					t.Errorf("%s: bounded search %v", where, bounded)
				}
				dense, err := e.dense(lr, warmup)
				if err != nil {
					t.Fatal(err)
				}
				wantStart, wantStep, wantLoss := highestLossAfter(dense, first)
				start, step, loss, err := e.highestAfter(lr, warmup, first)
				if err != nil {
					t.Fatal(err)
				}
				if start != wantStart || step != wantStep || loss != wantLoss {
					t.Errorf("%s: start %v, bump %v at %d; the dense search's %v, %v at %d", where, start, loss, step, wantStart, wantLoss, wantStep)
				}
			}
		})
	}
}

// BenchmarkHighestAfter is the bump of the paper's default re-warmup run (100,000 steps) under
// the Multi-Power Law with the release's parameters.
func BenchmarkHighestAfter(b *testing.B) {
	e := bumpLaws(b)["multi-power release"]
	s := RewarmupSchedule(DefaultPeak, DefaultWarmup, 50000, 2*DefaultPeak, 500, 50000)
	for b.Loop() {
		lr, warmup, err := e.expand(&s)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, _, err := e.highestAfter(lr, warmup, 50000); err != nil {
			b.Fatal(err)
		}
	}
}

