package schedule

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// TestScheduleValues checks every kind at steps whose learning rate is computed by hand.
func TestScheduleValues(t *testing.T) {
	wsd := func(decay string) Schedule {
		return Schedule{Kind: KindWSD, Total: 100, Peak: 1, Decay: decay, DecayFraction: 0.2}
	}
	cases := []struct {
		name  string
		s     Schedule
		steps []int
		want  []float64
	}{
		{"constant with warmup", Schedule{Kind: KindConstant, Total: 100, Peak: 2, Warmup: 10}, []int{0, 5, 10, 100}, []float64{0, 1, 2, 2}},
		{"warmup from a floor", Schedule{Kind: KindConstant, Total: 100, Peak: 1, Warmup: 10, WarmupFrom: 0.1}, []int{0, 5, 10}, []float64{0.1, 0.55, 1}},
		{"linear", Schedule{Kind: KindLinear, Total: 100, Peak: 1}, []int{0, 50, 100}, []float64{1, 0.5, 0}},
		{"linear after warmup", Schedule{Kind: KindLinear, Total: 110, Peak: 1, Warmup: 10, Final: 0.5}, []int{10, 60, 110}, []float64{1, 0.75, 0.5}},
		// the authors' script: ratio (s - W) / (T - W)
		{"cosine", Schedule{Kind: KindCosine, Total: 100, Peak: 1}, []int{0, 50, 100}, []float64{1, 0.5, 0}},
		{"cosine to a floor", Schedule{Kind: KindCosine, Total: 120, Peak: 1, Final: 0.1, Warmup: 20}, []int{20, 70, 120}, []float64{1, 0.55, 0.1}},
		{"cosine short cycle, hold", Schedule{Kind: KindCosine, Total: 100, Peak: 1, Cycle: 50}, []int{25, 50, 75}, []float64{0.5, 0, 0}},
		{"cosine short cycle, continue", Schedule{Kind: KindCosine, Total: 100, Peak: 1, Cycle: 50, After: "continue"}, []int{50, 75, 100}, []float64{0, 0.5, 1}},
		{"cosine short cycle, restart", Schedule{Kind: KindCosine, Total: 100, Peak: 1, Cycle: 50, After: "restart"}, []int{50, 75, 100}, []float64{0, 0.5, 0}},
		{"cosine long cycle", Schedule{Kind: KindCosine, Total: 100, Peak: 1, Cycle: 200}, []int{100}, []float64{0.5}},
		{"wsd cosine", wsd("cosine"), []int{80, 90, 100}, []float64{1, 0.5, 0}},
		{"wsd linear", wsd("linear"), []int{80, 90, 100}, []float64{1, 0.5, 0}},
		{"wsd 1-sqrt", wsd("1-sqrt"), []int{80, 90, 100}, []float64{1, 1 - math.Sqrt(0.5), 0}},
		{"wsd 1-square", wsd("1-square"), []int{80, 90, 100}, []float64{1, 0.75, 0}},
		{"wsd exponential", Schedule{Kind: KindWSD, Total: 100, Peak: 1, Final: 0.01, Decay: "exponential", DecaySteps: 20}, []int{80, 90, 100}, []float64{1, 0.1, 0.01}},
		{"wsd half-life", Schedule{Kind: KindWSD, Total: 100, Peak: 1, Final: 0.2, Decay: "half-life", HalfLife: 5, DecaySteps: 20}, []int{80, 85, 90, 100}, []float64{1, 0.5, 0.25, 0.2}},
		{"multistep 80/10/10", Schedule{Kind: KindMultistep, Total: 100, Peak: 1, Stages: []float64{0.8, 0.1, 0.1}, Levels: []float64{1, 0.316, 0.1}},
			[]int{80, 81, 90, 91, 100}, []float64{1, 0.316, 0.316, 0.1, 0.1}},
		{"multistep with transition", Schedule{Kind: KindMultistep, Total: 100, Peak: 1, Stages: []float64{0.5, 0.5}, Levels: []float64{1, 0.5}, Transition: 10},
			[]int{50, 55, 60}, []float64{1, 0.75, 0.5}},
		{"cyclic", Schedule{Kind: KindCyclic, Total: 100, Peak: 1, StepSize: 10}, []int{0, 5, 10, 15, 20}, []float64{1, 0.5, 0, 0.5, 1}},
		{"cyclic triangular2", Schedule{Kind: KindCyclic, Total: 100, Peak: 1, StepSize: 10, Mode: "triangular2"}, []int{20, 30, 40}, []float64{0.5, 0, 0.25}},
		{"inverse sqrt", Schedule{Kind: KindInverseSqrt, Total: 1000, Peak: 1, Warmup: 100}, []int{50, 100, 400}, []float64{0.5, 1, 0.5}},
		{"polynomial", Schedule{Kind: KindPolynomial, Total: 100, Peak: 1, Power: 2}, []int{0, 50, 100}, []float64{1, 0.25, 0}},
		// torch OneCycleLR(max_lr=1, total_steps=100): starts at 1/25, peaks at step 29, ends at 1/25/1e4
		{"one-cycle", Schedule{Kind: KindOneCycle, Total: 99, Peak: 1}, []int{0, 29, 99}, []float64{0.04, 1, 4e-6}},
		{"concat", Schedule{Kind: KindConcat, Segments: []Schedule{{Kind: KindConstant, Total: 10, Peak: 1}, {Kind: KindConstant, Total: 5, Peak: 0.5}}},
			[]int{10, 11, 15}, []float64{1, 0.5, 0.5}},
		{"re-warmup", Schedule{Kind: KindConcat, Segments: []Schedule{{Kind: KindLinear, Total: 10, Peak: 1}, {Kind: KindConstant, Total: 10, Peak: 2, Warmup: 4}}},
			[]int{10, 12, 14, 20}, []float64{0, 1, 2, 2}},
		{"explicit dense", Schedule{Kind: KindExplicit, Values: []float64{0, 1, 2}, Total: 4}, []int{0, 2, 4}, []float64{0, 2, 2}},
		{"explicit sparse", Schedule{Kind: KindExplicit, Steps: []float64{10, 20}, Values: []float64{1, 0.5}, Warmup: 5, Total: 30},
			[]int{0, 5, 10, 15, 20, 30}, []float64{0, 1, 1, 0.75, 0.5, 0.5}},
	}
	for _, c := range cases {
		lr, err := c.s.LR()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(lr) != c.s.LastStep()+1 {
			t.Errorf("%s: %d values for last step %d", c.name, len(lr), c.s.LastStep())
		}
		for k, st := range c.steps {
			if !numeric.CloseRel(lr[st], c.want[k], 1e-12) {
				t.Errorf("%s: lr[%d] = %.15g, want %.15g", c.name, st, lr[st], c.want[k])
			}
		}
	}
}

// TestPresetsAreValid builds every preset.
func TestPresetsAreValid(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Presets() {
		if seen[p.ID] {
			t.Errorf("preset id %q twice", p.ID)
		}
		seen[p.ID] = true
		lr, err := p.Schedule.LR()
		if err != nil {
			t.Errorf("preset %s: %v", p.ID, err)
			continue
		}
		if got := len(lr) - 1; got != 60000 {
			t.Errorf("preset %s covers %d steps, want 60000", p.ID, got)
		}
	}
}

// TestScheduleErrors checks that every bad description names the field at fault.
func TestScheduleErrors(t *testing.T) {
	cases := []struct {
		json, want string
	}{
		{`{"kind":"triangle","total":10,"peak":1}`, `schedule.kind: unknown schedule kind "triangle"`},
		{`{"total":10,"peak":1}`, "schedule.kind: missing"},
		{`{"kind":"constant","total":0,"peak":1}`, "schedule.total: must be a positive number"},
		{`{"kind":"constant","total":10,"peak":0}`, "schedule.peak: must be positive"},
		{`{"kind":"constant","total":10,"peak":-1}`, "schedule.peak: must be positive"},
		{`{"kind":"constant","total":10,"peak":1,"warmup":20}`, "schedule.warmup: warmup (20 steps) is longer than the run (10 steps)"},
		{`{"kind":"wsd","total":10,"peak":1,"decayFraction":1.5}`, "schedule.decayFraction: must be in (0, 1]"},
		{`{"kind":"wsd","total":10,"peak":1,"decayFraction":0.5,"decay":"exponential"}`, "schedule.final: an exponential decay needs a positive final LR"},
		{`{"kind":"wsd","total":100,"peak":1,"decayFraction":0.5,"warmup":60}`, "schedule.decaySteps: the decay (50 steps) would start before the warmup"},
		{`{"kind":"wsd","total":100,"peak":1,"decaySteps":500}`, "schedule.decaySteps: 500 steps is longer than the run (100 steps)"},
		{`{"kind":"multistep","total":10,"peak":1,"stages":[0.5,0.4],"levels":[1,0.1]}`, "schedule.stages: fractions must add up to 1"},
		{`{"kind":"cyclic","total":10,"peak":1}`, "schedule.stepSize: must be a positive number"},
		{`{"kind":"cyclic","total":10,"peak":1,"stepSize":2,"start":"middle"}`, `schedule.start: must be peak (down to final first) or base (up from final first, as PyTorch CyclicLR), got "middle"`},
		{`{"kind":"cosine","total":100,"peak":1,"cycles":-1}`, "schedule.cycles: must be a positive whole number of cycles (Hugging Face's num_cycles), got -1"},
		{`{"kind":"cosine","total":100,"peak":1,"cycles":1.5}`, `"cycles" must be a whole number, got number 1.5`},
		{`{"kind":"cosine","total":20000.7,"peak":1}`, `"total" must be a whole number, got number 20000.7`},
		{`{"kind":"multistep","total":100,"peak":1,"stages":"0.5,0.5"}`, `"stages" must be a list of numbers, got string`},
		{`{"kind":"cosine","total":100,"peak":1,"cycles":4,"cycle":25}`, "schedule.cycles: give cycles (that many restarts over the steps after warmup) or cycle (the step at which one cosine ends), not both"},
		{`{"kind":"cosine","total":100,"peak":1,"cycles":4,"after":"restart"}`, "schedule.after: a cosine with cycles restarts after each of them: leave after out"},
		{`{"kind":"cosine","total":100,"peak":1,"warmup":10,"cycles":91}`, "schedule.cycles: 91 cycles in the 90 steps after warmup: a cycle needs at least one step"},
		{`{"kind":"multistep","total":10,"peak":1,"stages":[0.5,0.5],"levels":[1,0.1],"drop":"before"}`, `schedule.drop: must be after (a new level begins the step after its boundary) or at (on the boundary step, as PyTorch MultiStepLR), got "before"`},
		{`{"kind":"concat","segments":[{"kind":"constant","total":10,"peak":1},{"kind":"cosine","total":-1,"peak":1}]}`, "schedule.segments[1].total"},
		{`{"kind":"explicit","lr":[0,0,0]}`, "schedule.lr: every learning rate is zero"},
		{`{"kind":"explicit","lr":[1,-1]}`, "schedule.lr[1]: a learning rate must be a finite number, zero or more"},
		{`{"kind":"explicit","steps":[5,3],"lr":[1,1]}`, "schedule.steps[1]: steps must increase"},
		{`{"kind":"constant","total":10,"peak":1,"colour":"red"}`, `unknown field "colour"`},
		{`{"kind":"constant","total":10,"peak":1e999}`, "not a valid schedule description"},
		{`{"kind":"constant","total":100000000,"peak":1}`, "total: 100000000 is too large: a schedule covers steps 0..total, at most 10000000 steps (total at most 9999999)"},
		{`{"kind":"constant","total":10000000,"peak":1}`, "total: 10000000 is too large"},
		{`{"kind":"constant","total":100,"peak":1001}`, "schedule.peak: 1001 is not a learning rate (at most 1000)"},
		// the LR a schedule reaches, not only its peak, is bounded
		{`{"kind":"multistep","total":100,"peak":1e-4,"stages":[0.5,0.5],"levels":[1,1e10]}`, "schedule.levels[1]: gives an LR of 1e+06 (the peak times 1e+10), more than 1000"},
		{`{"kind":"one-cycle","total":100,"peak":1e-4,"divFactor":1e-300}`, "schedule.divFactor: gives a first LR of 1e+296"},
		{`{"kind":"multistep","total":100,"peak":1e-4,"stages":[0.8,0.1,0.1],"levels":[1,0.3,0.1],"transition":100000}`, "schedule.transition: 100000 steps is longer than stage 2 (10 steps)"},
	}
	for _, c := range cases {
		_, err := Decode([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v, want one containing %q", c.json, err, c.want)
		}
	}
}

// A description's "warmup": 0 survives JSON both ways (WarmupGiven), so that a schedule
// echoed in a result or a saved request is still a run without warmup, and one without the
// field still takes the warmup setting; the fields of nested segments are named in errors
// as the description names them.
func TestScheduleJSONKeepsAGivenZeroWarmup(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{`{"kind":"constant","total":10,"peak":1,"warmup":0}`, `{"warmup":0,"kind":"constant","total":10,"peak":1}`},
		{`{"kind":"constant","total":10,"peak":1}`, `{"kind":"constant","total":10,"peak":1}`},
		{`{"kind":"constant","total":10,"peak":1,"warmup":3}`, `{"kind":"constant","total":10,"peak":1,"warmup":3}`},
		{`{"kind":"cyclic","total":10,"peak":1,"stepSize":5,"start":"base","warmup":0}`, `{"warmup":0,"kind":"cyclic","total":10,"peak":1,"stepSize":5,"start":"base"}`},
		{`{"kind":"cosine","total":10,"peak":1,"cycles":2}`, `{"kind":"cosine","total":10,"peak":1,"cycles":2}`},
		{`{"kind":"multistep","total":10,"peak":1,"stages":[0.5,0.5],"levels":[1,0.1],"drop":"at"}`, `{"kind":"multistep","total":10,"peak":1,"stages":[0.5,0.5],"levels":[1,0.1],"drop":"at"}`},
		{`{"kind":"concat","segments":[{"kind":"constant","total":10,"peak":1,"warmup":0}]}`,
			`{"kind":"concat","segments":[{"warmup":0,"kind":"constant","total":10,"peak":1}]}`},
	} {
		s, err := Decode([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		out, err := json.Marshal(s)
		if err != nil || string(out) != tc.out {
			t.Errorf("%s: encoded as %s (%v), want %s", tc.in, out, err, tc.out)
		}
		back, err := Decode(out)
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Errorf("%s: read back as %+v (%v), want %+v", tc.in, back, err, s)
		}
	}
	_, err := Decode([]byte(`{"kind":"concat","segments":[{"kind":"constant","total":"ten"}]}`))
	if err == nil || !strings.Contains(err.Error(), `"segments.total" must be a whole number, got string`) {
		t.Errorf("a segment's bad total: got %v", err)
	}
}
