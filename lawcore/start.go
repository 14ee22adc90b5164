package lawcore

import "math"

// The start strategy. For a fixed alpha (and lambda) the law is linear in L0, A and C, so the
// best L0, A, C >= 0 for each alpha on a grid come from a small non-negative least-squares
// problem on the relative residuals (which approximate the log residuals the objective uses).
// The profile of the objective over alpha is one-dimensional, so its local minima are all
// found; each becomes a start that L-BFGS then polishes on the exact objective. This replaces
// the paper's 54-point grid, which lands in local minima and non-positive predictions.

// alphaGrid are the alphas of the profile: geometric from 0.01 to 4.
var alphaGrid = func() []float64 {
	const n = 48
	g := make([]float64, n)
	for i := range g {
		g[i] = 0.01 * math.Pow(400, float64(i)/float64(n-1))
	}
	return g
}()

// lambdaGrid are the lambdas tried for starts when lambda is fitted.
var lambdaGrid = []float64{0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995}

// profilePoints bounds the points the search for starts uses: Fit thins longer fits to about
// this many (objective.thinned) and polishes only the best start on every point.
const profilePoints = 50_000

// start is a candidate starting point with its objective.
type start struct {
	p Params
	f float64
}

// paramFloor keeps a start strictly positive, since the optimiser works on logs.
const paramFloor = 1e-10

// profileStarts returns the local minima of the objective's profile over alpha, for the lambda
// the objective's areas currently hold, best first. The profile is ranked by the least-squares
// residual that the normal equations give for free; only its minima are evaluated exactly.
func (o *objective) profileStarts() []start {
	type point struct {
		p   Params
		rss float64
	}
	profile := make([]point, len(alphaGrid))
	yy := float64(len(o.invObs)) // the target is 1 at every point
	for g, alpha := range alphaGrid {
		if o.tick != nil {
			o.tick() // on long curves each alpha takes a while: report, and let a cancel in
		}
		if o.ctx.Err() != nil {
			o.cancelled = true
			return nil
		}
		// normal equations of min sum_k (1 - (L0 + A*u_k - C*v_k)/obs_k)^2, u = S1^-alpha, v = S2
		var gram [3][3]float64
		var rhs [3]float64
		for k, inv := range o.invObs {
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
		b, gain := nonNegativeLeastSquares3(gram, rhs)
		profile[g] = point{
			p: Params{L0: math.Max(b[0], paramFloor), A: math.Max(b[1], paramFloor), Alpha: alpha,
				C: math.Max(b[2], paramFloor), Lambda: o.lambda},
			rss: yy - gain,
		}
	}
	var minima []start
	for g, pt := range profile {
		if (g == 0 || pt.rss <= profile[g-1].rss) && (g == len(profile)-1 || pt.rss <= profile[g+1].rss) {
			minima = append(minima, start{p: pt.p, f: o.value(pt.p, nil)})
		}
	}
	sortStarts(minima)
	return minima
}

// nonNegativeLeastSquares3 minimises ||X b - y||^2 over b >= 0 for a three-column X, given
// its normal equations gram = X'X and rhs = X'y, by trying every set of free columns (there
// are only seven). The systems are at most 3x3: Cramer's rule solves them without allocating,
// which matters here, in the inner loop of the start search.
// It also returns the gain, y'y - ||X b - y||^2.
func nonNegativeLeastSquares3(gram [3][3]float64, rhs [3]float64) ([3]float64, float64) {
	var best [3]float64
	bestGain := 0.0 // ||Xb - y||^2 = y'y - (2 b'X'y - b'X'X b): maximise the bracket
	for set := 1; set < 8; set++ {
		b, ok := solveSubset(gram, rhs, set)
		if !ok {
			continue
		}
		// at the unconstrained optimum of a subset, b'X'X b = b'X'y, so the gain is b'X'y
		gain := b[0]*rhs[0] + b[1]*rhs[1] + b[2]*rhs[2]
		if gain > bestGain {
			best, bestGain = b, gain
		}
	}
	return best, bestGain
}

// solveSubset solves the normal equations restricted to the columns in the bit set (the
// others held at zero); ok is false when that system is singular or its solution negative.
func solveSubset(gram [3][3]float64, rhs [3]float64, set int) (b [3]float64, ok bool) {
	var m [3][3]float64
	var v [3]float64
	for i := 0; i < 3; i++ {
		if set&(1<<i) == 0 {
			m[i][i] = 1 // b_i = 0
			continue
		}
		v[i] = rhs[i]
		for j := 0; j < 3; j++ {
			if set&(1<<j) != 0 {
				m[i][j] = gram[i][j]
			}
		}
	}
	det := det3(m)
	if scale := math.Abs(m[0][0] * m[1][1] * m[2][2]); !(math.Abs(det) > 1e-12*scale) {
		return b, false
	}
	for c := 0; c < 3; c++ {
		mc := m
		for r := 0; r < 3; r++ {
			mc[r][c] = v[r]
		}
		b[c] = det3(mc) / det
		if !(b[c] >= 0) {
			return b, false
		}
	}
	return b, true
}

func det3(m [3][3]float64) float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}
