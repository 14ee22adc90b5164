package schedule

import (
	"math"
	"sort"
	"testing"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// The learning rate of the library schedules the presets are named after, written out again
// from each library's code (Hugging Face transformers' optimization.py, PyTorch's
// lr_scheduler.py, Megatron-LM's OptimizerParamScheduler), in the libraries' own order of
// operations, as a function of the step (the scheduler's step count, from 0). They share no
// code with fill.go.

// hfWarmup is transformers' linear warmup: the multiplier at a step before num_warmup_steps.
func hfWarmup(n, warmup int) float64 { return float64(n) / float64(max(1, warmup)) }

// hfConstant is get_constant_schedule_with_warmup.
func hfConstant(peak float64, warmup int) func(int) float64 {
	return func(n int) float64 {
		if n < warmup {
			return peak * hfWarmup(n, warmup)
		}
		return peak * 1.0
	}
}

// hfLinear is get_linear_schedule_with_warmup.
func hfLinear(peak float64, warmup, total int) func(int) float64 {
	return func(n int) float64 {
		if n < warmup {
			return peak * hfWarmup(n, warmup)
		}
		return peak * math.Max(0, float64(total-n)/float64(max(1, total-warmup)))
	}
}

// hfCosine is get_cosine_schedule_with_warmup (num_cycles 0.5), and with minRate
// get_cosine_with_min_lr_schedule_with_warmup(min_lr_rate).
func hfCosine(peak float64, warmup, total int, minRate float64) func(int) float64 {
	const numCycles = 0.5
	return func(n int) float64 {
		if n < warmup {
			return peak * hfWarmup(n, warmup)
		}
		progress := float64(n-warmup) / float64(max(1, total-warmup))
		factor := 0.5 * (1.0 + math.Cos(math.Pi*numCycles*2.0*progress))
		factor = factor*(1-minRate) + minRate
		return peak * math.Max(0, factor)
	}
}

// hfHardRestarts is get_cosine_with_hard_restarts_schedule_with_warmup(num_cycles):
//
//	progress = float(step - warmup) / float(max(1, total - warmup))
//	if progress >= 1.0: return 0.0
//	return max(0.0, 0.5 * (1.0 + math.cos(math.pi * ((float(num_cycles) * progress) % 1.0))))
func hfHardRestarts(peak float64, warmup, total, numCycles int) func(int) float64 {
	return func(n int) float64 {
		if n < warmup {
			return peak * hfWarmup(n, warmup)
		}
		progress := float64(n-warmup) / float64(max(1, total-warmup))
		if progress >= 1.0 {
			return 0
		}
		return peak * math.Max(0, 0.5*(1.0+math.Cos(math.Pi*math.Mod(float64(numCycles)*progress, 1.0))))
	}
}

// hfWSD is get_wsd_schedule(num_warmup_steps, num_decay_steps, num_training_steps,
// decay_type, min_lr_ratio) with its linear warmup.
func hfWSD(peak float64, warmup, decay, total int, decayType string, minRatio float64) func(int) float64 {
	stable := total - warmup - decay
	return func(n int) float64 {
		if n < warmup {
			return peak * math.Max(0, hfWarmup(n, warmup)*(1.0-minRatio)+minRatio)
		}
		if n < warmup+stable {
			return peak * 1.0
		}
		if n < warmup+stable+decay {
			progress := float64(n-warmup-stable) / float64(max(1, decay))
			var factor float64
			switch decayType {
			case "linear":
				factor = 1.0 - progress
			case "cosine":
				factor = 0.5 * (1.0 + math.Cos(math.Pi*0.5*2.0*progress))
			case "1-sqrt":
				factor = 1.0 - math.Sqrt(progress)
			}
			return peak * math.Max(0, factor*(1.0-minRatio)+minRatio)
		}
		return peak * minRatio
	}
}

// hfInverseSqrt is get_inverse_sqrt_schedule (timescale: num_warmup_steps or 10,000).
func hfInverseSqrt(peak float64, warmup int) func(int) float64 {
	timescale := warmup
	if timescale == 0 {
		timescale = 10_000
	}
	return func(n int) float64 {
		if n < warmup {
			return peak * hfWarmup(n, warmup)
		}
		shift := timescale - warmup
		return peak * (1.0 / math.Sqrt(float64(n+shift)/float64(timescale)))
	}
}

// hfPolynomial is get_polynomial_decay_schedule_with_warmup(lr_end, power), the optimizer's
// lr (lr_init) the peak.
func hfPolynomial(peak float64, warmup, total int, lrEnd, power float64) func(int) float64 {
	return func(n int) float64 {
		if n < warmup {
			return peak * hfWarmup(n, warmup)
		}
		if n > total {
			return peak * (lrEnd / peak)
		}
		pctRemaining := 1 - float64(n-warmup)/float64(total-warmup)
		decay := (peak-lrEnd)*math.Pow(pctRemaining, power) + lrEnd
		return peak * (decay / peak)
	}
}

// megatron is Megatron-LM's OptimizerParamScheduler.get_lr from init_lr 0: a linear warmup,
// then "cosine" decay to minLR at decaySteps, or "WSD" (its stable phase, then wsdDecay steps
// of --lr-wsd-decay-style linear to decaySteps).
func megatron(maxLR, minLR float64, warmup, decaySteps int, style string, wsdDecay int) func(int) float64 {
	return func(n int) float64 {
		if warmup > 0 && n <= warmup {
			return 0 + (maxLR-0)*float64(n)/float64(warmup)
		}
		if n > decaySteps {
			return minLR
		}
		ratio := float64(n-warmup) / float64(decaySteps-warmup)
		delta := maxLR - minLR
		var coeff float64
		switch style {
		case "cosine":
			coeff = 0.5 * (math.Cos(math.Pi*ratio) + 1.0)
		case "WSD":
			start := decaySteps - wsdDecay
			if n <= start {
				coeff = 1.0
			} else {
				coeff = 1.0 - float64(n-start)/float64(wsdDecay) // --lr-wsd-decay-style linear
			}
		}
		return minLR + coeff*delta
	}
}

// torchMultiStep is MultiStepLR(milestones, gamma) in its closed form,
// lr * gamma ** bisect_right(milestones, step), after a linear warmup as transformers'
// (the milestones are steps of the whole run, from 0).
func torchMultiStep(peak float64, warmup int, milestones []int, gamma float64) func(int) float64 {
	return func(n int) float64 {
		if n < warmup {
			return peak * hfWarmup(n, warmup)
		}
		passed := sort.Search(len(milestones), func(i int) bool { return milestones[i] > n }) // bisect_right
		return peak * math.Pow(gamma, float64(passed))
	}
}

// torchCyclic is CyclicLR(base_lr, max_lr, step_size_up, mode) (step_size_down the same):
//
//	cycle = math.floor(1 + last_epoch / total_size)
//	x = 1. + last_epoch / total_size - cycle
//	scale_factor = x / step_ratio if x <= step_ratio else (x - 1) / (step_ratio - 1)
//	lr = base_lr + (max_lr - base_lr) * scale_factor * scale_fn(cycle)
func torchCyclic(base, maxLR float64, stepSizeUp int, mode string) func(int) float64 {
	totalSize := float64(stepSizeUp + stepSizeUp)
	stepRatio := float64(stepSizeUp) / totalSize
	return func(n int) float64 {
		cycle := math.Floor(1 + float64(n)/totalSize)
		x := 1. + float64(n)/totalSize - cycle
		var scaleFactor float64
		if x <= stepRatio {
			scaleFactor = x / stepRatio
		} else {
			scaleFactor = (x - 1) / (stepRatio - 1)
		}
		scale := 1.0
		if mode == "triangular2" {
			scale = 1 / math.Pow(2., cycle-1)
		}
		baseHeight := (maxLR - base) * scaleFactor
		return base + baseHeight*scale
	}
}

// torchOneCycle is OneCycleLR(max_lr, total_steps) with its defaults (pct_start 0.3,
// anneal_strategy "cos", div_factor 25, final_div_factor 1e4, two phases).
func torchOneCycle(maxLR float64, totalSteps int) func(int) float64 {
	initial := maxLR / 25
	minimum := initial / 1e4
	phases := []struct{ end, start, stop float64 }{
		{float64(0.3*float64(totalSteps)) - 1, initial, maxLR},
		{float64(totalSteps) - 1, maxLR, minimum},
	}
	annealCos := func(start, end, pct float64) float64 { return end + (start-end)/2.0*(math.Cos(math.Pi*pct)+1) }
	return func(n int) float64 {
		step := float64(n)
		startStep := 0.0
		for i, p := range phases {
			if step <= p.end || i == len(phases)-1 {
				return annealCos(p.start, p.stop, (step-startStep)/(p.end-startStep))
			}
			startStep = p.end
		}
		panic("unreachable")
	}
}

// TestLibrarySchedules checks the schedules that follow a library's own convention (a cosine
// with hard restarts, a cyclic schedule from its base, multi-step milestones) at steps whose
// learning rate is worked out by hand, against both lawcore and the library's formula above.
func TestLibrarySchedules(t *testing.T) {
	cos := func(u float64) float64 { return 0.5 * (1 + math.Cos(math.Pi*u)) }
	noWarmup := func(s Schedule) Schedule { s.Warmup, s.WarmupGiven = 0, true; return s }
	restarts := Schedule{Kind: KindCosine, Total: 1000, Peak: 1, Warmup: 100, Cycles: 3}
	restartsFloor := restarts
	restartsFloor.Final = 0.1
	rounding := noWarmup(Schedule{Kind: KindCosine, Total: 2200, Peak: 1, Cycles: 22})
	cyclic := noWarmup(Schedule{Kind: KindCyclic, Total: 100, Peak: 1, Final: 0.1, StepSize: 10, Start: "base"})
	cyclic2 := cyclic
	cyclic2.Mode = "triangular2"
	multistep := noWarmup(Schedule{Kind: KindMultistep, Total: 100, Peak: 1, Stages: []float64{0.8, 0.1, 0.1}, Levels: []float64{1, 0.5, 0.25}, Drop: "at"})
	multistepWarm := multistep
	multistepWarm.Warmup = 20 // milestones at 20 + 0.8*80 = 84 and 20 + 0.9*80 = 92
	cases := []struct {
		name  string
		s     Schedule
		lib   func(int) float64 // nil: no library has this variant; the hand values alone
		steps []int
		want  []float64
	}{
		// 3 cycles of 300 steps after 100 warmup steps: each restart step is at the peak, the
		// step before it at the bottom of the cycle, the last step at 0
		{"HF hard restarts", restarts, hfHardRestarts(1, 100, 1000, 3),
			[]int{0, 50, 100, 175, 250, 399, 400, 700, 999, 1000},
			[]float64{0, 0.5, 1, cos(0.25), 0.5, cos(299.0 / 300), 1, 1, cos(899.0/300 - 2), 0}},
		{"hard restarts to a floor", restartsFloor, nil, []int{100, 250, 400, 1000}, []float64{1, 0.55, 1, 0.1}},
		// transformers' rounding: 22 * (1500/2200) is 14.999999999999998, so the 15th restart
		// step is at the bottom of the 15th cycle; the 14th is at the peak
		{"HF hard restarts, rounding", rounding, hfHardRestarts(1, 0, 2200, 22), []int{1400, 1450, 1500, 1501}, []float64{1, 0.5, 0, cos(1.0 / 100)}},
		// CyclicLR(base_lr=0.1, max_lr=1, step_size_up=10): base at step 0, max at 10, base at 20
		{"CyclicLR", cyclic, torchCyclic(0.1, 1, 10, "triangular"),
			[]int{0, 5, 10, 15, 20, 25, 100}, []float64{0.1, 0.55, 1, 0.55, 0.1, 0.55, 0.1}},
		{"CyclicLR triangular2", cyclic2, torchCyclic(0.1, 1, 10, "triangular2"),
			[]int{10, 20, 30, 40, 50, 55}, []float64{1, 0.1, 0.55, 0.1, 0.325, 0.2125}},
		// a warmup first: the cycle starts at the base where it ends
		{"CyclicLR after a warmup", func() Schedule { s := cyclic; s.Warmup = 10; return s }(), nil,
			[]int{0, 5, 10, 20, 30}, []float64{0, 0.05, 0.1, 1, 0.1}},
		// MultiStepLR(milestones=[80, 90], gamma=0.5): the milestone step has the new rate
		{"MultiStepLR", multistep, torchMultiStep(1, 0, []int{80, 90}, 0.5),
			[]int{0, 79, 80, 89, 90, 100}, []float64{1, 1, 0.5, 0.5, 0.25, 0.25}},
		{"MultiStepLR after a warmup", multistepWarm, torchMultiStep(1, 20, []int{84, 92}, 0.5),
			[]int{10, 20, 83, 84, 91, 92}, []float64{0.5, 1, 1, 0.5, 0.5, 0.25}},
		// a transition begins at the boundary step, one step before its "after" counterpart
		{"multistep transition from the boundary",
			Schedule{Kind: KindMultistep, Total: 100, Peak: 1, Stages: []float64{0.5, 0.5}, Levels: []float64{1, 0.5}, Transition: 10, Drop: "at"}, nil,
			[]int{48, 49, 54, 59, 60}, []float64{1, 1, 0.75, 0.5, 0.5}},
	}
	for _, c := range cases {
		lr, err := c.s.LR()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for k, st := range c.steps {
			if !numeric.CloseRel(lr[st], c.want[k], 1e-12) {
				t.Errorf("%s: lawcore's lr[%d] = %.15g, worked out %.15g", c.name, st, lr[st], c.want[k])
			}
			if c.lib != nil && !numeric.CloseRel(c.lib(st), c.want[k], 1e-12) {
				t.Errorf("%s: the library's lr at %d = %.15g, worked out %.15g", c.name, st, c.lib(st), c.want[k])
			}
		}
	}
}
