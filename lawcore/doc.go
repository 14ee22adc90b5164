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
// Every function that takes user input returns an [*InputError] naming the curve and field
// at fault instead of panicking.
package lawcore
