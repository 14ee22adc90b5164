package analysis

import "math"

// invPhi is 1/phi, the golden section's ratio.
var invPhi = (math.Sqrt(5) - 1) / 2

// goldenInt minimises f over the whole numbers lo..hi by golden-section search, assuming f is
// unimodal there (callers bracket the minimum on a grid first), and finishes with a scan of
// the last few. It returns the argmin and its value.
func goldenInt(f func(int) float64, lo, hi int) (int, float64) {
	if lo > hi {
		lo, hi = hi, lo
	}
	cache := map[int]float64{}
	eval := func(x int) float64 {
		if v, ok := cache[x]; ok {
			return v
		}
		v := f(x)
		cache[x] = v
		return v
	}
	a, b := lo, hi
	for b-a > 4 {
		c := b - int(math.Round(float64(b-a)*invPhi))
		d := a + int(math.Round(float64(b-a)*invPhi))
		if c >= d {
			c, d = (a+b)/2, (a+b)/2+1
		}
		if eval(c) <= eval(d) {
			b = d
		} else {
			a = c
		}
	}
	best, bestF := a, math.Inf(1)
	for x := a; x <= b; x++ {
		if v := eval(x); v < bestF {
			best, bestF = x, v
		}
	}
	return best, bestF
}

// goldenFloat minimises f over [a, b] by golden-section search until the bracket is narrower
// than tol, assuming f is unimodal there. It returns the argmin and its value.
func goldenFloat(f func(float64) float64, a, b, tol float64) (float64, float64) {
	c := b - (b-a)*invPhi
	d := a + (b-a)*invPhi
	fc, fd := f(c), f(d)
	for i := 0; i < 200 && b-a > tol; i++ {
		if fc <= fd {
			b, d, fd = d, c, fc
			c = b - (b-a)*invPhi
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + (b-a)*invPhi
			fd = f(d)
		}
	}
	if fc <= fd {
		return c, fc
	}
	return d, fd
}

// argmin returns the index of the smallest value (the first, on ties), -1 for an empty slice;
// NaN values never win.
func argmin(v []float64) int {
	best := -1
	for i, x := range v {
		if !math.IsNaN(x) && (best < 0 || x < v[best]) {
			best = i
		}
	}
	return best
}

// bracketInt refines a minimum found on an increasing grid of whole numbers: golden-section
// search between the grid's neighbours of the best point, or out to the domain's bound lo or
// hi when the best point is at an end of the grid.
func bracketInt(f func(int) float64, grid []int, values []float64, lo, hi int) (int, float64) {
	i := argmin(values)
	if i < 0 {
		return 0, math.Inf(1)
	}
	a, b := lo, hi
	if i > 0 {
		a = grid[i-1]
	}
	if i < len(grid)-1 {
		b = grid[i+1]
	}
	x, v := goldenInt(f, a, b)
	if values[i] <= v {
		return grid[i], values[i]
	}
	return x, v
}

// bisectInt finds the first whole number in (lo, hi] where pred becomes true, given that pred
// is false at lo and true at hi.
func bisectInt(pred func(int) bool, lo, hi int) int {
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if pred(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
