package schedule

import "math"

// Preset is a named schedule users know from a library or a paper. Its Schedule holds
// example numbers (60K steps, peak 2e-4, 500 warmup steps) that a builder lets them change.
type Preset struct {
	// ID is a stable identifier.
	ID string `json:"id"`
	// Name is the name users know.
	Name string `json:"name"`
	// Origin is where the name comes from.
	Origin string `json:"origin"`
	// Schedule is the preset's description.
	Schedule Schedule `json:"schedule"`
}

// Presets returns the known schedules, with example numbers.
func Presets() []Preset {
	const total, peak, warmup = 60000, 2e-4, 500
	base := func(kind string) Schedule { return Schedule{Kind: kind, Total: total, Peak: peak, Warmup: warmup} }
	with := func(s Schedule, f func(*Schedule)) Schedule { f(&s); return s }
	wsd := func(decay string, fraction float64) Schedule {
		return with(base(KindWSD), func(s *Schedule) { s.Decay, s.DecayFraction = decay, fraction })
	}
	return []Preset{
		{"constant", "Constant with warmup", "HF get_constant_schedule_with_warmup; PyTorch ConstantLR", base(KindConstant)},
		{"linear", "Linear decay to 0", "HF get_linear_schedule_with_warmup; PyTorch LinearLR", base(KindLinear)},
		{"cosine", "Cosine to 0 (T = total)", "HF get_cosine_schedule_with_warmup; Megatron-LM --lr-decay-style cosine", base(KindCosine)},
		{"cosine-10pct", "Cosine to 0.1 x peak", "Chinchilla; Megatron-LM --min-lr; the paper's Fig. 3", with(base(KindCosine), func(s *Schedule) { s.Final = peak / 10 })},
		{"cosine-restarts", "Cosine with hard restarts", "HF get_cosine_with_hard_restarts_schedule_with_warmup(num_cycles=4)",
			with(base(KindCosine), func(s *Schedule) { s.Cycles = 4 })},
		{"wsd-cosine-20", "WSD, 20% cosine decay", "the paper's Fig. 3 (MiniCPM's warmup-stable-decay)", wsd("cosine", 0.2)},
		{"wsd-1-sqrt-20", "WSD, 20% 1-sqrt decay", "HF get_wsd_schedule(decay_type='1-sqrt'); Hagele et al. 2024", wsd("1-sqrt", 0.2)},
		{"wsd-linear-10", "WSD, 10% linear decay", "HF get_wsd_schedule(decay_type='linear'); Megatron-LM --lr-wsd-decay-style linear", wsd("linear", 0.1)},
		{"wsd-1-square-20", "WSD, 20% 1-square decay", "Hagele et al. 2024", wsd("1-square", 0.2)},
		{"wsd-exponential-10", "WSD, 10% exponential decay", "MiniCPM: a geometric decay, peak^(1-t) x final^t (not Megatron-LM's --lr-wsd-decay-style exponential, 2 x 0.5^t - 1 of the way from final to peak)", with(wsd("exponential", 0.1), func(s *Schedule) { s.Final = peak / 10 })},
		{"multistep-deepseek", "Multi-step 80% + 10% + 10%", "DeepSeek LLM: 31.6% of the peak from 80%, 10% from 90%; PyTorch MultiStepLR(gamma=sqrt(0.1)), its milestones at those steps",
			with(base(KindMultistep), func(s *Schedule) {
				s.Stages, s.Levels, s.Drop = []float64{0.8, 0.1, 0.1}, []float64{1, math.Sqrt(0.1), 0.1}, "at"
			})},
		{"cyclic", "Cyclic (triangular)", "PyTorch CyclicLR(mode='triangular'), without warmup",
			with(base(KindCyclic), func(s *Schedule) {
				s.StepSize, s.Final, s.Start = 7500, peak/10, "base"
				s.Warmup, s.WarmupGiven = 0, true
			})},
		{"inverse-sqrt", "Inverse square root", "HF get_inverse_sqrt_schedule; fairseq inverse_sqrt", base(KindInverseSqrt)},
		{"polynomial", "Polynomial decay (power 2)", "HF get_polynomial_decay_schedule_with_warmup; PyTorch PolynomialLR",
			with(base(KindPolynomial), func(s *Schedule) { s.Power = 2 })},
		{"one-cycle", "One-cycle", "PyTorch OneCycleLR", with(base(KindOneCycle), func(s *Schedule) { s.Warmup = 0 })},
		{"rewarmup", "Continual pre-training: re-warmup", "the paper's Fig. 12: cosine, then re-warmup to a new peak and cosine again",
			Schedule{Kind: KindConcat, Segments: []Schedule{
				{Kind: KindCosine, Total: total / 2, Peak: peak, Warmup: warmup},
				{Kind: KindCosine, Total: total / 2, Peak: peak, Warmup: warmup},
			}}},
	}
}
