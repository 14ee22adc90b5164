package lawcore

import (
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// PredictCurve is a schedule to predict: either Schedule or LR (the learning rate of every
// step from 0), and optionally the steps at which to predict.
type PredictCurve struct {
	// Name identifies the curve in results and error messages.
	Name string `json:"name"`
	// Schedule describes the learning-rate schedule.
	Schedule *schedule.Schedule `json:"schedule,omitempty"`
	// LR is the learning rate of every step from 0, when no Schedule is given.
	LR []float64 `json:"lr,omitempty" column:"lr"`
	// Steps, if given, are the only steps predicted (whole, increasing, within the schedule).
	Steps []float64 `json:"steps,omitempty" column:"steps"`
	// Size is the model's size N, for laws that take it.
	Size float64 `json:"size,omitempty"`
}

// PredictRequest asks for the loss curves of schedules under a law with given parameters.
// Its JSON form is described in docs/api.md#predict-request.
type PredictRequest struct {
	// Law names the law (see Lookup); empty is the annealing law.
	Law string `json:"law,omitempty"`
	// Params are the law's parameters, by name (the annealing law's with the lambda its
	// areas use).
	Params Values `json:"params"`
	// WarmupSteps is the warmup of LR-list curves and the default warmup of schedules.
	WarmupSteps int `json:"warmupSteps"`
	// WarmupConvention is "peak" or "actual"; empty means the law's own.
	WarmupConvention string `json:"warmupConvention,omitempty"`
	// Curves are the schedules to predict.
	Curves []PredictCurve `json:"curves" columns:"each"`
	// Points thins each curve to about this many evenly spaced steps (0: every step).
	Points int `json:"points,omitempty"`
	// Band, when given (a fit's or a validation's), adds the band's Lower and Upper at each
	// predicted step, wider the farther the step lies beyond the fitted data.
	Band *Band `json:"band,omitempty"`
	// Members, when given (an auto fit's), predict with their weighted average instead of
	// Law and Params: each member with its own law, parameters and warmup convention.
	Members []Member `json:"members,omitempty"`
}

// DecodePredictRequest parses a predict request's JSON, rejecting unknown fields.
func DecodePredictRequest(data []byte) (PredictRequest, error) {
	var r PredictRequest
	if err := input.DecodeStrict(data, &r); err != nil {
		return PredictRequest{}, &input.Error{Where: "predict request", Msg: err.Error()}
	}
	return r, nil
}

// Prediction is one predicted loss curve, of any law. The per-step arrays are left out of
// JSON: they are large, and cross to JavaScript as typed arrays.
type Prediction struct {
	Name string `json:"name"`
	// Total is the schedule's last step.
	Total int `json:"total"`
	// FinalLoss is the loss at the last step; FinalS1 the forward area there, and FinalS2 the
	// plain annealing area S2 with the law's lambda (0 for laws without one; for the LR-weighted
	// law not the weighted sum its S2Term holds).
	FinalLoss float64 `json:"finalLoss"`
	FinalS1   float64 `json:"finalS1"`
	FinalS2   float64 `json:"finalS2"`

	// Steps are the predicted steps; LR (as run), Loss and the law's two terms (Spec.Terms)
	// are their values there, so that Loss = constant + S1Term - S2Term.
	Steps  []float64 `json:"-" column:"steps"`
	LR     []float64 `json:"-" column:"lr"`
	Loss   []float64 `json:"-" column:"loss"`
	S1Term []float64 `json:"-" column:"s1Term"`
	S2Term []float64 `json:"-" column:"s2Term"`
	// Lower and Upper bound the band, when the request gave one.
	Lower []float64 `json:"-" column:"lower"`
	Upper []float64 `json:"-" column:"upper"`
	// Warning, when not empty, says why these losses should not be believed: they fall to 0
	// or below, which no loss can, so the parameters do not hold on this schedule.
	Warning string `json:"warning,omitempty"`
}

// Predict evaluates the request's law (or the weighted average of its members) on every curve
// of the request. Steps where nothing has been trained yet (S1 = 0, such as step 0 of a
// warmup from zero) are left out.
func Predict(req PredictRequest) ([]Prediction, error) {
	laws, err := req.predictors()
	if err != nil {
		return nil, err
	}
	if req.Points < 0 {
		return nil, input.Errorf("", "points", "must be zero or more, got %d", req.Points)
	}
	if len(req.Curves) == 0 {
		return nil, input.Errorf("", "curves", "no schedules to predict")
	}
	var alternatives []predictor
	if req.Band != nil && len(req.Band.Alternatives) > 0 {
		if alternatives, err = weighted(req.Band.Alternatives, "band alternative"); err != nil {
			return nil, err
		}
	}
	out := make([]Prediction, len(req.Curves))
	total := 0
	for i, c := range req.Curves {
		where := CurveLabel(i, c.Name)
		lr, warmup, err := expandSchedule(where, c.Schedule, c.LR, req.WarmupSteps)
		if err != nil {
			return nil, err
		}
		steps, err := predictSteps(where, c.Steps, len(lr)-1, req.Points)
		if err != nil {
			return nil, err
		}
		if len(laws) > 1 {
			// the average's steps are those every member has trained (a member counting the
			// warmup as run has not trained at step 0 of a warmup from zero; one counting it at
			// the peak has)
			for _, p := range laws {
				steps, _ = trainedSteps(schedule.CountedLR(lr, warmup, p.conv), steps)
			}
		}
		if total += len(steps); total > MaxPredictPoints {
			return nil, input.Errorf("", "curves", "more than the %d predicted points in all that one prediction may return (%s brings them to %d): ask for fewer with points, or predict a few schedules at a time", MaxPredictPoints, where, total)
		}
		var sd []float64 // the spread of the prediction over the band's replicates
		for k, p := range laws {
			run := Run{Name: c.Name, LR: schedule.CountedLR(lr, warmup, p.conv), Steps: steps, Size: c.Size}
			pr, err := PredictRun(p.law, p.theta, run, lr)
			if err != nil {
				if p.where != "" {
					err = input.Within(p.where, err)
				}
				return nil, input.Within(where, err)
			}
			if k == 0 {
				out[i] = pr
				if p.weight != 1 {
					out[i].scale(p.weight)
				}
			} else {
				out[i].add(pr, p.weight)
			}
			if req.Band != nil && k < len(req.Band.Replicates) {
				lawSD, err := replicateSpread(p.law, req.Band.Replicates[k], run)
				if err != nil {
					return nil, input.Within(fmt.Sprintf("band.replicates[%d]", k), err)
				}
				if sd == nil {
					sd = make([]float64, len(lawSD))
				}
				for j, v := range lawSD {
					sd[j] += p.weight * v // laws fitted to the same curves err together
				}
			}
		}
		var sm []float64 // the alternatives' spread around the prediction
		for _, p := range alternatives {
			run := Run{Name: c.Name, LR: schedule.CountedLR(lr, warmup, p.conv), Steps: steps, Size: c.Size}
			pr, err := PredictRun(p.law, p.theta, run, lr)
			if err != nil {
				return nil, input.Within(where, input.Within(p.where, err))
			}
			if sm == nil {
				sm = make([]float64, len(pr.Loss))
			}
			for j, l := range pr.Loss {
				d := l - out[i].Loss[j]
				sm[j] += p.weight * d * d
			}
		}
		for j := range sm {
			sm[j] = math.Sqrt(sm[j])
		}
		if req.Band != nil {
			out[i].addBand(*req.Band, schedule.CountedLR(lr, warmup, schedule.WarmupPeak), sd, sm)
		}
		if err := out[i].checkFinite(where); err != nil {
			return nil, err
		}
		out[i].warnNonPositive()
	}
	return out, nil
}

// warnNonPositive sets the prediction's Warning when its loss falls to 0 or below at a
// predicted step or at the end: a cross-entropy cannot, so the law is extrapolated past where
// its parameters mean anything (a long, deep anneal under a large C, say). The losses are kept,
// to be drawn and seen.
func (pr *Prediction) warnNonPositive() {
	first, low, lowAt := -1.0, math.Inf(1), 0.0
	for k, l := range pr.Loss {
		if l <= 0 && first < 0 {
			first = pr.Steps[k]
		}
		if l < low {
			low, lowAt = l, pr.Steps[k]
		}
	}
	if pr.FinalLoss < low {
		low, lowAt = pr.FinalLoss, float64(pr.Total)
	}
	if first < 0 {
		if !(low <= 0) {
			return
		}
		first = lowAt
	}
	pr.Warning = fmt.Sprintf("the predicted loss falls to %.4g (at step %.0f; 0 or below from step %.0f): no loss can, so these parameters do not hold on this schedule", low, lowAt, first)
}

// MaxPredictPoints bounds the points one prediction returns, all its schedules together:
// memory grows with them (ten schedules of MaxScheduleSteps, every step asked for, ran a
// prediction out of memory). The steps computed are not bounded: a schedule is computed a
// chunk at a time, and thinned with points.
const MaxPredictPoints = 2 * schedule.MaxSteps

// predictChunk is how many steps a prediction evaluates at a time (bounding the memory of
// the terms' derivatives).
const predictChunk = 4096

// PredictRun evaluates law with the parameter vector theta at the steps of run where
// something has been trained, and at its last step (FinalLoss); asRun are the learning rates
// as run, for the LR column (run.LR as counted by the warmup convention). It is Predict
// without the request: for callers that build many schedules themselves, such as the
// analyses.
func PredictRun(law Law, theta []float64, run Run, asRun []float64) (Prediction, error) {
	spec := law.Spec()
	last := len(run.LR) - 1
	pr := Prediction{Name: run.Name, Total: last}
	trained, sum := trainedSteps(run.LR, run.Steps)
	pr.FinalS1 = sum
	at := trained
	if n := len(trained); sum > 0 && (n == 0 || trained[n-1] != last) {
		at = append(trained[:n:n], last)
	}
	if i := spec.Index("lambda"); i >= 0 {
		_, pr.FinalS2 = schedule.FinalAreas(run.LR, theta[i])
	}
	model, err := law.Bind([]Run{{Name: run.Name, LR: run.LR, Steps: at, Size: run.Size}}, BindOptions{Predict: true, Theta: theta})
	if err != nil {
		return Prediction{}, err
	}
	t1, t2 := spec.Index(spec.Terms[0].Param), spec.Index(spec.Terms[1].Param)
	d := len(theta)
	loss, s1Term, s2Term := make([]float64, len(at)), make([]float64, len(at)), make([]float64, len(at))
	jac := make([]float64, min(len(at), predictChunk)*d)
	for from := 0; from < len(at); from += predictChunk {
		m := min(predictChunk, len(at)-from)
		model.Eval(theta, from, loss[from:from+m], jac[:m*d])
		termsOf(s1Term[from:from+m], s2Term[from:from+m], jac, d, theta[t1], t1, -theta[t2], t2)
	}
	if n := len(at); n > 0 && at[n-1] == last {
		pr.FinalLoss = loss[n-1]
	}
	m := len(trained)
	pr.Steps, pr.LR = stepsAndRates(trained, asRun)
	pr.Loss, pr.S1Term, pr.S2Term = loss[:m:m], s1Term[:m:m], s2Term[:m:m]
	return pr, nil
}

// trainedSteps returns the steps among steps (ascending) where the forward area of lr is
// positive, and the forward area at lr's last step. Not inlined: see the package doc on loops.
//
//go:noinline
func trainedSteps(lr []float64, steps []int) (trained []int, s1 float64) {
	trained = make([]int, 0, len(steps)+1)
	next := 0
	for _, st := range steps {
		for ; next <= st; next++ {
			s1 += lr[next]
		}
		if s1 > 0 {
			trained = append(trained, st)
		}
	}
	for ; next < len(lr); next++ {
		s1 += lr[next]
	}
	return trained, s1
}

// termsOf writes a term's value at each point, its parameter's value (times sign) times its
// derivative there, from the Jacobian's rows of d columns. Not inlined: see the package doc
// on loops.
//
//go:noinline
func termsOf(s1Term, s2Term, jac []float64, d int, scale1 float64, col1 int, scale2 float64, col2 int) {
	for k := range s1Term {
		s1Term[k] = scale1 * jac[k*d+col1]
		s2Term[k] = scale2 * jac[k*d+col2]
	}
}

// stepsAndRates returns the steps as numbers and the learning rates as run there. Not
// inlined: see the package doc on loops.
//
//go:noinline
func stepsAndRates(steps []int, asRun []float64) (at, lr []float64) {
	at, lr = make([]float64, len(steps)), make([]float64, len(steps))
	for k, st := range steps {
		at[k] = float64(st)
		lr[k] = asRun[st]
	}
	return at, lr
}

// replicateSpread is the jackknife's standard error of the law's prediction at the trained
// steps of run (as PredictRun predicts them) over the replicates' parameter sets, about their
// mean prediction (0 with fewer than two sets).
func replicateSpread(law Law, reps Replicates, run Run) ([]float64, error) {
	spec := law.Spec()
	sets := make([][]float64, len(reps.Sets))
	for k, v := range reps.Sets {
		var err error
		if sets[k], err = spec.Theta(v); err != nil {
			return nil, input.Within(fmt.Sprintf("sets[%d]", k), err)
		}
	}
	run.Steps, _ = trainedSteps(run.LR, run.Steps)
	if len(sets) < 2 {
		return make([]float64, len(run.Steps)), nil
	}
	model, err := law.Bind([]Run{run}, BindOptions{Predict: true, Theta: sets[0]})
	if err != nil {
		return nil, err
	}
	n := model.Points()
	preds := make([][]float64, len(sets))
	mean := make([]float64, n)
	for k, theta := range sets {
		if a, ok := model.(Anchored); ok {
			a.Anchor(theta, k == 0) // one approximation for every replicate, near one another
		}
		preds[k] = make([]float64, n)
		model.Eval(theta, 0, preds[k], nil)
		addScaled(mean, preds[k], 1/float64(len(sets)))
	}
	ss := make([]float64, n)
	for _, p := range preds {
		addSquares(ss, p, mean)
	}
	k := float64(len(sets))
	for j := range ss {
		ss[j] = math.Sqrt((k - 1) / k * ss[j])
	}
	return ss, nil
}

// addScaled adds w·a[j] to each sum[j]. Not inlined: see the package doc on loops.
//
//go:noinline
func addScaled(sum, a []float64, w float64) {
	for j := range sum {
		sum[j] += w * a[j]
	}
}

// addSquares adds (a[j]-b[j])² to each ss[j]. Not inlined: see the package doc on loops.
//
//go:noinline
func addSquares(ss, a, b []float64) {
	for j := range ss {
		d := a[j] - b[j]
		ss[j] += d * d
	}
}

// addBand sets Lower and Upper from the band at each predicted step: the spread sd of the
// prediction over the band's replicates and sm of its alternatives' predictions around it
// (either nil: none), and the discrepancy at the step's distance from the band's reach
// (counted are the learning rates with the warmup at its peak, as the reach counts them).
func (pr *Prediction) addBand(b Band, counted, sd, sm []float64) {
	z := math.Sqrt2 * math.Erfinv(b.Level)
	pr.Lower, pr.Upper = make([]float64, len(pr.Steps)), make([]float64, len(pr.Steps))
	w := schedule.NewAreaWalker(DefaultLambda)
	i := 0
	for k, st := range pr.Steps {
		for ; i <= int(st); i++ {
			w.Add(counted[i])
		}
		// the discrepancy is relative to the loss's size: a loss below zero (a warning) keeps
		// lower <= upper
		d := math.Abs(pr.Loss[k]) * b.HalfWidth(b.Reach.Distance(w.S1, w.S2))
		if sd != nil {
			d = math.Hypot(d, b.Quantile*sd[k])
		}
		if sm != nil {
			d = math.Hypot(d, z*sm[k])
		}
		pr.Lower[k], pr.Upper[k] = pr.Loss[k]-d, pr.Loss[k]+d
	}
}

// checkFinite reports a prediction whose loss is not a finite number anywhere (parameters or
// learning rates so large that the law overflows float64): it could not be drawn or exported.
func (pr *Prediction) checkFinite(where string) error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	bad := -1.0
	switch {
	case !finite(pr.FinalLoss) || !finite(pr.FinalS1) || !finite(pr.FinalS2):
		bad = float64(pr.Total)
	default:
		for k := range pr.Loss {
			if !finite(pr.Loss[k]) || !finite(pr.S1Term[k]) || !finite(pr.S2Term[k]) {
				bad = pr.Steps[k]
				break
			}
		}
	}
	if bad < 0 {
		return nil
	}
	return input.Errorf(where, "", "the predicted loss is not a finite number at step %.0f: the parameters or the learning rates are too large", bad)
}

// predictSteps returns the steps to predict: the given ones (checked), or 1..last thinned to
// about points steps, the last always included.
func predictSteps(where string, given []float64, last, points int) ([]int, error) {
	if len(given) > 0 {
		steps := make([]int, len(given))
		for k, st := range given {
			if st != math.Trunc(st) || st < 0 || st > float64(last) || (k > 0 && st <= given[k-1]) {
				return nil, input.Errorf(where, fmt.Sprintf("steps[%d]", k),
					"must be whole, increasing steps within the schedule (0..%d), got %v", last, st)
			}
			steps[k] = int(st)
		}
		return steps, nil
	}
	stride := 1
	if points > 0 && last > points {
		stride = (last + points - 1) / points
	}
	steps := make([]int, 0, last/stride+2)
	for s := stride; s < last; s += stride {
		steps = append(steps, s)
	}
	return append(steps, last), nil
}

// FitLines predicts every curve of a fit request with the fit's result, at every step (or
// about req.Points steps, or, when the request gives none, the fewest LinePoints of the laws
// it evaluates: the result's law and its members): the lines a page draws through the observed
// points.
func FitLines(req FitRequest, res *FitResult) ([]Prediction, error) {
	points := req.Points
	if points == 0 {
		// an average costs what its costliest member does at every step, whichever member
		// comes first
		laws := []string{res.Law}
		for _, m := range res.Members {
			laws = append(laws, m.Law)
		}
		for _, name := range laws {
			law, err := Lookup(name)
			if err != nil {
				return nil, err
			}
			if p := law.Spec().LinePoints; p > 0 && (points == 0 || p < points) {
				points = p
			}
		}
	}
	pr := PredictRequest{Law: res.Law, Params: res.Params, WarmupSteps: req.WarmupSteps,
		WarmupConvention: string(res.Settings.WarmupConvention), Points: points, Members: res.Members}
	for _, c := range req.Curves {
		pr.Curves = append(pr.Curves, PredictCurve{Name: c.Name, Schedule: c.Schedule, LR: c.LR, Size: c.Size})
	}
	return Predict(pr)
}
