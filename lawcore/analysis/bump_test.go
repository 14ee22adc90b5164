package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
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

// bumpSchedule is a re-warmup schedule of the test's table.
type bumpSchedule struct {
	first, second int
	frac          float64
	steps         int
	// every: checked under every law, else under the release's and the average alone (and
	// left out by -short); long: left out by -short
	every, long bool
}

// bumpSchedules are re-warmup schedules: every peak (0.25-4 times) and length (0-5000 steps)
// on a short run (every other one under every law), and a few on longer runs.
func bumpSchedules() []bumpSchedule {
	var out []bumpSchedule
	for _, frac := range []float64{0.25, 0.5, 1, 2, 4} {
		for _, steps := range []int{0, 100, 1000, 5000} {
			out = append(out, bumpSchedule{first: 3000, second: 5500, frac: frac, steps: steps, every: len(out)%2 == 0})
		}
	}
	return append(out, bumpSchedule{first: 20000, second: 20000, frac: 0.25, steps: 500},
		bumpSchedule{first: 12000, second: 30000, frac: 4, steps: 5000},
		bumpSchedule{first: 50000, second: 50000, frac: 2, steps: 500, long: true})
}

// The bump search finds the dense search's highest loss after the switch (its step and value)
// bit for bit, under every law and on every schedule; under a law with a Multi-Power member it
// takes the bounded search. With -short (make check, and the run as wasm, whose arithmetic
// matches the native run's) every law checks every other schedule: the full run covers all.
func TestHighestAfterIsTheDenseSearchs(t *testing.T) {
	full := map[string]bool{"annealing": true, "multi-power release": true, "average with mpl first": true}
	if testing.Short() {
		full = nil
	}
	for name, e := range bumpLaws(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := *e
			for i, c := range bumpSchedules() {
				// the dense reference of a 100,000-step run takes 2.3 s under the Multi-Power Law
				if (!c.every && !full[name]) || (c.long && (testing.Short() || name == "average with mpl first")) {
					continue
				}
				s := RewarmupSchedule(DefaultPeak, 2160, c.first, c.frac*DefaultPeak, c.steps, c.second)
				first := c.first
				if c.first < 5000 {
					s = RewarmupSchedule(DefaultPeak, DefaultWarmup, c.first, c.frac*DefaultPeak, c.steps, c.second)
				}
				lr, warmup, err := e.expand(&s)
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("schedule %d (%+v)", i, c)
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

// BenchmarkRewarmupMultiPower is the re-warmup view's default answer (ten 100,000-step runs)
// under the Multi-Power Law with the release's parameters.
func BenchmarkRewarmupMultiPower(b *testing.B) {
	o := DefaultRewarmupOptions()
	o.Law, o.Params, o.WarmupConvention = multipower.Name, multipower.Law.Spec().Values(multipower.Law.Spec().Defaults()), ""
	for b.Loop() {
		if _, err := Rewarmup(context.Background(), o, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The replicates' finals computed with one binding of the Multi-Power Law are each
// replicate's own final loss bit for bit: for the law alone and in an average, on WSD,
// cosine and re-warmup schedules (and +Inf on one that does not validate).
func TestSharedFinalsAreEachReplicates(t *testing.T) {
	laws := bumpLaws(t)
	mpl, avg := laws["multi-power release"], laws["average with mpl first"]
	var alone, averaged spread
	for i := range 10 {
		theta := append([]float64(nil), mpl.theta...)
		for j := range theta {
			theta[j] *= 1 + 0.02*math.Sin(float64(3*i+j))
		}
		alone.evals = append(alone.evals, &evaluator{law: mpl.law, theta: theta, conv: mpl.conv})
		members := slices.Clone(avg.members)
		members[1].theta = theta
		averaged.evals = append(averaged.evals, newEvaluator(members, nil))
	}
	schedules := []schedule.Schedule{
		wsdSchedule(20000, DefaultPeak, DefaultWarmup, "cosine", 0, 4000),
		wsdSchedule(100000, DefaultPeak, 2160, "linear", 0.1, 30000),
		{Kind: schedule.KindCosine, Total: 30000, Peak: DefaultPeak, Warmup: 500},
		RewarmupSchedule(DefaultPeak, DefaultWarmup, 5000, 2*DefaultPeak, 1000, 8000),
		{Kind: schedule.KindCosine, Total: 10, Peak: DefaultPeak, Warmup: 50},
	}
	for name, sp := range map[string]*spread{"alone": &alone, "average": &averaged} {
		for i, s := range schedules {
			shared, ok := sp.sharedFinals(s)
			if !ok {
				t.Fatalf("%s: no shared finals", name)
			}
			for r, e := range sp.evals {
				if want := e.finalLoss(s); shared[r] != want && !(math.IsNaN(want) && math.IsNaN(shared[r])) {
					t.Errorf("%s, schedule %d, replicate %d: %v, its own %v", name, i, r, shared[r], want)
				}
			}
		}
	}
}
