package numeric

import "math"

// MaxNNLSColumns is the largest number of columns NNLS solves for.
const MaxNNLSColumns = 4

// NNLS minimises ||X b - y||^2 over b >= 0 for X of at most MaxNNLSColumns columns, given its
// normal equations gram = X'X and rhs = X'y (only the first m rows and columns are read, m =
// len(b)), by trying every set of free columns (at most fifteen). It writes b and returns the
// gain y'y - ||X b - y||^2, or 0 with b all zero when no set of columns helps. The columns are
// scaled to a unit diagonal first: the features of a law can differ by many orders of
// magnitude. It allocates nothing, which matters in the inner loop of a start search.
func NNLS(gram *[MaxNNLSColumns][MaxNNLSColumns]float64, rhs *[MaxNNLSColumns]float64, b []float64) float64 {
	m := len(b)
	for i := range b {
		b[i] = 0
	}
	var scale [MaxNNLSColumns]float64
	for i := 0; i < m; i++ {
		if gram[i][i] > 0 && !math.IsInf(gram[i][i], 0) {
			scale[i] = 1 / math.Sqrt(gram[i][i])
		}
	}
	bestGain := 0.0
	var best [MaxNNLSColumns]float64
	for set := 1; set < 1<<m; set++ {
		var idx [MaxNNLSColumns]int
		k := 0
		usable := true
		for i := 0; i < m; i++ {
			if set&(1<<i) != 0 {
				usable = usable && scale[i] > 0
				idx[k] = i
				k++
			}
		}
		if !usable {
			continue
		}
		var a [MaxNNLSColumns][MaxNNLSColumns + 1]float64
		for r := 0; r < k; r++ {
			for c := 0; c < k; c++ {
				a[r][c] = gram[idx[r]][idx[c]] * scale[idx[r]] * scale[idx[c]]
			}
			a[r][k] = rhs[idx[r]] * scale[idx[r]]
		}
		x, ok := solveSmall(&a, k)
		if !ok {
			continue
		}
		var cand [MaxNNLSColumns]float64
		gain := 0.0
		for r := 0; r < k && ok; r++ {
			v := x[r] * scale[idx[r]]
			ok = v >= 0
			cand[idx[r]] = v
			// at the least-squares solution of a subset, b'X'X b = b'X'y, so the gain is b'X'y
			gain += v * rhs[idx[r]]
		}
		if ok && gain > bestGain {
			best, bestGain = cand, gain
		}
	}
	copy(b, best[:m])
	return bestGain
}

// solveSmall solves the k x k system in the first k columns of a (right-hand side in column
// k) by Gaussian elimination with partial pivoting; ok is false when it is near singular.
func solveSmall(a *[MaxNNLSColumns][MaxNNLSColumns + 1]float64, k int) (x [MaxNNLSColumns]float64, ok bool) {
	for col := 0; col < k; col++ {
		piv := col
		for r := col + 1; r < k; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if !(math.Abs(a[piv][col]) > 1e-12) {
			return x, false
		}
		a[col], a[piv] = a[piv], a[col]
		for r := col + 1; r < k; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c <= k; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	for r := k - 1; r >= 0; r-- {
		s := a[r][k]
		for c := r + 1; c < k; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}
