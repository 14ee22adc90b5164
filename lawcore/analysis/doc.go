// Package analysis holds the paper's analyses (Sec. 5 "Takeaways", Sec. 6 "Comparison with
// Chinchilla", Sec. 7.1 on lambda, Sec. 4.4's annealing drop against the model size), the
// paper's claims checked one by one under its own setting ([Paper], paper.go), and a schedule
// optimiser, as functions of a law and its parameters, or of a weighted average of laws (an
// auto fit's members, predicted as lawcore.Predict predicts them). Each but the compute table
// and the paper's claims (which take no law) takes an options struct that embeds a [Setup]
// (the law and its parameters or the members, the fit's band or replicates, the peak LR and
// warmup of the schedules it builds) and returns a JSON-serialisable result with its curves
// thinned to about Points values, a Table field holding a [Table] of the numbers, and a Setup
// field holding the setup used. [Run] runs one by name from a JSON request, its options
// decoded over the defaults.
//
// Every analysis takes a context and a progress function, as lawcore.Fit does. Each
// evaluation of the law first reports the share of the analysis's stages done (the families
// to optimise, the totals to sweep) and then checks the context: a cancelled analysis stops
// within one schedule's evaluation and returns the context's error and no answer. In the
// browser the progress report is also where a long analysis hands control back to the page,
// so that its cancel can arrive at all.
//
// The analyses evaluate any registered law through lawcore.PredictRun; those about the
// annealing law's own structure (lambda, the closed-form gradient of the free-form optimiser
// and the step drop, the reduction to Chinchilla's random parameter tuples) require it and
// say so. Of an average, lambda and the reduction take the heaviest member alone (their note
// says so), and the optimiser's free form and step drop need every member to be the
// annealing law. A sweep of a hundred 100K-step schedules takes a fraction of a second: each
// is expanded into reused buffers and walked once.
package analysis
