package analysis

import (
	"math"

	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// FinalLossGradient returns the annealing law's loss at the last step of lr (as run, its
// first warmup steps counted by conv) and writes into grad (at least len(lr) long) its
// derivative in each step's learning rate.
//
// With n = len(lr), S1 = sum_j eta_j, so dS1/deta_j = 1. Unrolling the momentum,
// S2 = sum_{k=1..n-1} (eta_{k-1} - eta_k) * w_k with w_k = (1 - lambda^(n-k)) / (1 - lambda),
// the weight of a drop at step k in every later m_i. Collecting the terms of each eta_j:
//
//	dS2/deta_0 = w_1 = sum_{i=0..n-2} lambda^i
//	dS2/deta_j = w_{j+1} - w_j = -lambda^(n-1-j)     (1 <= j <= n-1)
//
// so dL/deta_j = -alpha*A*S1^(-alpha-1) - C*dS2/deta_j. Under [lawcore.WarmupPeak] the steps
// before warmup count at lr[warmup]: their derivatives are added to that step's and theirs
// are 0.
func FinalLossGradient(p annealing.Params, lr []float64, warmup int, conv schedule.Convention, grad []float64) float64 {
	n := len(lr)
	s1, s2 := schedule.FinalAreas(schedule.CountedLR(lr, warmup, conv), p.Lambda)
	d1 := -p.Alpha * p.A * math.Pow(s1, -p.Alpha-1)
	pow := 1.0 // lambda^(n-1-j)
	sum := 0.0 // sum_{i=0..n-2-j} lambda^i, which at j = 0 is dS2/deta_0
	for j := n - 1; j >= 1; j-- {
		grad[j] = d1 + p.C*pow
		sum += pow
		pow *= p.Lambda
	}
	if n > 0 {
		// sum now holds sum_{i=0..n-2} lambda^i: the weight w_1 of eta_0
		grad[0] = d1 - p.C*sum
	}
	if conv == schedule.WarmupPeak && warmup > 0 && warmup < n {
		acc := 0.0
		for j := 0; j <= warmup; j++ {
			acc += grad[j]
			grad[j] = 0
		}
		grad[warmup] = acc
	}
	return p.Loss(s1, s2)
}
