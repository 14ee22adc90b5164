// Package lawcore is the engine of the annealing-law calculator: it turns learning-rate
// schedules into the areas of the scaling law with learning-rate annealing
// (Tissue et al., 2024, arXiv 2408.11029),
//
//	L(s) = L0 + A*S1(s)^(-alpha) - C*S2(s)
//	S1(s) = sum_{i=0..s} eta_i
//	m_i   = lambda*m_{i-1} + (eta_{i-1} - eta_i),  m_0 = 0
//	S2(s) = sum_{i=0..s} m_i
//
// fits the law to observed loss curves with the authors' objective (the summed Huber loss of
// the log-loss residuals), and predicts the loss curve of any other schedule.
//
// The sums start at step 0, as in the authors' published fitting script. A [Schedule]
// describes a learning-rate schedule as JSON; [Schedule.LR] expands it to one learning rate
// per step; [ComputeAreas] computes S1 and S2 in one O(n) pass; [Predict] evaluates the law;
// [Fit] fits it. The package knows nothing of the browser: it builds and tests natively and
// for GOOS=js GOARCH=wasm alike.
//
// Every function that takes user input returns an [*input.Error] naming the curve and field
// at fault instead of panicking.
//
// A loop that runs many times (over steps, points or grid cells, or in every iteration of a
// polish) is kept out of the large functions (go:noinline on the small function that holds
// it, such as [CountWarmup] or [FinalAreas]). In the browser, V8
// runs wasm on its baseline compiler and optimises a function whole once it has run a while;
// Go compiles every loop of a function into one loop around all of its code, so each turn
// counts as the whole function run again. A step loop inlined into a function of 10 kB has
// V8 optimise those 10 kB after a few hundred steps, on the two cores the page is loading on;
// kept apart, only the loop's small function is.
package lawcore
