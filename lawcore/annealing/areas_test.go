package annealing

import (
	"reflect"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
)

// The jackknife's refits take their areas from the fit's table (Subset): the same numbers,
// to the last bit, as a table bound on the runs with those points alone.
func TestAreaTableSubsetIsTheTableOfItsPoints(t *testing.T) {
	lr := make([]float64, 3001)
	for i := range lr {
		lr[i] = 1e-3 * (1 - float64(i)/4000)
	}
	runs := []lawcore.Run{{Name: "a", LR: lr, Steps: []int{10, 100, 1000, 2000, 3000}}, {Name: "b", LR: lr[:2001], Steps: []int{5, 50, 500, 2000}}}
	keep := []bool{true, false, true, false, true, false, true, true, false}
	fresh := func() *AreaTable { return NewAreaTable(lawcore.SubsetRuns(runs, keep), true) }
	for _, c := range []struct {
		name    string
		subset  func() *AreaTable
		lambdas []float64
	}{
		{"of a table computed at 0.999", func() *AreaTable { return NewAreaTable(runs, true).At(0.999).Subset(keep) }, []float64{0.999, 0.99}},
		{"of a table not computed yet", func() *AreaTable { return NewAreaTable(runs, true).Subset(keep) }, []float64{0.99, 0.999}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sub, want := c.subset(), fresh()
			if sub.Points() != 5 {
				t.Fatalf("%d points, want 5", sub.Points())
			}
			for _, lambda := range c.lambdas {
				got, w := sub.At(lambda), want.At(lambda)
				if !reflect.DeepEqual(got.LogS1, w.LogS1) || !reflect.DeepEqual(got.S2, w.S2) || !reflect.DeepEqual(got.DS2, w.DS2) {
					t.Errorf("at lambda %v: S2 %v, DS2 %v; the table of the points gives %v, %v", lambda, got.S2, got.DS2, w.S2, w.DS2)
				}
			}
		})
	}
}
