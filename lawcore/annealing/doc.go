// Package annealing is the scaling law with learning-rate annealing (Tissue, Wang, Wang et
// al., 2024, arXiv 2408.11029), the calculator's default law:
//
//	L(s) = L0 + A*S1(s)^(-alpha) - C*S2(s)
//
// where S1 is the forward area of the learning rates up to step s and S2 the annealing area,
// the sum of a momentum of learning-rate drops that decays by lambda each step (package
// lawcore/schedule computes both). L0 is the loss with unlimited training, A and alpha the
// power law in the forward area, C the loss drop per unit of annealing area. lambda is held
// at 0.999, as the paper holds it, unless a fit asks to fit it.
//
// [Law] is the law as the fit engine (package lawcore) fits and predicts it; importing this
// package registers it under [Name]. [Params] types its parameters for code that works with
// this law alone (the paper's analyses, the model-size law); [AreaTable] holds the areas of
// some runs at their observed steps, computed again only when lambda changes, for this law and
// the laws built on the same areas.
package annealing
