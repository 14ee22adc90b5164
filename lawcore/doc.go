// Package lawcore is the engine of the annealing-law calculator: one fit engine and one
// predictor for every law of loss curves under learning-rate schedules, first among them the
// scaling law with learning-rate annealing (Tissue et al., 2024, arXiv 2408.11029; package
// lawcore/annealing).
//
// A [Law] declares its parameters ([Spec]) and binds to the steps of some runs ([Law.Bind]),
// giving a [Model]: the predicted loss at those steps as a function of the parameters, with
// its gradient. Laws register by name ([Register]; lawcore/laws registers them all) and
// requests name the law they want ([DefaultLaw] when they name none).
//
// [Fit] fits a law to observed curves ([FitRequest]: each [Curve] with its schedule and its
// role) the way the paper's authors did: it minimises the summed Huber loss of the log
// residuals over every fitted point, from the best cells of a grid over the nonlinear
// parameters (the linear ones solved by least squares in each cell), each polished by
// Levenberg-Marquardt; curves of many points are searched thinned. It scores every curve
// ([Metrics]), warns of what to know before trusting the fit ([Warning]) and, when asked,
// gives each parameter a 90% interval from a delete-a-block jackknife ([Interval]). The
// result is one [FitResult].
//
// [Predict] evaluates a law with given parameters, or a weighted average of laws ([Member]),
// on any schedule ([PredictRequest]), with a prediction band when given one ([Band]).
//
// Choosing a law by how it predicts held-out data, averaging laws and calibrating bands is
// package lawcore/auto's; schedules and their areas are package lawcore/schedule's; bad input
// is reported as an input.Error naming the curve and field at fault (package lawcore/input),
// never by a panic. The package knows nothing of the browser: it builds and tests natively
// and for GOOS=js GOARCH=wasm alike.
//
// A loop that runs many times (over steps, points or grid cells, or in every iteration of a
// polish) is kept in a small function of its own (go:noinline): in the browser, V8 optimises
// a wasm function whole once it has run a while, and Go compiles every loop of a function into
// one loop around all of its code, so a step loop inside a large function has V8 optimise all
// of it, on the two cores the page is loading on.
package lawcore

// Version is the calculator's version, recorded in exports.
const Version = "0.1.0"
