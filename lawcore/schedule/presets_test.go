package schedule

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// presetLibraries are the library schedules each preset is named after: the preset's
// example run (60,000 steps, peak 2e-4, 500 warmup steps) as that library computes it.
func presetLibraries() map[string]map[string]func(int) float64 {
	const total, peak, warmup = 60000, 2e-4, 500
	return map[string]map[string]func(int) float64{
		"constant": {"HF get_constant_schedule_with_warmup": hfConstant(peak, warmup)},
		"linear":   {"HF get_linear_schedule_with_warmup": hfLinear(peak, warmup, total)},
		"cosine": {
			"HF get_cosine_schedule_with_warmup": hfCosine(peak, warmup, total, 0),
			"Megatron-LM cosine":                 megatron(peak, 0, warmup, total, "cosine", 0),
		},
		"cosine-10pct": {
			"Megatron-LM cosine --min-lr":                    megatron(peak, peak/10, warmup, total, "cosine", 0),
			"HF get_cosine_with_min_lr_schedule_with_warmup": hfCosine(peak, warmup, total, 0.1),
		},
		"cosine-restarts": {"HF get_cosine_with_hard_restarts_schedule_with_warmup": hfHardRestarts(peak, warmup, total, 4)},
		"wsd-1-sqrt-20":   {"HF get_wsd_schedule 1-sqrt": hfWSD(peak, warmup, 12000, total, "1-sqrt", 0)},
		"wsd-linear-10": {
			"HF get_wsd_schedule linear": hfWSD(peak, warmup, 6000, total, "linear", 0),
			"Megatron-LM WSD linear":     megatron(peak, 0, warmup, total, "WSD", 6000),
		},
		// milestones at 500 + 0.8*59,500 and 500 + 0.9*59,500
		"multistep-deepseek": {"PyTorch MultiStepLR": torchMultiStep(peak, warmup, []int{48100, 54050}, math.Sqrt(0.1))},
		"cyclic":             {"PyTorch CyclicLR": torchCyclic(peak/10, peak, 7500, "triangular")},
		"inverse-sqrt":       {"HF get_inverse_sqrt_schedule": hfInverseSqrt(peak, warmup)},
		"polynomial":         {"HF get_polynomial_decay_schedule_with_warmup": hfPolynomial(peak, warmup, total, 0, 2)},
		"one-cycle":          {"PyTorch OneCycleLR": torchOneCycle(peak, total+1)},
	}
}

// presetsOfPapers are the presets named after a paper's schedule, not a library's.
var presetsOfPapers = map[string]bool{"wsd-cosine-20": true, "wsd-1-square-20": true, "wsd-exponential-10": true, "rewarmup": true}

// TestPresetsFollowTheirLibraries checks every preset that names a library against that
// library's schedule (written out above) at every step of its 60,000: the preset as the page
// and the command line run it, with the request's warmup (500 steps) where it takes one.
func TestPresetsFollowTheirLibraries(t *testing.T) {
	libs := presetLibraries()
	for _, p := range Presets() {
		names := libs[p.ID]
		if names == nil {
			if !presetsOfPapers[p.ID] {
				t.Errorf("preset %s (%s): no library schedule to check it against", p.ID, p.Origin)
			}
			// a library is named by its function, class or flag: "HF get_...", "PyTorch X",
			// "Megatron-LM --flag" (an origin may say which library it is not)
			for _, lib := range []string{"HF ", "PyTorch ", "Megatron-LM --"} {
				if strings.Contains(p.Origin, lib) {
					t.Errorf("preset %s names %s (%q) but is not checked against it", p.ID, lib, p.Origin)
				}
			}
			continue
		}
		lr, err := p.Schedule.WithDefaultWarmup(500).LR()
		if err != nil {
			t.Errorf("preset %s: %v", p.ID, err)
			continue
		}
		for name, lib := range names {
			worst, at := 0.0, 0
			for n := range lr {
				if d := math.Abs(lr[n] - lib(n)); d > worst {
					worst, at = d, n
				}
			}
			if worst > 1e-12*p.Schedule.PeakLR() {
				t.Errorf("preset %s is not %s: at step %d lawcore gives %.6g (%s x peak), the library %.6g",
					p.ID, name, at, lr[at], fmt.Sprintf("%.4f", lr[at]/p.Schedule.PeakLR()), lib(at))
			}
		}
	}
}
