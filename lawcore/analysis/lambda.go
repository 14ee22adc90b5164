package analysis

import (
	"context"
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// The decay factor lambda (the paper's Sec. 7.1, Figs. 15 and 16): the annealing momentum
// keeps about 1/(1-lambda) steps of history, so a larger lambda gives a longer delay between
// the learning rate's turn and the loss's turn, and favours a larger annealing ratio.
//
// The delay is measured as in the paper's Fig. 5 experiment: the learning rate holds the peak
// for DelayStable steps, falls linearly to DelayFloor x peak over D steps, then rises linearly
// back to the peak over DelayRise steps and holds it for DelayRise more. The delay is the
// number of steps from the step where the learning rate is lowest to the step where the
// predicted loss is lowest. A second measure follows a WSD run: the number of steps from the
// start of its decay to the step where the predicted loss falls fastest (largest L(s-1) -
// L(s)), beside the step where the learning rate itself falls fastest.
//
// The paper fits the law again for each lambda. Give Fit (the curves the setup was fitted to)
// to do the same: the annealing law is refitted to its curves with each lambda held, and the
// sweep and delays use each refit's parameters. ParamsByLambda gives the parameters of each
// lambda directly. With neither, the setup's L0, A, C and alpha are held while lambda varies,
// which shows the effect of lambda alone; the answer's Held and Note say so.

// LambdaOptions asks for the ratio sweep and the delays under several lambdas.
type LambdaOptions struct {
	Setup
	// Lambdas are the decay factors compared (default 0.99 and 0.999).
	Lambdas []float64 `json:"lambdas"`
	// ParamsByLambda, if given, are the parameters to use with each lambda, in order (their
	// own Lambda field is ignored).
	ParamsByLambda []annealing.Params `json:"paramsByLambda,omitempty"`
	// Fit, if given, is the fit whose curves the annealing law is refitted to for each lambda,
	// as the paper does: its curves of role "fit", warmup, warmup convention, Huber delta and
	// priors. Its law and lambda are replaced (the annealing law, each lambda held); its
	// validated curves are left out. Give Fit or ParamsByLambda, not both.
	Fit *lawcore.FitRequest `json:"fit,omitempty"`
	// Totals, Ratios, Decay and Floor are the WSD ratio sweep's (see WSDRatioOptions;
	// defaults 50000, 0.02 to 0.8 by 0.02, cosine, 0).
	Totals []int     `json:"totals"`
	Ratios []float64 `json:"ratios"`
	Decay  string    `json:"decay,omitempty"`
	Floor  float64   `json:"floor"`
	// DelayStable, DelayDecays, DelayRise and DelayFloor shape the delay experiment (defaults
	// 20000 steps at peak; decays over 100, 500, 1000, 2000 steps; a 5000-step rise; floor 0.1).
	DelayStable int     `json:"delayStable"`
	DelayDecays []int   `json:"delayDecays"`
	DelayRise   int     `json:"delayRise"`
	DelayFloor  float64 `json:"delayFloor"`
	// DropRatio is the annealing ratio of the WSD run whose fastest loss drop is located, at
	// the first of Totals (default 0.2).
	DropRatio float64 `json:"dropRatio"`
}

// DefaultLambdaOptions compares lambda 0.99 and 0.999 as the paper does.
func DefaultLambdaOptions() LambdaOptions {
	return LambdaOptions{Setup: DefaultSetup(), Lambdas: []float64{0.99, 0.999},
		Totals: []int{50000}, Ratios: numeric.Linspace(0.02, 0.8, 40), Decay: "cosine",
		DelayStable: 20000, DelayDecays: []int{100, 500, 1000, 2000}, DelayRise: 5000, DelayFloor: 0.1, DropRatio: 0.2}
}

// DelayMeasure is the delay of one lambda and one decay length.
type DelayMeasure struct {
	Lambda     float64 `json:"lambda"`
	DecaySteps int     `json:"decaySteps"`
	LRMinStep  int     `json:"lrMinStep"`
	// TurnStep is the loss's turning point (nil when the loss never rises after LRMinStep).
	TurnStep *int `json:"turnStep"`
	// Delay is TurnStep - LRMinStep (nil without a turning point).
	Delay *int `json:"delay"`
}

// DropLag locates the fastest loss drop of one lambda's WSD run.
type DropLag struct {
	Lambda float64 `json:"lambda"`
	// DecayStart is the last step at the peak; LRFastestStep is where the learning rate falls
	// most in one step; LossFastestStep where the predicted loss does.
	DecayStart      int `json:"decayStart"`
	LRFastestStep   int `json:"lrFastestStep"`
	LossFastestStep int `json:"lossFastestStep"`
	// Lag is LossFastestStep - DecayStart.
	Lag int `json:"lag"`
}

// LambdaResult holds the ratio sweep, the delays and the fastest drops per lambda.
type LambdaResult struct {
	// ByRatio has one series per lambda and total: final loss against the annealing ratio.
	ByRatio []Series `json:"byRatio"`
	// Optima has one entry per lambda and total, in the order of ByRatio.
	Optima []WSDOptimum `json:"optima"`
	// OptimumLambdas is the lambda of each entry of Optima.
	OptimumLambdas []float64 `json:"optimumLambdas"`
	// Delays has one entry per lambda and decay length.
	Delays []DelayMeasure `json:"delays"`
	// DelayCurves are the loss curves of the delay experiment, in the order of Delays.
	DelayCurves []LossCurve `json:"delayCurves"`
	// Drops has one entry per lambda.
	Drops []DropLag `json:"drops"`
	// DropCurves are the loss curves of the WSD runs, in the order of Drops.
	DropCurves []LossCurve `json:"dropCurves"`
	// Params are the parameters used with each lambda.
	Params []annealing.Params `json:"params"`
	// Refits, when the options gave Fit, are the refits behind Params, one per lambda.
	Refits []LambdaRefit `json:"refits,omitempty"`
	// Held is true when the setup's L0, A, C and alpha were held for every lambda (neither Fit
	// nor ParamsByLambda given).
	Held bool `json:"held"`
	// Note says where each lambda's parameters come from (refitted, given or held) and, for a
	// setup that averages members, that the analysis took the heaviest member alone.
	Note  string `json:"note,omitempty"`
	Table Table  `json:"table"`
	Setup Setup  `json:"setup"`
}

// LambdaRefit is the annealing law refitted with one lambda held.
type LambdaRefit struct {
	Lambda float64 `json:"lambda"`
	// Objective is the fit's summed Huber loss; R2 its fit curves' R^2 (nil when undefined).
	Objective float64  `json:"objective"`
	R2        *float64 `json:"R2"`
	// Curves and Points count the curves and points fitted.
	Curves int `json:"curves"`
	Points int `json:"points"`
}

// DelaySchedule is the delay experiment's schedule: warmup, stable steps at peak, a linear
// fall to floor x peak over decay steps, a linear rise back to the peak over rise steps, and
// rise more steps at the peak.
func DelaySchedule(peak float64, warmup, stable, decay, rise int, floor float64) schedule.Schedule {
	start := float64(warmup + stable)
	low := start + float64(decay)
	top := low + float64(rise)
	return schedule.Schedule{Kind: schedule.KindExplicit, Warmup: warmup, Total: int(top) + rise,
		Steps:  []float64{float64(warmup), start, low, top},
		Values: []float64{peak, peak, floor * peak, peak}}
}

// Lambda runs the ratio sweep, the delay experiment and the WSD drop for each lambda.
func Lambda(ctx context.Context, o LambdaOptions, progress func(float64)) (answer *LambdaResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	base, setup, points, note, err := o.annealing("lambda", w)
	if err != nil {
		return nil, err
	}
	if err := checkList("lambdas", o.Lambdas, 0, math.Nextafter(1, 0), 10); err != nil {
		return nil, err
	}
	if len(o.ParamsByLambda) > 0 && len(o.ParamsByLambda) != len(o.Lambdas) {
		return nil, input.Errorf("", "paramsByLambda", "needs one entry per lambda (%d), got %d", len(o.Lambdas), len(o.ParamsByLambda))
	}
	if len(o.ParamsByLambda) > 0 && o.Fit != nil {
		return nil, input.Errorf("", "fit", "give the curves to refit (fit) or the parameters of each lambda (paramsByLambda), not both")
	}
	var refit *lawcore.FitRequest
	if o.Fit != nil {
		if refit, err = refitRequest(*o.Fit); err != nil {
			return nil, err
		}
	}
	if o.Decay == "" {
		o.Decay = "cosine"
	}
	if err := checkWSDRatio(o.Totals, o.Ratios, o.Warmup, o.Decay, o.Floor); err != nil {
		return nil, err
	}
	if o.DelayStable < 1 || o.DelayRise < 1 || o.DelayStable+o.DelayRise > schedule.MaxSteps/4 {
		return nil, input.Errorf("", "delayStable", "delayStable and delayRise must be positive numbers of steps, got %d and %d", o.DelayStable, o.DelayRise)
	}
	if err := checkSteps("delayDecays", o.DelayDecays, 1, schedule.MaxSteps/4, 10); err != nil {
		return nil, err
	}
	if err := checkFraction("delayFloor", o.DelayFloor, 0, 0.999); err != nil {
		return nil, err
	}
	if err := checkFraction("dropRatio", o.DropRatio, 1/float64(o.Totals[0]), float64(o.Totals[0]-o.Warmup)/float64(o.Totals[0])); err != nil {
		return nil, err
	}
	res := &LambdaResult{Setup: o.Setup, Held: refit == nil && len(o.ParamsByLambda) == 0,
		Table: Table{Columns: []string{"lambda", "measure", "setting", "value"}}}
	res.Note = lambdaSource(refit, len(o.ParamsByLambda) > 0, note)
	w.plan(len(o.Lambdas))
	for li, lambda := range o.Lambdas {
		p := setup
		switch {
		case len(o.ParamsByLambda) > 0:
			p = o.ParamsByLambda[li]
		case refit != nil:
			r, err := refitLambda(w, *refit, lambda)
			if err != nil {
				return nil, err
			}
			res.Refits = append(res.Refits, r.LambdaRefit)
			p = r.params
			setting := fmt.Sprintf("refitted to %d curves", r.Curves)
			for _, v := range []struct {
				name  string
				value float64
			}{{"L0", p.L0}, {"A", p.A}, {"C", p.C}, {"alpha", p.Alpha}} {
				res.Table.addRow(lambda, v.name, setting, v.value)
			}
		}
		p.Lambda = lambda
		if err := p.Validate(); err != nil {
			return nil, input.Within(fmt.Sprintf("paramsByLambda[%d]", li), err)
		}
		res.Params = append(res.Params, p)
		e := base.withAnnealing(p)
		for _, total := range o.Totals {
			byRatio, _, opt, err := wsdSweep(e, total, o.Peak, o.Warmup, o.Decay, o.Floor, o.Ratios)
			if err != nil {
				return nil, err
			}
			byRatio.Name = fmt.Sprintf("lambda %g, %d steps", lambda, total)
			res.ByRatio, res.Optima = append(res.ByRatio, byRatio), append(res.Optima, opt)
			res.OptimumLambdas = append(res.OptimumLambdas, lambda)
			res.Table.addRow(lambda, "best annealing ratio", fmt.Sprintf("%d steps", total), opt.Ratio)
		}
		for _, decay := range o.DelayDecays {
			s := DelaySchedule(o.Peak, o.Warmup, o.DelayStable, decay, o.DelayRise, o.DelayFloor)
			lr, warmup, err := e.expand(&s)
			if err != nil {
				return nil, input.Within("delayDecays", err)
			}
			d := DelayMeasure{Lambda: lambda, DecaySteps: decay, LRMinStep: o.Warmup + o.DelayStable + decay}
			extra := []int{d.LRMinStep}
			value := math.NaN()
			dense, err := e.dense(lr, warmup)
			if err != nil {
				return nil, input.Within("delayDecays", err)
			}
			if turn := lossTurn(dense, o.Warmup+o.DelayStable); turn >= 0 {
				delay := turn - d.LRMinStep
				d.TurnStep, d.Delay = &turn, &delay
				extra = sortedSteps(d.LRMinStep, turn)
				value = float64(delay)
			}
			c, err := e.traceLR(fmt.Sprintf("lambda %g, %d-step fall", lambda, decay), lr, warmup, points, extra...)
			if err != nil {
				return nil, input.Within("delayDecays", err)
			}
			res.Delays = append(res.Delays, d)
			res.DelayCurves = append(res.DelayCurves, c)
			res.Table.addRow(lambda, "delay (steps)", fmt.Sprintf("%d-step fall", decay), value)
		}
		total := o.Totals[0]
		s := wsdSchedule(total, o.Peak, o.Warmup, o.Decay, o.Floor, int(math.Round(o.DropRatio*float64(total))))
		lr, warmup, err := e.expand(&s)
		if err != nil {
			return nil, input.Within("dropRatio", err)
		}
		dense, err := e.dense(lr, warmup)
		if err != nil {
			return nil, input.Within("dropRatio", err)
		}
		dl := fastestDrop(lr, dense, warmup)
		dl.Lambda = lambda
		c, err := e.traceLR(fmt.Sprintf("lambda %g, WSD %g%% %s", lambda, 100*o.DropRatio, o.Decay), lr, warmup, points,
			sortedSteps(dl.DecayStart, dl.LRFastestStep, dl.LossFastestStep)...)
		if err != nil {
			return nil, input.Within("dropRatio", err)
		}
		res.Drops = append(res.Drops, dl)
		res.DropCurves = append(res.DropCurves, c)
		res.Table.addRow(lambda, "fastest loss drop after decay start (steps)", fmt.Sprintf("WSD %d steps, %g%%", total, 100*o.DropRatio), float64(dl.Lag))
		w.stageDone()
	}
	return res, nil
}

// refitRequest checks the fit to refit for each lambda and returns it for the annealing law,
// with its fit curves alone, no lines, intervals or auto.
func refitRequest(f lawcore.FitRequest) (*lawcore.FitRequest, error) {
	if f.Law != "" && f.Law != annealing.Name {
		return nil, input.Errorf("fit", "law", "the lambda analysis refits the annealing law; leave law out (got %q)", f.Law)
	}
	var curves []lawcore.Curve
	for _, c := range f.Curves {
		if c.Role == "" || c.Role == lawcore.RoleFit {
			curves = append(curves, c)
		}
	}
	if len(curves) == 0 {
		return nil, input.Errorf("fit", "curves", "no curve of role \"fit\" to refit the parameters to")
	}
	f.Curves, f.Law, f.Auto, f.Lines, f.Intervals, f.Points, f.Fixed = curves, annealing.Name, false, false, false, 0, nil
	return &f, nil
}

// refitted is one lambda's refit and its parameters.
type refitted struct {
	LambdaRefit
	params annealing.Params
}

// refitLambda fits the annealing law to the request's curves with lambda held, reporting its
// progress within the stage under way.
func refitLambda(w *work, req lawcore.FitRequest, lambda float64) (refitted, error) {
	if err := w.check(); err != nil {
		return refitted{}, err
	}
	req.Lambda = lawcore.FixedLambda(lambda)
	res, err := lawcore.Fit(w.ctx, req, func(f float64) { w.within(f / 2) })
	if err != nil {
		return refitted{}, input.Within("fit", err)
	}
	p, err := annealing.ParamsOf(res.Params)
	if err != nil {
		return refitted{}, input.Within("fit", err)
	}
	return refitted{LambdaRefit: LambdaRefit{Lambda: lambda, Objective: res.Objective, R2: res.FitMetrics.R2,
		Curves: len(req.Curves), Points: res.FitMetrics.Points}, params: p}, nil
}

// lambdaSource says where each lambda's parameters come from, after the note of a setup that
// averages members (memberNote, "" for a single law).
func lambdaSource(refit *lawcore.FitRequest, given bool, memberNote string) string {
	var s string
	switch {
	case refit != nil:
		n := len(refit.Curves)
		s = fmt.Sprintf("L0, A, C and alpha are refitted for each lambda to the %d fit curve%s, as the paper does.", n, map[bool]string{true: "", false: "s"}[n == 1])
	case given:
		s = "L0, A, C and alpha are the ones given for each lambda (paramsByLambda)."
	default:
		s = "L0, A, C and alpha are held at the setup's for every lambda (no fit curves given to refit them to, as the paper does): the answer shows the effect of lambda alone."
	}
	if memberNote != "" {
		return memberNote + " " + s
	}
	return s
}

// sortedSteps returns the steps in increasing order without repeats.
func sortedSteps(steps ...int) []int {
	out := append([]int(nil), steps...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	k := 0
	for i, s := range out {
		if i == 0 || s != out[k-1] {
			out[k] = s
			k++
		}
	}
	return out[:k]
}

// lossTurn is the loss's first turning point after step from: the first step whose loss is
// below the next step's, given the loss at every step; -1 when the loss never rises.
func lossTurn(dense []float64, from int) int {
	for i := from + 1; i < len(dense); i++ {
		if dense[i] > dense[i-1] {
			return i - 1
		}
	}
	return -1
}

// fastestDrop locates, after the last step at the peak, the steps where the learning rate and
// the predicted loss (given at every step) fall most in one step.
func fastestDrop(lr, dense []float64, warmup int) DropLag {
	d := DropLag{DecayStart: annealingStart(lr, warmup)}
	lrDrop, lossDrop := math.Inf(-1), math.Inf(-1)
	for i := d.DecayStart + 1; i < len(lr); i++ {
		if drop := lr[i-1] - lr[i]; drop > lrDrop {
			d.LRFastestStep, lrDrop = i, drop
		}
		if drop := dense[i-1] - dense[i]; drop > lossDrop {
			d.LossFastestStep, lossDrop = i, drop
		}
	}
	d.Lag = d.LossFastestStep - d.DecayStart
	return d
}
