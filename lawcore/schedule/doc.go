// Package schedule describes learning-rate schedules and what the laws read from them.
//
// A [Schedule] is a JSON description of a schedule in the words of the libraries users train
// with (PyTorch, Hugging Face, Megatron-LM): a kind (constant, cosine, WSD, multistep, cyclic,
// ...), its total steps and peak, an optional linear warmup, and its kind's own fields.
// [Schedule.LR] expands it to the learning rate of every step 0..Total; [Presets] are the
// schedules of the paper and of those libraries, ready to use.
//
// Two things every law needs from a schedule live here too, so that laws, the fit engine and
// the analyses share them:
//
//   - the warmup [Convention]: the paper counts every warmup step at the peak learning rate
//     (WarmupPeak); WarmupActual counts the rates as run. [CountedLR] applies it.
//
//   - the areas of the scaling law with learning-rate annealing (Tissue et al., 2024):
//
//     S1(s) = sum_{i=0..s} eta_i                          the forward area
//     m_i   = lambda*m_{i-1} + (eta_{i-1} - eta_i), m_0 = 0  the annealing momentum
//     S2(s) = sum_{i=0..s} m_i                            the annealing area
//
// The sums start at step 0, as in the authors' published fitting script. [AreaWalker] is that
// recurrence, written once; [ComputeAreas] and [FinalAreas] walk a whole schedule with it.
//
// Bad descriptions are reported as an [*input.Error] naming the field at fault.
//
// A loop that runs once per step is kept in a small function of its own (go:noinline), not
// inlined into a large one: in the browser, V8 optimises a wasm function whole once it has run
// a while, and Go compiles every loop of a function into one loop around all of its code.
package schedule
