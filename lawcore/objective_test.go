package lawcore

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// stepPower is a law for the engine's own tests, L(s) = L0 + A*s^(-alpha) in the step s: it
// needs no schedule's areas, which the laws' packages (above this one) compute.
type stepPower struct{ steps []float64 }

var stepPowerSpec = &Spec{Name: "step-power", Title: "power law in steps", Params: []Param{
	{Name: "L0", Domain: Positive, Default: 2, Linear: true},
	{Name: "A", Domain: Positive, Default: 1, Linear: true},
	{Name: "alpha", Domain: Positive, Default: 0.5, Grid: []float64{0.25, 0.5, 1}},
}}

func (m *stepPower) Points() int { return len(m.steps) }

func (m *stepPower) Eval(theta []float64, from int, pred, jac []float64) {
	for i := range pred {
		u := math.Pow(m.steps[from+i], -theta[2])
		pred[i] = theta[0] + theta[1]*u
		if jac != nil {
			jac[3*i], jac[3*i+1], jac[3*i+2] = 1, u, -theta[1]*u*math.Log(m.steps[from+i])
		}
	}
}

func (m *stepPower) Thin(every int) Model {
	t := &stepPower{}
	for k := 0; k < len(m.steps); k += every {
		t.steps = append(t.steps, m.steps[k])
	}
	return t
}

func (m *stepPower) StartGrid(base []float64) StartGrid {
	return ProductGrid(base, Axis{Param: 2, Values: stepPowerSpec.Params[2].Grid})
}

// A thinned objective holds every `every`-th point and its value tracks the full one's.
func TestThinnedObjectiveKeepsEveryNthPoint(t *testing.T) {
	// one run logged at every one of 10,000 steps
	model := &stepPower{}
	var logObs []float64
	for st := 1; st <= 10_001; st++ {
		model.steps = append(model.steps, float64(st))
		logObs = append(logObs, math.Log(3+1/math.Sqrt(float64(st))))
	}
	full := newObjective(context.Background(), model, stepPowerSpec, logObs, DefaultHuberDelta, []int{0, 1, 2}, stepPowerSpec.Defaults())
	thin := full.thinned(10)
	vec := []float64{2.4, 0.5, 0.45}
	fullPred, thinPred := make([]float64, full.Points()), make([]float64, thin.Points())
	full.model.Eval(vec, 0, fullPred, nil)
	thin.model.Eval(vec, 0, thinPred, nil)
	if thin.Points() != 1001 || thin.logObs[1] != full.logObs[10] || thinPred[1000] != fullPred[10000] || thinPred[7] != fullPred[70] {
		t.Fatalf("%d points; point 1 %v (want %v)", thin.Points(), thin.logObs[1], full.logObs[10])
	}
	perPoint := func(o *Objective) float64 { return o.Value(vec, nil) / float64(o.Points()) }
	if a, b := perPoint(full), perPoint(thin); !(math.Abs(a-b) <= 0.01*a) {
		t.Errorf("mean loss per point: full %v, thinned %v", a, b)
	}
}

// gaussNewtonByPoint is the objective's sums as it once took them, point by point in one
// loop through numeric.SafeLog and math.Min: the reference that its loops keep to the last bit.
func gaussNewtonByPoint(logObs, pred, jac []float64, free []int, d int, delta float64) (f float64, g, tri []float64) {
	g, tri = make([]float64, len(free)), make([]float64, len(free)*(len(free)+1)/2)
	for i, p := range pred {
		logPred, dlog := numeric.SafeLog(p)
		r := logObs[i] - logPred
		f += numeric.Huber(r, delta)
		gi := -numeric.HuberSlope(r, delta) * dlog
		row := jac[i*d : i*d+d]
		for ia, a := range free {
			g[ia] += gi * row[a]
		}
		w := dlog * dlog * math.Min(1, delta/math.Abs(r))
		k := 0
		for ia, a := range free {
			wa := w * row[a]
			for _, b := range free[:ia+1] {
				tri[k] += wa * row[b]
				k++
			}
		}
	}
	return f, g, tri
}

// The objective's loops (huberWeights, then gaussNewtonSums or, for the first four parameters,
// gaussNewtonFirstFour) give the sums of the loop by point to the last bit: on residuals inside
// and outside delta, with free parameters in any order, and with predictions below
// MinPredicted (apart: their weights swamp the others').
func TestGaussNewtonLoopsAgree(t *testing.T) {
	const n, d = 3000, 6
	for _, below := range []bool{false, true} {
		logObs, pred, jac := make([]float64, n), make([]float64, n), make([]float64, n*d)
		for i := range n {
			x := float64(i)
			pred[i] = 2 + math.Sin(x*0.37)
			if below && i%97 == 0 {
				pred[i] = -1e-3 * x // SafeLog's tangent line
			}
			logObs[i] = math.Log(2+math.Sin(x*0.37)) + 0.01*math.Sin(x*1.91)*math.Pow(10, float64(i%5)-4)
			for j := range d {
				jac[i*d+j] = math.Cos(x*float64(j+1)*0.13) * math.Pow(3, float64(j))
			}
		}
		logPred, gis, ws := make([]float64, n), make([]float64, n), make([]float64, n)
		numeric.MathLogTo(logPred, pred)
		for _, free := range [][]int{{0, 1, 2, 3}, {3, 1, 5, 0}, {1, 2, 4, 5}, {0, 1, 2, 3, 4}, {2}} {
			wantF, wantG, wantTri := gaussNewtonByPoint(logObs, pred, jac, free, d, 1e-3)
			f := huberWeights(logObs, pred, logPred, 1e-3, 0, gis, ws)
			g, tri := make([]float64, len(free)), make([]float64, len(wantTri))
			gaussNewtonSums(jac, gis, ws, free, d, g, tri)
			if math.Float64bits(f) != math.Float64bits(wantF) || !slices.Equal(g, wantG) || !slices.Equal(tri, wantTri) {
				t.Errorf("below MinPredicted %v, free %v: %v %v %v, by point %v %v %v", below, free, f, g, tri, wantF, wantG, wantTri)
			}
			if len(free) == 4 && free[0] == 0 && free[3] == 3 {
				var g4 [4]float64
				var tri4 [10]float64
				gaussNewtonFirstFour(jac, gis, ws, d, &g4, &tri4)
				if !slices.Equal(g4[:], wantG) || !slices.Equal(tri4[:], wantTri) {
					t.Errorf("below MinPredicted %v: the first four %v %v, by point %v %v", below, g4, tri4, wantG, wantTri)
				}
			}
		}
	}
}
