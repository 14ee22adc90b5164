// Package testcurves reads the real curves the tests of lawcore and its laws share: the
// paper's Fig. 2 and the MultiPowerLaw release's 25M and 100M curves (site/examples), with
// their schedules and the release's split. Only tests import it.
package testcurves

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
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
	for _, kind := range []string{lawcore.KindCosine, lawcore.KindConstant} {
		curves = append(curves, lawcore.Curve{Name: kind, Role: lawcore.RoleFit, Steps: f.Steps, Loss: f.Loss[kind],
			Schedule: &lawcore.Schedule{Kind: kind, Total: f.TotalSteps, Peak: f.EtaMax, Final: f.EtaMin, Warmup: f.Warmup}})
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
func MPLSchedule(name string) lawcore.Schedule {
	w := MPLWarmup
	wsdcon := func(level float64) lawcore.Schedule {
		// 3e-4 to step 7999, the lower LR from step 8000 (the CSVs show it there) to 16000
		return lawcore.Schedule{Kind: lawcore.KindConcat, Segments: []lawcore.Schedule{
			{Kind: lawcore.KindConstant, Total: 7999, Peak: mplPeak, Warmup: w},
			{Kind: lawcore.KindConstant, Total: 8001, Peak: level},
		}}
	}
	switch name {
	case "constant_24000":
		return lawcore.Schedule{Kind: lawcore.KindConstant, Total: 24000, Peak: mplPeak, Warmup: w}
	case "constant_72000":
		return lawcore.Schedule{Kind: lawcore.KindConstant, Total: 72000, Peak: mplPeak, Warmup: w}
	case "cosine_24000":
		return lawcore.Schedule{Kind: lawcore.KindCosine, Total: 24000, Peak: mplPeak, Final: mplFinal, Warmup: w}
	case "cosine_72000":
		return lawcore.Schedule{Kind: lawcore.KindCosine, Total: 72000, Peak: mplPeak, Final: mplFinal, Warmup: w}
	case "wsd_20000_24000":
		return lawcore.Schedule{Kind: lawcore.KindWSD, Total: 24000, Peak: mplPeak, Final: mplFinal, Warmup: w, Decay: "exponential", DecaySteps: 4000}
	case "wsdld_20000_24000":
		return lawcore.Schedule{Kind: lawcore.KindWSD, Total: 24000, Peak: mplPeak, Final: mplFinal, Warmup: w, Decay: "linear", DecaySteps: 4000}
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
func MPLRequest(tb testing.TB, size string, lambda lawcore.LambdaSetting, conv lawcore.Convention) lawcore.FitRequest {
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
