package analysis

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Compute to fit (the paper's Sec. 6.2, Table 3): the training steps needed to collect n
// final losses at totals K, 2K, ..., nK for a Chinchilla fit, against one run for this law.
//
//   - Chinchilla with cosine: every total is its own run, sum_{i=1..n} i*K = n(n+1)/2 * K
//     steps (5050K for n = 100: the 100% of the table).
//   - Chinchilla with WSD, annealing ratio r: one stable run to (1-r)*n*K, and from it a
//     decay of r*i*K steps for each total i*K: (1-r)*n*K + r*n(n+1)/2*K steps, which is
//     (100 + 4950r)K for n = 100 (21.6% at r = 0.2, 11.8% at r = 0.1).
//   - This law: one run, of LawSteps steps (the paper: a 50K-step cosine, under 1%), whose
//     every logged step is a fitting point.

// ComputeOptions asks for the compute table. It needs no parameters.
type ComputeOptions struct {
	// N is the number of fitting points (totals) a Chinchilla fit collects (default 100).
	N int `json:"n"`
	// Interval is K, the step between totals (default 1000).
	Interval int `json:"interval"`
	// Ratios are the WSD annealing ratios tabulated (default 0.2, 0.1).
	Ratios []float64 `json:"ratios"`
	// LawSteps is the length of the one run this law needs (default n*K/2).
	LawSteps int `json:"lawSteps"`
}

// DefaultComputeOptions is the paper's Table 3 setting.
func DefaultComputeOptions() ComputeOptions {
	return ComputeOptions{N: 100, Interval: 1000, Ratios: []float64{0.2, 0.1}}
}

// ComputeRow is one line of the compute table.
type ComputeRow struct {
	Law      string `json:"law"`
	Schedule string `json:"schedule"`
	// Steps is the number of training steps; Percent is it as a percentage of Chinchilla
	// with cosine.
	Steps   float64 `json:"steps"`
	Percent float64 `json:"percent"`
	// OtherSchedules says whether the fit predicts schedules other than the one run.
	OtherSchedules bool `json:"otherSchedules"`
}

// ComputeResult is the compute table.
type ComputeResult struct {
	Rows    []ComputeRow   `json:"rows"`
	Options ComputeOptions `json:"options"`
	Table   Table          `json:"table"`
}

// ChinchillaCosineSteps is the steps n cosine runs of K, 2K, ..., nK steps take.
func ChinchillaCosineSteps(n, k int) float64 {
	return float64(n) * float64(n+1) / 2 * float64(k)
}

// ChinchillaWSDSteps is the steps a WSD stable run to (1-r)nK and n decays of r*iK take.
func ChinchillaWSDSteps(n, k int, r float64) float64 {
	return (1-r)*float64(n)*float64(k) + r*ChinchillaCosineSteps(n, k)
}

// ComputeToFit tabulates the steps each way of fitting needs.
func ComputeToFit(o ComputeOptions) (*ComputeResult, error) {
	if o.N < 1 || o.N > 1_000_000 {
		return nil, input.Errorf("", "n", "must be from 1 to 1000000 points, got %d", o.N)
	}
	if o.Interval < 1 || o.Interval > schedule.MaxSteps {
		return nil, input.Errorf("", "interval", "must be a positive number of steps, got %d", o.Interval)
	}
	if len(o.Ratios) > 0 {
		if err := checkList("ratios", o.Ratios, 0, 1, 20); err != nil {
			return nil, err
		}
	}
	if o.LawSteps == 0 {
		o.LawSteps = max(1, o.N*o.Interval/2)
	}
	if o.LawSteps < 1 {
		return nil, input.Errorf("", "lawSteps", "must be a positive number of steps, got %d", o.LawSteps)
	}
	base := ChinchillaCosineSteps(o.N, o.Interval)
	res := &ComputeResult{Options: o, Table: Table{Columns: []string{"law", "schedule", "steps", "% of Chinchilla with cosine", "predicts other schedules"}}}
	add := func(law, sched string, steps float64, other bool) {
		r := ComputeRow{Law: law, Schedule: sched, Steps: steps, Percent: 100 * steps / base, OtherSchedules: other}
		res.Rows = append(res.Rows, r)
		yes := map[bool]string{true: "yes", false: "no"}[other]
		res.Table.addRow(law, sched, steps, r.Percent, yes)
	}
	add("Chinchilla", "cosine", base, false)
	for _, r := range o.Ratios {
		add("Chinchilla", fmt.Sprintf("WSD (%g%% annealing)", 100*r), ChinchillaWSDSteps(o.N, o.Interval, r), false)
	}
	add("this law", fmt.Sprintf("one run of %d steps", o.LawSteps), float64(o.LawSteps), true)
	return res, nil
}
