package lawcore

import "github.com/lawcalc/annealing/lawcore/schedule"

// FitResult is the outcome of a fit, for every law: the parameters, the objective they reach,
// how each curve is fitted or predicted, and how the search went.
type FitResult struct {
	// Law names the law fitted.
	Law string `json:"law"`
	// Params are the fitted parameters, by name (held ones at their held value).
	Params Values `json:"params"`
	// Held names the parameters the fit held rather than fitted.
	Held []string `json:"held"`
	// Objective is the summed Huber loss of the log residuals over every fitted point.
	Objective float64 `json:"objective"`
	// Curves has one entry per request curve, in order.
	Curves []CurveResult `json:"curves"`
	// FitMetrics summarises the curves with role "fit" (see MeanMetrics).
	FitMetrics Metrics `json:"fitMetrics"`
	// ValidateMetrics summarises the curves with role "validate"; nil when there are none.
	ValidateMetrics *Metrics `json:"validateMetrics"`
	// Settings are the settings the fit used, defaults filled in.
	Settings FitSettings `json:"settings"`
	// Search says how the parameters were found.
	Search Search `json:"search"`
	// Reach is how far the fitted data go (the largest areas among the fitted points): a
	// prediction band widens with the distance beyond it.
	Reach Reach `json:"reach"`
	// Note says what the law decided about the data, such as which parameters it held and why.
	Note string `json:"note,omitempty"`
	// Intervals are the free parameters' 90% intervals, when the request asked for them
	// (and the fit curves have six points or more each).
	Intervals map[string]Interval `json:"intervals,omitempty"`
	// Replicates are the jackknife's refitted parameters behind Intervals, one set per block
	// left out: an analysis given them says which choices the fit cannot tell apart.
	Replicates []Values `json:"replicates,omitempty"`
	// Warnings say what to know before trusting the fit (a parameter on its bound, a curve
	// fitted poorly, held-out error far above in-sample error).
	Warnings []Warning `json:"warnings,omitempty"`
	// Lines, when the request asked for them, predict every curve along its schedule with the
	// fitted parameters: the lines a page draws through the observed points.
	Lines []Prediction `json:"-" columns:"each"`
	// Band is the prediction band of the fit's predictions (pass it to Predict to draw it):
	// the replicates' spread with the prior's discrepancy for a fit with intervals, the
	// discrepancy learnt from held-out errors for an auto fit.
	Band *Band `json:"band,omitempty"`
	// Auto, set when the request asked for "auto", says what was picked and why.
	Auto *AutoChoice `json:"auto,omitempty"`
	// Members, set when auto predicts with a weighted average of laws, are the laws averaged,
	// heaviest first: Curves, Lines and the metrics are the average's, while Law, Params,
	// Intervals and Warnings are the first member's. Pass them to Predict.
	Members []Member `json:"members,omitempty"`
	// ElapsedMs is the time the fit took, in milliseconds.
	ElapsedMs float64 `json:"elapsedMs"`
}

// FitSettings records the settings a fit used.
type FitSettings struct {
	Lambda           LambdaSetting       `json:"lambda"`
	WarmupSteps      int                 `json:"warmupSteps"`
	WarmupConvention schedule.Convention `json:"warmupConvention"`
	HuberDelta       float64             `json:"huberDelta"`
	// Priors is "weak" or "none" (FitRequest.Priors).
	Priors string `json:"priors"`
}

// CurveResult is one curve's fitted (role "fit") or predicted (role "validate") loss at its
// observed steps, and its metrics.
type CurveResult struct {
	Name string  `json:"name"`
	Role string  `json:"role"`
	Size float64 `json:"size,omitempty"`
	// From is the first step of the curve's window: Metrics score the points from there on,
	// Predicted covers every point.
	From      float64   `json:"from"`
	Metrics   Metrics   `json:"metrics"`
	Predicted []float64 `json:"predicted"`
}

// Search describes how the parameters were found: the strategy, how many starts were
// polished and how many objective evaluations everything took (the start search included).
type Search struct {
	Strategy    string `json:"strategy"`
	Starts      int    `json:"starts"`
	Evaluations int    `json:"evaluations"`
}

// CandidateScore is a candidate's record in an auto fit.
type CandidateScore struct {
	Candidate
	// HeldOut is the mean relative error of the held-out points over the folds; StdErr the
	// standard error of that mean; Folds the error of each fold, at most 1 (all zero when
	// Error says the candidate could not be scored).
	HeldOut float64   `json:"heldOut"`
	StdErr  float64   `json:"stdErr"`
	Folds   []float64 `json:"folds"`
	// Evidence is the candidate's weight of evidence from its held-out errors (the weights of
	// the scored candidates sum to one): how likely its errors are under the accuracy the
	// held-out data show laws have (lawcore/auto's evidenceWeights).
	Evidence float64 `json:"evidence"`
	// InSample is the mean relative error of the same fold fits on the points they were
	// fitted to: beside HeldOut, it shows a law that fits well and predicts badly.
	InSample float64 `json:"inSample"`
	// Weight is the candidate's share of the prediction: 1 for the one chosen alone, its
	// weight in the average when auto averages, 0 otherwise.
	Weight float64 `json:"weight"`
	// Error says why the candidate could not be scored ("" when it was).
	Error string `json:"error,omitempty"`
}

// AutoChoice reports what an "auto" fit compared, what it picked and why.
type AutoChoice struct {
	// Chosen is the candidate picked (when auto averages, the heaviest member); Candidates
	// are all of them, scored: what predicts first (heaviest first), then the others by
	// held-out error, then those that could not be scored.
	Chosen     Candidate        `json:"chosen"`
	Candidates []CandidateScore `json:"candidates"`
	// Design says how the held-out data were made: "leave one curve out and forecast", or
	// with one curve "forecast".
	Design string `json:"design"`
	// Folds describes each fold in words; LeftOut names those whose fit of the simplest
	// candidate said nothing of how a law predicts, and why: they count in neither the scores,
	// the weights nor the band.
	Folds   []string `json:"folds"`
	LeftOut []string `json:"leftOut,omitempty"`
	// Averaged is the held-out error of the weighted average (the mean over folds, as
	// HeldOut), when auto predicts with one (FitResult.Members); 0 otherwise.
	Averaged float64 `json:"averaged,omitempty"`
	// Reason says why, in one sentence.
	Reason string `json:"reason"`
}
