package lawcore

import (
	"math"
	"sort"
)

// Starting points of a Multi-Power fit. For fixed alpha, C, beta and gamma the law is linear
// in L0, A and B: L = L0 + A*u - B*v with u = (S1+S_W)^(-alpha) and v = LD/B. So a grid over
// the shape of the loss drop (C, beta, gamma) costs one grouped loss-drop pass per grid point,
// and for each the best alpha on a grid and the best L0, A, B >= 0 come from the same small
// non-negative least-squares problem on relative residuals as the annealing law's starts
// (start.go). The best grid points by that residual, ranked again on the objective, become
// the starts that multipower_polish.go polishes.
//
// C is gridded through c = C * eta^(1-gamma) at the peak LR eta of the fit curves, the
// growth of C*x per step of training at the peak: G reaches a given level after about
// 1/c steps, which is what the data can tell, whatever gamma is.

// Grid of the loss drop's shape.
var (
	mpowGammaGrid = []float64{0.3, 0.55, 0.8}
	mpowBetaGrid  = []float64{0.3, 0.6, 1}
	mpowStepGrid  = []float64{1e-3, 1e-2, 1e-1, 1}
)

// mpowGridPoints is how many points, at most, rank the grid.
const mpowGridPoints = 160

// mpowStartTolerance is the grouping tolerance of the grid, one grouping for all its points
// (it only ranks them; the errors measured at this bound are under 1e-5 of the loss scale).
const mpowStartTolerance = 1e-2

// mpowStart is a candidate starting point, with its objective once evaluated.
type mpowStart struct {
	x   []float64
	f   float64
	rss float64
}

// mpowMaxStarts is how many grid points are polished at most (those within promisingFactor
// of the best, as for the annealing law).
const mpowMaxStarts = 3

// starts ranks the grid and returns the best few starts, evaluated on the objective, best
// first.
func (o *mpowObjective) starts() []mpowStart {
	peak := 0.0
	for _, s := range o.series {
		for _, e := range s.eta {
			peak = math.Max(peak, e)
		}
	}
	// the grid ranks shapes on at most mpowGridPoints of the points, evenly spread
	var pts []mpowPoint
	var steps []mpowStep
	stride := (len(o.points) + mpowGridPoints - 1) / mpowGridPoints
	for i := 0; i < len(o.points); i += stride {
		pts, steps = append(pts, o.points[i]), append(steps, o.steps[i])
	}
	n := len(pts)
	// u = (S1+S_W)^(-alpha) at every point, for every alpha of the grid
	u := make([][]float64, len(alphaGrid))
	for g, alpha := range alphaGrid {
		u[g] = make([]float64, n)
		for i := range pts {
			u[g][i] = math.Exp(-alpha * pts[i].lnP)
		}
	}
	inv := make([]float64, n)
	for i := range pts {
		inv[i] = math.Exp(-pts[i].logObs)
	}
	gridShape := newMpowGridShape(mpowBetaGrid, mpowGammaGrid, mpowStartTolerance)
	frozen := newMpowFrozen(o.series, steps, gridShape)
	drops := make([]mpowDrop, n)
	v := make([]float64, n)
	var cands []mpowStart
	for _, gamma := range mpowGammaGrid {
		for _, beta := range mpowBetaGrid {
			for _, step := range mpowStepGrid {
				c := step * math.Pow(peak, gamma-1)
				frozen.eval(newMpowShape(c, beta, gamma, 0), drops, false)
				for i := range drops {
					v[i] = drops[i].ld
				}
				if o.ctx.Err() != nil {
					o.cancelled = true
					return nil
				}
				if o.tick != nil {
					o.tick()
				}
				cands = append(cands, mpowProfile(u, v, inv, c, beta, gamma))
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].rss < cands[j].rss })
	// the grid's grouping holds for every point of the grid: rank the best on the objective
	o.frozen = &mpowFrozen{}
	o.frozen.group(o.series, o.steps, gridShape)
	var out []mpowStart
	for _, s := range cands[:min(len(cands), 2*mpowMaxStarts)] {
		if math.IsInf(s.rss, 1) {
			break
		}
		s.f = o.value(s.x, nil)
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].f < out[j].f })
	n = 0
	for n < len(out) && n < mpowMaxStarts && out[n].f <= promisingFactor*out[0].f {
		n++
	}
	return out[:n]
}

// mpowProfile returns the best alpha of the grid, with the best L0, A, B >= 0 for it, given
// the loss drop per unit B (v) at every point: the least squares of the relative residuals.
func mpowProfile(u [][]float64, v, inv []float64, c, beta, gamma float64) mpowStart {
	best := mpowStart{rss: math.Inf(1)}
	yy := float64(len(inv))
	for g, alpha := range alphaGrid {
		var gram [3][3]float64
		var rhs [3]float64
		for i, w := range inv {
			row := [3]float64{w, u[g][i] * w, -v[i] * w}
			for a := 0; a < 3; a++ {
				rhs[a] += row[a]
				for b := 0; b <= a; b++ {
					gram[a][b] += row[a] * row[b]
				}
			}
		}
		for a := 0; a < 3; a++ {
			for b := a + 1; b < 3; b++ {
				gram[a][b] = gram[b][a]
			}
		}
		sol, gain := nonNegativeLeastSquares3(gram, rhs)
		if rss := yy - gain; rss < best.rss {
			p := MultiPowerParams{L0: math.Max(sol[0], paramFloor), A: math.Max(sol[1], paramFloor), Alpha: alpha,
				B: math.Max(sol[2], paramFloor), C: c, Beta: beta, Gamma: gamma}
			best = mpowStart{x: mpowToX(p), rss: rss}
		}
	}
	return best
}
