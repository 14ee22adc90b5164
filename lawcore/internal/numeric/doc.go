// Package numeric holds the numerical pieces that lawcore's fit engine, its laws and its
// analyses share: the Huber loss on log residuals, a small non-negative least-squares solver,
// L-BFGS whitened by a Gauss-Newton Hessian, a damped Gauss-Newton step, evenly spaced grids,
// table-driven exp and log for inner loops (to a few ulp), math's own exp and log to the last
// bit without its calls in wasm (MathLog, MathExp and their loops), and a weighted quantile.
//
// Nothing here knows about learning-rate schedules or laws: each function is a plain numerical
// routine with its own contract.
package numeric
