package lawcore

import (
	"fmt"
	"math"
)

// ModelMultiPower names the Multi-Power Law in results (and, if wired in, in requests).
const ModelMultiPower = "multi-power"

// MultiPowerTolerance is the tolerance of the grouped loss-drop sum in predictions and in
// the metrics of a fit: the error of LD(t) is at most this times B times the total LR change
// before t (see multipower_ld.go), 2e-6 of loss on the release's curves; the errors measured
// are four orders of magnitude smaller still.
const MultiPowerTolerance = 1e-5

// MultiPowerParams are the seven parameters of the Multi-Power Law (Luo et al., ICLR 2025,
// arXiv 2503.12811):
//
//	L(t)  = L0 + A*(S1(t) + S_W)^(-alpha) - LD(t)
//	LD(t) = B * sum_{k=1..t} (eta_{k-1} - eta_k) * G(eta_k^(-gamma) * S_k(t))
//	G(x)  = 1 - (C*x + 1)^(-beta),   S_k(t) = sum_{tau=k..t} eta_tau
//
// As in the authors' released code, the steps count from 0 and the warmup is part of the
// schedule: S1(t) + S_W is the sum of every learning rate from step 0 to t (S_W the warmup's
// area, S1 the rest), and the loss-drop sum runs over every step from 1, so the rising
// warmup enters it with negative terms (a loss increase that the fit absorbs in L0 and B).
//
// Under the warmup convention "peak" (FitRequest.WarmupConvention), the warmup's steps count
// at the peak LR instead, which removes them from the loss drop; on the release's curves
// that predicts worse (held-out PredE 0.0020 against 0.0014), and it is not the default.
type MultiPowerParams struct {
	// L0 is the loss the law tends to with unlimited training.
	L0 float64 `json:"L0"`
	// A and Alpha are the power law in the LR area: A*(S1+S_W)^(-alpha).
	A     float64 `json:"A"`
	Alpha float64 `json:"alpha"`
	// B scales the loss drop; C, Beta and Gamma shape G and its dependence on the LR.
	B     float64 `json:"B"`
	C     float64 `json:"C"`
	Beta  float64 `json:"beta"`
	Gamma float64 `json:"gamma"`
}

// Validate checks that every parameter is a finite number, zero or more.
func (p MultiPowerParams) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"L0", p.L0}, {"A", p.A}, {"alpha", p.Alpha}, {"B", p.B}, {"C", p.C}, {"beta", p.Beta}, {"gamma", p.Gamma}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return Errorf("params", f.name, "must be a finite number, zero or more, got %v", f.v)
		}
	}
	return nil
}

// Loss evaluates the law for the learning rates lr (one per step from 0, as run) at the
// given steps (each in 1..len(lr)-1). The loss-drop sum is grouped to MultiPowerTolerance.
// A step where nothing has been trained yet (every LR up to it zero) is an error.
func (p MultiPowerParams) Loss(lr []float64, steps []int) ([]float64, error) {
	pr, err := PredictMultiPower(p, lr, steps)
	if err != nil {
		return nil, err
	}
	return pr.Loss, nil
}

// mpowCheckLR checks a learning-rate list: not empty, every value finite and zero or more.
func mpowCheckLR(lr []float64) error {
	if len(lr) == 0 {
		return Errorf("", "lr", "no learning rates")
	}
	for i, v := range lr {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return Errorf("", fmt.Sprintf("lr[%d]", i), "a learning rate must be a finite number, zero or more, got %v", v)
		}
	}
	return nil
}

// mpowS1Term is A*(S1+S_W)^(-alpha) at the area sp > 0 (zero when A is, even where the
// power overflows).
func mpowS1Term(p MultiPowerParams, sp float64) float64 {
	if p.A == 0 {
		return 0
	}
	return p.A * math.Exp(-p.Alpha*math.Log(sp))
}
