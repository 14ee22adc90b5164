package numeric

import (
	"math"
	"testing"
)

// NNLS against problems whose answers are known by hand.
func TestNNLS(t *testing.T) {
	cases := []struct {
		name string
		x    [][]float64 // rows
		y    []float64
		want []float64
	}{
		// y = 2*x1 + 3*x2 exactly: the unconstrained answer is feasible
		{"exact", [][]float64{{1, 0}, {0, 1}, {1, 1}}, []float64{2, 3, 5}, []float64{2, 3}},
		// y = x1 - x2 would need a negative coefficient: the best with b >= 0 drops x2
		// (b1 = <x1,y>/<x1,x1> = (1 + 0 + 1)/2 = 1)
		{"clipped", [][]float64{{1, 0}, {0, 1}, {1, 1}}, []float64{1, -1, 0}, []float64{0.5, 0}},
		// four columns of very different scales
		{"scales", [][]float64{{1, 1e3, 0, 1e-6}, {1, 2e3, 1, 0}, {1, 0, 2, 3e-6}, {1, 5e2, 0, 1e-6}, {0, 0, 1, 0}},
			nil, []float64{0.5, 2e-3, 0.25, 1e5}},
	}
	for _, c := range cases {
		y := c.y
		if y == nil { // from the wanted coefficients
			for _, row := range c.x {
				v := 0.0
				for j := range row {
					v += row[j] * c.want[j]
				}
				y = append(y, v)
			}
		}
		m := len(c.x[0])
		var gram [MaxNNLSColumns][MaxNNLSColumns]float64
		var rhs [MaxNNLSColumns]float64
		yy := 0.0
		for k, row := range c.x {
			for i := 0; i < m; i++ {
				rhs[i] += row[i] * y[k]
				for j := 0; j < m; j++ {
					gram[i][j] += row[i] * row[j]
				}
			}
			yy += y[k] * y[k]
		}
		b := make([]float64, m)
		gain := NNLS(&gram, &rhs, b)
		rss := 0.0
		for k, row := range c.x {
			r := y[k]
			for j := range row {
				r -= row[j] * b[j]
			}
			rss += r * r
		}
		for j := range b {
			if !(math.Abs(b[j]-c.want[j]) <= 1e-9*math.Max(1, math.Abs(c.want[j]))) {
				t.Errorf("%s: b = %v, want %v", c.name, b, c.want)
				break
			}
		}
		if !(math.Abs(yy-gain-rss) <= 1e-9*math.Max(1, yy)) {
			t.Errorf("%s: gain %v, but y'y - rss = %v", c.name, gain, yy-rss)
		}
	}
}

func TestWeightedQuantile(t *testing.T) {
	vs := []Weighted{{3, 1}, {1, 1}, {2, 2}, {10, 0.5}}
	// sorted: 1 (1), 2 (2), 3 (1), 10 (0.5); total 4.5; cumulative 1, 3, 4, 4.5
	for _, c := range []struct{ q, want float64 }{{0.2, 1}, {0.5, 2}, {0.8, 3}, {0.9, 10}, {1, 10}} {
		if got := WeightedQuantile(append([]Weighted(nil), vs...), c.q); got != c.want {
			t.Errorf("q %v: %v, want %v", c.q, got, c.want)
		}
	}
}

// TestJackknifeStdErr checks the jackknife's standard error on replicates worked by hand:
// 1, 2, 3, 6 have mean 3 and squared deviations summing to 14, so sqrt(3/4 * 14).
func TestJackknifeStdErr(t *testing.T) {
	if got, want := JackknifeStdErr([]float64{1, 2, 3, 6}), math.Sqrt(10.5); !(math.Abs(got-want) <= 1e-15) {
		t.Errorf("JackknifeStdErr = %g, want %g", got, want)
	}
}

func TestHuber(t *testing.T) {
	if Huber(0.5e-3, 1e-3) != 0.125e-6 || Huber(-3e-3, 1e-3) != 2.5e-6 || HuberSlope(-3e-3, 1e-3) != -1e-3 {
		t.Error("Huber off its definition")
	}
	if v, d := SafeLog(-1); !(v < math.Log(MinPredicted)) || d != 1/MinPredicted {
		t.Errorf("SafeLog(-1) = %v, %v", v, d)
	}
}

func TestDampedStep(t *testing.T) {
	cases := []struct {
		name   string
		h      [][]float64
		g      []float64
		lambda float64
		want   []float64 // nil: the system is refused
	}{
		// (H + 0) s = -g by hand: [[4 2] [2 3]] s = [-2 -1] gives s = [-1/2, 0]
		{"undamped", [][]float64{{4, 2}, {2, 3}}, []float64{2, 1}, 0, []float64{-0.5, 0}},
		// lambda 1 doubles the diagonal: [[8 2] [2 6]] s = [-2 -1] gives s = [-5/22, -1/11]
		{"damped", [][]float64{{4, 2}, {2, 3}}, []float64{2, 1}, 1, []float64{-5.0 / 22, -1.0 / 11}},
		{"no curvature", [][]float64{{0, 0}, {0, 0}}, []float64{1, 1}, 0, nil},
		{"indefinite", [][]float64{{1, 2}, {2, 1}}, []float64{1, 1}, 0, nil},
		{"not finite", [][]float64{{math.Inf(1), 0}, {0, 1}}, []float64{1, 1}, 0, nil},
	}
	for _, c := range cases {
		step := make([]float64, len(c.g))
		ok := DampedStep(c.h, c.g, c.lambda, step)
		if ok != (c.want != nil) {
			t.Errorf("%s: ok = %v, want %v", c.name, ok, c.want != nil)
			continue
		}
		for i := range c.want {
			if !(math.Abs(step[i]-c.want[i]) <= 1e-12) {
				t.Errorf("%s: step = %v, want %v", c.name, step, c.want)
				break
			}
		}
	}
}

func TestWhitening(t *testing.T) {
	h := [][]float64{{4, 2, 0}, {2, 3, 1}, {0, 1, 2}}
	w := Whitening(h)
	// W W' must be H^-1 (up to the 1e-10 ridge): H (W W') = I.
	for i := range h {
		for j := range h {
			sum := 0.0
			for k := range h {
				ww := 0.0
				for m := range h {
					ww += w[k][m] * w[j][m]
				}
				sum += h[i][k] * ww
			}
			want := 0.0
			if i == j {
				want = 1
			}
			if !(math.Abs(sum-want) <= 1e-8) {
				t.Fatalf("H W W'[%d][%d] = %v, want %v (W = %v)", i, j, sum, want, w)
			}
		}
	}
	// a matrix with no curvature gives the identity
	id := Whitening([][]float64{{0, 0}, {0, 0}})
	if id[0][0] != 1 || id[1][1] != 1 || id[0][1] != 0 {
		t.Errorf("Whitening(0) = %v, want the identity", id)
	}
}
