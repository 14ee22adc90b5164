package lawcore

import (
	"math"
	"slices"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/internal/order"
)

// The start search. Every law is linear in some of its parameters (L0, A and C for the
// annealing law; its Spec marks them): for the others fixed at a cell of the law's start
// grid, the best non-negative values of the linear ones come from a small least-squares
// problem on the relative residuals (which approximate the log residuals the objective
// uses). The grid's profiles, one parameter varying at a time, have their local minima
// kept, so that distinct basins along a ridge (the L0-A-alpha ridge of the annealing law)
// each get a start; the best of them by the exact objective are polished. This replaces the
// paper's 54-point grid, which lands in local minima and non-positive predictions.

// gridPoints bounds the points that rank the grid: they are spread evenly over the fit's
// points, and only the minima are evaluated on all of them.
const gridPoints = 400

// maxStarts is how many starts are polished at most; promisingFactor is how much worse than
// the best start a start may be and still be polished (the profile already holds the best
// linear parameters for each cell, so polishing moves a start a little, never by a factor
// of several in the objective).
const (
	maxStarts       = 4
	promisingFactor = 3
)

// paramFloor keeps a start strictly positive, since the optimiser works on logs.
const paramFloor = 1e-10

// start is a candidate starting point with its objective.
type start struct {
	theta []float64
	f     float64
}

// searchStarts ranks the model's start grid on a thinned copy of obj and returns the best
// starts (at most most), evaluated on obj, best first. It returns nil if the fit was cancelled.
//
// Its loops over the grid's cells and points are functions of their own (rankCells,
// profileMinima, normalEquations): see the package doc on loops.
func searchStarts(obj *Objective, most int) []start {
	grid := obj
	if n := obj.Points(); n > gridPoints {
		grid = obj.thinned((n + gridPoints - 1) / gridPoints)
	}
	g := grid.model.StartGrid(obj.base)
	cells := rankCells(obj, grid, g.Cells)
	if cells == nil {
		return nil
	}
	minima := profileMinima(cells, max(g.Run, 1))
	order.Stable(minima, func(i, j int) bool { return minima[i].rss < minima[j].rss })
	var out []start
	for _, m := range minima[:min(len(minima), 2*most)] {
		obj.Anchor(m.theta, true)
		out = append(out, start{theta: m.theta, f: obj.Value(m.theta, nil)})
	}
	if obj.ctx.Err() != nil {
		obj.cancelled = true
		return nil
	}
	sortStarts(out)
	k := 0
	for k < len(out) && k < most && out[k].f <= promisingFactor*out[0].f {
		k++
	}
	return out[:k]
}

// cell is a start grid's cell: its parameters, the linear ones at their best, and the
// residual sum of squares there.
type cell struct {
	theta []float64
	rss   float64
}

// rankCells gives every cell of the grid the best non-negative values of obj's free linear
// parameters, on grid's points (obj thinned, or obj). It returns nil if the fit was cancelled.
func rankCells(obj, grid *Objective, thetas [][]float64) []cell {
	var linear []int
	for j, p := range obj.spec.Params {
		if p.Linear && obj.Free(j) {
			linear = append(linear, j)
		}
	}
	cells := make([]cell, len(thetas))
	d := len(obj.spec.Params)
	n := grid.Points()
	pred, jac := make([]float64, n), make([]float64, n*d)
	b := make([]float64, len(linear))
	// 1/obs_k, once for every cell
	invObs := make([]float64, n)
	for k := range invObs {
		invObs[k] = math.Exp(-grid.logObs[k])
	}
	for c, theta := range thetas {
		if obj.tick != nil {
			obj.tick() // on long curves a cell takes a while: report, and let a cancel in
		}
		if obj.ctx.Err() != nil {
			obj.cancelled = true
			return nil
		}
		theta = append([]float64(nil), theta...)
		// a held parameter keeps its value whatever the law's grid put there (a grid that varies
		// it regardless would fit the others to a value the answer then calls held)
		for j := range theta {
			if !obj.Free(j) {
				theta[j] = obj.base[j]
			}
		}
		for _, j := range linear {
			theta[j] = 1 // any value: the columns are the derivatives, which do not depend on it
		}
		grid.Anchor(theta, false)
		grid.model.Eval(theta, 0, pred, jac)
		// minimise sum_k (1 - (offset_k + sum_j b_j col_jk)/obs_k)^2, b >= 0, where col_j is
		// d pred / d theta_j and offset the part of pred that no free linear parameter scales
		var gram [numeric.MaxNNLSColumns][numeric.MaxNNLSColumns]float64
		var rhs [numeric.MaxNNLSColumns]float64
		yy := normalEquations(&gram, &rhs, theta, pred, jac, invObs, linear, d)
		for i := range linear {
			for m := i + 1; m < len(linear); m++ {
				gram[i][m] = gram[m][i]
			}
		}
		gain := numeric.NNLS(&gram, &rhs, b)
		for i, j := range linear {
			theta[j] = math.Max(b[i], paramFloor)
		}
		rss := yy - gain
		if math.IsNaN(rss) {
			rss = math.Inf(1)
		}
		cells[c] = cell{theta, rss}
	}
	return cells
}

// profileMinima returns the local minima of each profile (a run of cells), each point once: a
// profile along a held parameter is flat, every cell of it the same point.
func profileMinima(cells []cell, run int) []cell {
	var minima []cell
	for c := range cells {
		lo, hi := c-c%run, c-c%run+run-1
		if (c == lo || cells[c].rss <= cells[c-1].rss) && (c == hi || c == len(cells)-1 || cells[c].rss <= cells[c+1].rss) &&
			!math.IsInf(cells[c].rss, 1) && !slices.ContainsFunc(minima, func(m cell) bool { return slices.Equal(m.theta, cells[c].theta) }) {
			minima = append(minima, cells[c])
		}
	}
	return minima
}

// normalEquations accumulates over the points the lower triangle of the Gram matrix and the
// right-hand side of one cell's least-squares problem (see searchStarts), and returns the sum
// of the squared targets. Not inlined: see the package doc on loops.
//
//go:noinline
func normalEquations(gram *[numeric.MaxNNLSColumns][numeric.MaxNNLSColumns]float64, rhs *[numeric.MaxNNLSColumns]float64,
	theta, pred, jac, invObs []float64, linear []int, d int) (yy float64) {
	var row [numeric.MaxNNLSColumns]float64
	for k := range invObs {
		inv := invObs[k]
		target := pred[k]
		for i, j := range linear {
			row[i] = jac[k*d+j]
			target -= theta[j] * row[i]
		}
		target = 1 - target*inv
		yy += target * target
		for i := range linear {
			row[i] *= inv
			rhs[i] += row[i] * target
			for m := 0; m <= i; m++ {
				gram[i][m] += row[i] * row[m]
			}
		}
	}
	return yy
}

func sortStarts(s []start) {
	order.Stable(s, func(i, j int) bool { return s[i].f < s[j].f })
}
