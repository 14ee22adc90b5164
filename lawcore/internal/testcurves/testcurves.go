// Package testcurves reads the real curves the tests of lawcore and its laws share: the
// paper's Fig. 2 and the MultiPowerLaw release's 25M and 100M curves (site/examples), with
// their schedules and the release's split; the cooldown study's runs; and draws runs from the
// law: nearly noise-free (Synthetic), or logged at every step with the noise a training loss
// has (NoisyPerStep). Only tests import it.
package testcurves

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// examples is site/examples, found from this file's own place in the repository.
func examples() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "site", "examples")
}

// fig2 is the paper's Fig. 2 data (site/examples/paper-fig2.json).
type fig2 struct {
	TotalSteps int                  `json:"total_steps"`
	Warmup     int                  `json:"warmup"`
	EtaMax     float64              `json:"eta_max"`
	EtaMin     float64              `json:"eta_min"`
	Lambda     float64              `json:"lambda"`
	Steps      []float64            `json:"steps"`
	Loss       map[string][]float64 `json:"loss"`
}

// Fig2 is the paper's Fig. 2 fit: constant and cosine, 20K steps, peak 2e-4, warmup 500
// counted at peak, lambda 0.999.
func Fig2(tb testing.TB) lawcore.FitRequest {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(examples(), "paper-fig2.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var f fig2
	if err := json.Unmarshal(data, &f); err != nil {
		tb.Fatal(err)
	}
	var curves []lawcore.Curve
	for _, kind := range []string{schedule.KindCosine, schedule.KindConstant} {
		curves = append(curves, lawcore.Curve{Name: kind, Role: lawcore.RoleFit, Steps: f.Steps, Loss: f.Loss[kind],
			Schedule: &schedule.Schedule{Kind: kind, Total: f.TotalSteps, Peak: f.EtaMax, Final: f.EtaMin, Warmup: f.Warmup}})
	}
	return lawcore.FitRequest{Curves: curves, Lambda: lawcore.FixedLambda(f.Lambda), WarmupConvention: "peak", HuberDelta: 1e-3}
}

// The MultiPowerLaw release's curves: every run warms up linearly from 0 to 3e-4 over 2160
// steps; its README gives the schedule after warmup.
const (
	MPLWarmup = 2160
	mplPeak   = 3e-4
	mplFinal  = 3e-5
)

// MPLFitNames and MPLTestNames are the release's split: fit three curves, predict six.
var (
	MPLFitNames  = []string{"cosine_24000", "constant_24000", "wsdcon_9"}
	MPLTestNames = []string{"constant_72000", "cosine_72000", "wsd_20000_24000", "wsdld_20000_24000", "wsdcon_3", "wsdcon_18"}
)

// MPLNames are all nine curves, the fitted ones first.
func MPLNames() []string { return append(append([]string(nil), MPLFitNames...), MPLTestNames...) }

// MPLSchedule is a release curve's schedule, from its name, as the release's README states it.
func MPLSchedule(name string) schedule.Schedule {
	w := MPLWarmup
	wsdcon := func(level float64) schedule.Schedule {
		// 3e-4 to step 7999, the lower LR from step 8000 (the CSVs show it there) to 16000
		return schedule.Schedule{Kind: schedule.KindConcat, Segments: []schedule.Schedule{
			{Kind: schedule.KindConstant, Total: 7999, Peak: mplPeak, Warmup: w},
			{Kind: schedule.KindConstant, Total: 8001, Peak: level},
		}}
	}
	switch name {
	case "constant_24000":
		return schedule.Schedule{Kind: schedule.KindConstant, Total: 24000, Peak: mplPeak, Warmup: w}
	case "constant_72000":
		return schedule.Schedule{Kind: schedule.KindConstant, Total: 72000, Peak: mplPeak, Warmup: w}
	case "cosine_24000":
		return schedule.Schedule{Kind: schedule.KindCosine, Total: 24000, Peak: mplPeak, Final: mplFinal, Warmup: w}
	case "cosine_72000":
		return schedule.Schedule{Kind: schedule.KindCosine, Total: 72000, Peak: mplPeak, Final: mplFinal, Warmup: w}
	case "wsd_20000_24000":
		return schedule.Schedule{Kind: schedule.KindWSD, Total: 24000, Peak: mplPeak, Final: mplFinal, Warmup: w, Decay: "exponential", DecaySteps: 4000}
	case "wsdld_20000_24000":
		return schedule.Schedule{Kind: schedule.KindWSD, Total: 24000, Peak: mplPeak, Final: mplFinal, Warmup: w, Decay: "linear", DecaySteps: 4000}
	case "wsdcon_3":
		return wsdcon(3e-5)
	case "wsdcon_9":
		return wsdcon(9e-5)
	case "wsdcon_18":
		return wsdcon(1.8e-4)
	}
	panic("unknown curve " + name)
}

// ReadMPL reads one release CSV (step,lr,loss) of the model size "25" or "100".
func ReadMPL(tb testing.TB, size, name string) (steps, lr, loss []float64) {
	tb.Helper()
	f, err := os.Open(filepath.Join(examples(), "mpl", "csv_"+size, name+".csv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	for _, row := range rows[1:] {
		var v [3]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(row[i], 64); err != nil {
				tb.Fatal(err)
			}
		}
		steps, lr, loss = append(steps, v[0]), append(lr, v[1]), append(loss, v[2])
	}
	return steps, lr, loss
}

// MPLRequest is the release's split with the schedules of MPLSchedule: fit three curves,
// validate on the other six.
func MPLRequest(tb testing.TB, size string, lambda lawcore.LambdaSetting, conv schedule.Convention) lawcore.FitRequest {
	req := lawcore.FitRequest{Lambda: lambda, WarmupConvention: string(conv), HuberDelta: 1e-3}
	add := func(names []string, role string) {
		for _, name := range names {
			steps, _, loss := ReadMPL(tb, size, name)
			s := MPLSchedule(name)
			req.Curves = append(req.Curves, lawcore.Curve{Name: name, Role: role, Steps: steps, Loss: loss, Schedule: &s})
		}
	}
	add(MPLFitNames, lawcore.RoleFit)
	add(MPLTestNames, lawcore.RoleValidate)
	return req
}

// ReleaseLR is a release curve's learning rate at every step, exactly as the release's
// src/lr_schedules.py builds it: a warmup of np.linspace(0, 3e-4, 2160) (so the peak is
// reached at step 2159, not 2160 as in MPLSchedule), then the schedule, for `total` steps.
func ReleaseLR(name string) []float64 {
	const w, peak, end = 2160, 3e-4, 3e-5
	total := map[string]int{"constant_72000": 72000, "cosine_72000": 72000, "wsdcon_3": 16000, "wsdcon_9": 16000, "wsdcon_18": 16000}[name]
	if total == 0 {
		total = 24000
	}
	lr := make([]float64, total)
	for s := range lr {
		x := float64(s)
		switch {
		case s < w:
			lr[s] = peak * x / (w - 1)
		case name == "cosine_24000" || name == "cosine_72000":
			lr[s] = end + 0.5*(peak-end)*(1+math.Cos(math.Pi*(x-w)/float64(total-w)))
		case name == "wsd_20000_24000" && s >= 20000:
			lr[s] = math.Pow(peak, (float64(total)-x)/4000) * math.Pow(end, (x-20000)/4000)
		case name == "wsdld_20000_24000" && s >= 20000:
			lr[s] = peak*(1-(x-20000)/4000) + end*(x-20000)/4000
		case len(name) > 7 && name[:7] == "wsdcon_" && s >= 8000:
			lr[s] = map[string]float64{"wsdcon_3": 3e-5, "wsdcon_9": 9e-5, "wsdcon_18": 1.8e-4}[name]
		default:
			lr[s] = peak
		}
	}
	return lr
}

// ReleaseRequest is the release's split with the release's own learning rates.
func ReleaseRequest(tb testing.TB, size string) lawcore.FitRequest {
	var req lawcore.FitRequest
	add := func(names []string, role string) {
		for _, name := range names {
			steps, _, loss := ReadMPL(tb, size, name)
			req.Curves = append(req.Curves, lawcore.Curve{Name: name, Role: role, Steps: steps, Loss: loss, LR: ReleaseLR(name)})
		}
	}
	add(MPLFitNames, lawcore.RoleFit)
	add(MPLTestNames, lawcore.RoleValidate)
	return req
}

// CooldownRun is one run of the cooldown-length study (testdata/lrsched-124m-lr1e-4, MIT,
// its README has the protocol): its curve (validation loss, steps from 1) and schedule, and
// what it is.
type CooldownRun struct {
	Curve lawcore.Curve
	// Total is the run's length T; Fraction the cooldown's share of it (0 for the stable run).
	Total    int
	Fraction float64
}

// cooldownPeak and cooldownWarmup are the study's peak LR and warmup (from 1% of the peak).
const (
	cooldownPeak   = 1e-4
	cooldownWarmup = 300
)

// CooldownSchedule is the study's schedule of a linear cooldown over the fraction f of a
// run of total steps (f = 0: constant): lr(s) = peak*(0.01 + 0.99*s/300) for s < 300, then
// the peak, then from c = (1-f)*total a linear fall to 0 at total.
func CooldownSchedule(total int, f float64) schedule.Schedule {
	if f == 0 {
		return schedule.Schedule{Kind: schedule.KindConstant, Total: total, Peak: cooldownPeak, Warmup: cooldownWarmup, WarmupFrom: 0.01 * cooldownPeak}
	}
	return schedule.Schedule{Kind: schedule.KindWSD, Total: total, Peak: cooldownPeak, Warmup: cooldownWarmup, WarmupFrom: 0.01 * cooldownPeak,
		Decay: "linear", DecaySteps: int(math.Round(f * float64(total)))}
}

// Cooldown reads the study's stable run and its linear cooldowns, by file name without
// extension ("stable-50k", "wsd-linear-0.2-25k", ...). A cooldown's file holds only its
// cooldown (before it the run is the stable run); step 0 is left out (nothing trained).
func Cooldown(tb testing.TB) map[string]CooldownRun {
	tb.Helper()
	out := map[string]CooldownRun{}
	names := []string{"stable-50k"}
	for _, t := range []string{"25k", "50k"} {
		for _, f := range []string{"0.1", "0.2", "0.4", "0.6", "0.8", "0.9"} {
			names = append(names, "wsd-linear-"+f+"-"+t)
		}
	}
	for _, name := range names {
		run := readStudyRun(tb, name)
		s := CooldownSchedule(run.Config.Iterations, run.Config.Fraction)
		c := lawcore.Curve{Name: name, Schedule: &s}
		c.Steps, c.Loss = run.valLoss()
		out[name] = CooldownRun{Curve: c, Total: run.Config.Iterations, Fraction: run.Config.Fraction}
	}
	return out
}

// Synthetic is three runs of 30,000 steps (cosine to 0.1x, constant, WSD with a 20% 1-sqrt
// decay; peak 3e-4, warmup 500 counted by conv) drawn from the annealing law with truth, a
// loss every `every` steps with multiplicative noise of the given size. Every step (every 1) is
// as dense as a TensorBoard run's log.
func Synthetic(truth annealing.Params, noise float64, every int, conv schedule.Convention) lawcore.FitRequest {
	rng := rand.New(rand.NewPCG(1, 2))
	scheds := []schedule.Schedule{
		{Kind: schedule.KindCosine, Total: 30000, Peak: 3e-4, Warmup: 500, Final: 3e-5},
		{Kind: schedule.KindConstant, Total: 30000, Peak: 3e-4, Warmup: 500},
		{Kind: schedule.KindWSD, Total: 30000, Peak: 3e-4, Warmup: 500, Decay: "1-sqrt", DecayFraction: 0.2},
	}
	req := lawcore.FitRequest{Lambda: lawcore.FixedLambda(truth.Lambda), WarmupConvention: string(conv)}
	for i, s := range scheds {
		lr, _ := s.LR()
		a, _ := schedule.ComputeAreas(schedule.CountedLR(lr, s.Warmup, conv), truth.Lambda)
		c := lawcore.Curve{Name: s.Kind, Schedule: &scheds[i]}
		for st := every; st <= s.Total; st += every {
			c.Steps = append(c.Steps, float64(st))
			c.Loss = append(c.Loss, truth.Loss(a.S1[st], a.S2[st])*(1+noise*rng.NormFloat64()))
		}
		req.Curves = append(req.Curves, c)
	}
	return req
}

// SubsetMatchesBind checks a law's Subsetter on a cosine run of a 25M model and a WSD run of a
// 100M one (20K steps without warmup, 30 points each, one point dropped in three): the model that Subset gives
// after the full model was evaluated at thetas[0], and the model Bind gives on the runs with
// those steps, must predict the same numbers to the last bit, derivatives included, at every
// theta (thetas[0] first, then the others: another lambda walks the schedules again).
func SubsetMatchesBind(t *testing.T, law lawcore.Law, opts lawcore.BindOptions, thetas [][]float64) {
	t.Helper()
	var runs []lawcore.Run
	for i, s := range []schedule.Schedule{
		{Kind: schedule.KindCosine, Total: 20000, Peak: 3e-4},
		{Kind: schedule.KindWSD, Total: 20000, Peak: 3e-4, Decay: "linear", DecayFraction: 0.2},
	} {
		lr, err := s.LR()
		if err != nil {
			t.Fatal(err)
		}
		r := lawcore.Run{Name: s.Kind, LR: lr, Size: []float64{25e6, 100e6}[i]}
		for st := 600; st <= 20000; st += 650 {
			r.Steps = append(r.Steps, st)
		}
		runs = append(runs, r)
	}
	full, err := law.Bind(runs, opts)
	if err != nil {
		t.Fatal(err)
	}
	subsetter, ok := full.(lawcore.Subsetter)
	if !ok {
		t.Fatalf("the %s's model is not a Subsetter", law.Spec().Title)
	}
	d := len(thetas[0])
	full.Eval(thetas[0], 0, make([]float64, full.Points()), make([]float64, full.Points()*d))
	var keep []bool
	kept := make([]lawcore.Run, len(runs))
	for i, r := range runs {
		kept[i] = r
		kept[i].Steps = nil
		for _, st := range r.Steps {
			keep = append(keep, len(keep)%3 != 1)
			if keep[len(keep)-1] {
				kept[i].Steps = append(kept[i].Steps, st)
			}
		}
	}
	sub := subsetter.Subset(keep)
	bound, err := law.Bind(kept, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Points() != bound.Points() {
		t.Fatalf("the subset has %d points, the runs bound %d", sub.Points(), bound.Points())
	}
	n := bound.Points()
	for _, theta := range thetas {
		gotPred, gotJac := make([]float64, n), make([]float64, n*d)
		wantPred, wantJac := make([]float64, n), make([]float64, n*d)
		sub.Eval(theta, 0, gotPred, gotJac)
		bound.Eval(theta, 0, wantPred, wantJac)
		for k := range wantPred {
			if gotPred[k] != wantPred[k] {
				t.Fatalf("theta %v, point %d: the subset predicts %v, the runs bound %v", theta, k, gotPred[k], wantPred[k])
			}
		}
		for k := range wantJac {
			if gotJac[k] != wantJac[k] {
				t.Fatalf("theta %v, derivative %d: the subset gives %v, the runs bound %v", theta, k, gotJac[k], wantJac[k])
			}
		}
	}
}
