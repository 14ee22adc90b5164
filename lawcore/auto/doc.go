// Package auto chooses the law and its settings by how well they predict. A law that fits the
// user's curves better may predict their other schedules worse (a fitted lambda bends to the
// noise of two curves; seven parameters fit anything), so the in-sample objective never
// decides. Each candidate is fitted on part of the user's fit curves and scored on the part
// held out:
//
//   - with two fit curves or more, each curve in turn is left out and predicted from the
//     others (leave one curve out: a schedule the fit has not seen), and each curve's last
//     half is held out and forecast from its first half and the other curves (the question
//     users ask most: what will a longer run reach?);
//   - with one fit curve, its last third and its last half are forecast. One curve cannot
//     show how a law carries over to other schedules, which is where the other laws differ
//     from the annealing law (the LR-weighted momentum, the S2^ζ exponent, the Multi-Power
//     reduction term): so only the annealing law competes, with lambda held and fitted,
//     under each warmup convention.
//
// The score is the mean relative error of the held-out points, each fold weighing the same
// and counting at most 100% (a prediction off by more is wrong, and one such fold must not
// outweigh all the others). Between candidates whose scores differ by less than the noise of
// that difference (one standard error of the paired differences over folds, and at least
// tieTolerance of the best score), the one with fewer fitted parameters wins: a simpler law
// is preferred unless the data show that the complex one predicts better.
//
// With two fit curves or more, auto then asks whether a weighted average of the candidates
// predicts the held-out data better than the one chosen (lawcore.Member): the weights are those
// of the least held-out error, and the average is kept only when its error is below the
// chosen candidate's by more than tieTolerance (else the single, simpler answer stands).
// With one fit curve the folds are two overlapping tails of the same curve, too little to
// weigh candidates by, and the one chosen is kept. Only the members (or the one chosen) are
// then fitted on every curve; a fold's fit polishes only its best start (it estimates how
// well a law predicts, not the last digit of its parameters).
//
// The same held-out errors calibrate the prediction band of what auto predicts with
// (lawcore.Band), and [LeaveOneScheduleOut] reports them curve by curve for any law.
//
// [Fit] runs it all; lawcore.Fit fits one law as named. The page's first view loads a build
// of the bridge that leaves this package out, and sends auto fits to the full build.
package auto
