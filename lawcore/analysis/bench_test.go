package analysis

import (
	"context"
	"testing"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// sweepWSD100 is a sweep of 100 WSD schedules of 100K steps (ratios 1% to 100%), with the
// golden-section refinement of the optimum and one drawn curve.
func sweepWSD100() WSDRatioOptions {
	o := DefaultWSDRatioOptions()
	o.Totals, o.Ratios = []int{100000}, numeric.Linspace(0.01, 0.99, 100)
	return o
}

// sweepCosine100 is a sweep of 100 cosine schedules of 100K steps (10 cycles x 10 floors).
func sweepCosine100() CosineCycleOptions {
	o := DefaultCosineCycleOptions()
	o.Total, o.Cycles, o.Floors, o.Curves = 100000, numeric.Linspace(0.5, 2, 10), numeric.Linspace(0, 0.45, 10), nil
	return o
}

func BenchmarkSweep100WSD100K(b *testing.B) {
	o := sweepWSD100()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WSDRatio(context.Background(), o, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSweep100Cosine100K(b *testing.B) {
	o := sweepCosine100()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CosineCycle(context.Background(), o, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSweep100MultistepGeneral is 100 multi-step schedules with transitions, which take
// the general (slower) expansion.
func BenchmarkSweep100MultistepGeneral(b *testing.B) {
	e := annealingEvaluator(Fig2Params(), schedule.WarmupPeak)
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < 100; i++ {
			s := schedule.Schedule{Kind: schedule.KindMultistep, Total: 100000, Peak: 2e-4, Warmup: 500, Transition: 100 + i,
				Stages: []float64{0.8, 0.1, 0.1}, Levels: []float64{1, 0.316, 0.1}}
			if _, err := e.final(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkDefaultAnalyses(b *testing.B) {
	for _, name := range analysesThatEvaluate() {
		request := []byte(`{"analysis":"` + name + `"}`)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), request, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
