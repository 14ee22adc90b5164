package lawcore

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// sweepWSD100 is a sweep of 100 WSD schedules of 100K steps (ratios 1% to 100%), with the
// golden-section refinement of the optimum and one drawn curve.
func sweepWSD100() WSDRatioOptions {
	o := DefaultWSDRatioOptions()
	o.Totals, o.Ratios = []int{100000}, linspace(0.01, 0.99, 100)
	return o
}

// sweepCosine100 is a sweep of 100 cosine schedules of 100K steps (10 cycles x 10 floors).
func sweepCosine100() CosineCycleOptions {
	o := DefaultCosineCycleOptions()
	o.Total, o.Cycles, o.Floors, o.Curves = 100000, linspace(0.5, 2, 10), linspace(0, 0.45, 10), nil
	return o
}

func BenchmarkSweep100WSD100K(b *testing.B) {
	o := sweepWSD100()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WSDRatio(o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSweep100Cosine100K(b *testing.B) {
	o := sweepCosine100()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CosineCycle(o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSweep100MultistepGeneral is 100 multi-step schedules with transitions, which take
// the general (slower) expansion.
func BenchmarkSweep100MultistepGeneral(b *testing.B) {
	e := &evaluator{p: Fig2Params(), conv: WarmupPeak}
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < 100; i++ {
			s := Schedule{Kind: KindMultistep, Total: 100000, Peak: 2e-4, Warmup: 500, Transition: 100 + i,
				Stages: []float64{0.8, 0.1, 0.1}, Levels: []float64{1, 0.316, 0.1}}
			if _, err := e.final(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkDefaultAnalyses(b *testing.B) {
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"decomposition", func() error { _, err := Decompose(DefaultDecompositionOptions()); return err }},
		{"cosine-cycle", func() error { _, err := CosineCycle(DefaultCosineCycleOptions()); return err }},
		{"constant-vs-cosine", func() error { _, err := ConstantVsCosine(DefaultConstantVsCosineOptions()); return err }},
		{"wsd-ratio", func() error { _, err := WSDRatio(DefaultWSDRatioOptions()); return err }},
		{"anneal-function", func() error { _, err := AnnealFunction(DefaultAnnealFunctionOptions()); return err }},
		{"rewarmup", func() error { _, err := Rewarmup(DefaultRewarmupOptions()); return err }},
		{"lambda", func() error { _, err := Lambda(DefaultLambdaOptions()); return err }},
		{"optimize", func() error { _, err := OptimizeSchedule(DefaultOptimizeOptions()); return err }},
		{"chinchilla", func() error { _, err := ChinchillaReduction(DefaultChinchillaOptions()); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSizeFitMPL(b *testing.B) {
	req := SizeFitRequest{HuberDelta: 1e-3}
	for _, size := range []string{"25", "100"} {
		for _, name := range append(append([]string{}, mplFitNames...), mplTestNames...) {
			steps, _, loss := readMPL(b, size, name)
			s := mplSchedule(name)
			req.Curves = append(req.Curves, SizeCurve{Curve: Curve{Name: name, Steps: steps, Loss: loss, Schedule: &s},
				Size: map[string]float64{"25": 25e6, "100": 100e6}[size]})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FitSize(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// A sweep of 100 schedules of 100K steps answers well under a second: the best of three runs
// must take under 400 ms natively, under 1 s as WebAssembly (alone, about 40 ms and 150 ms).
// The bounds are loose so that a busy machine does not fail them.
func TestSweepSpeed(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	bound := 400 * time.Millisecond
	if runtime.GOARCH == "wasm" {
		bound = time.Second
	}
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"WSD", func() error { _, err := WSDRatio(sweepWSD100()); return err }},
		{"cosine", func() error { _, err := CosineCycle(sweepCosine100()); return err }},
	} {
		best := time.Hour
		for range 3 {
			began := time.Now()
			if err := c.run(); err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(began))
		}
		t.Logf("%s: 100 schedules of 100K steps in %v", c.name, best)
		if best > bound {
			t.Errorf("%s sweep took %v", c.name, best)
		}
	}
}
