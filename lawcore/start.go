package lawcore

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// The start strategy. For a fixed alpha (and lambda) the law is linear in L0, A and C, so the
// best L0, A, C >= 0 for each alpha on a grid come from a small non-negative least-squares
// problem on the relative residuals (which approximate the log residuals the objective uses).
// The profile of the objective over alpha is one-dimensional, so its local minima are all
// found; each becomes a start that L-BFGS then polishes on the exact objective. This replaces
// the paper's 54-point grid, which lands in local minima and non-positive predictions.

// alphaGrid are the alphas of the profile: geometric from 0.01 to 4.
var alphaGrid = func() []float64 {
	const n = 64
	g := make([]float64, n)
	for i := range g {
		g[i] = 0.01 * math.Pow(400, float64(i)/float64(n-1))
	}
	return g
}()

// lambdaGrid are the lambdas tried for starts when lambda is fitted.
var lambdaGrid = []float64{0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995}

// start is a candidate starting point with its objective.
type start struct {
	p Params
	f float64
}

// paramFloor keeps a start strictly positive, since the optimiser works on logs.
const paramFloor = 1e-10

// profileStarts returns the local minima of the objective's profile over alpha, for the lambda
// the objective's areas currently hold, best first.
func (o *objective) profileStarts() []start {
	profile := make([]start, len(alphaGrid))
	for g, alpha := range alphaGrid {
		// normal equations of min sum_k (1 - (L0 + A*u_k - C*v_k)/obs_k)^2, u = S1^-alpha, v = S2
		var gram [3][3]float64
		var rhs [3]float64
		for k, logObs := range o.logObs {
			inv := math.Exp(-logObs)
			row := [3]float64{inv, math.Exp(-alpha*o.logS1[k]) * inv, -o.s2[k] * inv}
			for i := 0; i < 3; i++ {
				rhs[i] += row[i]
				for j := 0; j <= i; j++ {
					gram[i][j] += row[i] * row[j]
				}
			}
		}
		for i := 0; i < 3; i++ {
			for j := i + 1; j < 3; j++ {
				gram[i][j] = gram[j][i]
			}
		}
		b := nonNegativeLeastSquares3(gram, rhs)
		p := Params{L0: math.Max(b[0], paramFloor), A: math.Max(b[1], paramFloor), Alpha: alpha,
			C: math.Max(b[2], paramFloor), Lambda: o.lambda}
		profile[g] = start{p: p, f: o.value(p, nil)}
	}
	var minima []start
	for g, s := range profile {
		if (g == 0 || s.f <= profile[g-1].f) && (g == len(profile)-1 || s.f <= profile[g+1].f) {
			minima = append(minima, s)
		}
	}
	sortStarts(minima)
	return minima
}

// nonNegativeLeastSquares3 minimises ||X b - y||^2 over b >= 0 for a three-column X, given
// its normal equations gram = X'X and rhs = X'y, by trying every set of free columns (there
// are only seven). The systems are at most 3x3, solved with gonum.
func nonNegativeLeastSquares3(gram [3][3]float64, rhs [3]float64) [3]float64 {
	var best [3]float64
	bestGain := 0.0 // ||Xb - y||^2 = y'y - (2 b'X'y - b'X'X b): maximise the bracket
	for set := 1; set < 8; set++ {
		var cols []int
		for c := 0; c < 3; c++ {
			if set&(1<<c) != 0 {
				cols = append(cols, c)
			}
		}
		m := len(cols)
		g := mat.NewSymDense(m, nil)
		h := mat.NewVecDense(m, nil)
		for i, ci := range cols {
			h.SetVec(i, rhs[ci])
			for j := i; j < m; j++ {
				g.SetSym(i, j, gram[ci][cols[j]])
			}
		}
		var chol mat.Cholesky
		if ok := chol.Factorize(g); !ok {
			continue // singular: a column is zero, or columns are collinear
		}
		var sol mat.VecDense
		if err := chol.SolveVecTo(&sol, h); err != nil {
			continue
		}
		var b [3]float64
		feasible := true
		for i, ci := range cols {
			b[ci] = sol.AtVec(i)
			feasible = feasible && b[ci] >= 0 && !math.IsNaN(b[ci])
		}
		if !feasible {
			continue
		}
		// at the unconstrained optimum of a subset, b'X'X b = b'X'y, so the gain is b'X'y
		gain := 0.0
		for i := 0; i < 3; i++ {
			gain += b[i] * rhs[i]
		}
		if gain > bestGain {
			best, bestGain = b, gain
		}
	}
	return best
}
