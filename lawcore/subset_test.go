package lawcore_test

import (
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
)

// The annealing law's refits share the fit's areas: the same numbers as binding their runs
// (TestIntervalsShareTheFitsAreas checks the intervals themselves).
func TestAnnealingSubsetMatchesBind(t *testing.T) {
	law, err := lawcore.Lookup(lawcore.LawAnnealing)
	if err != nil {
		t.Fatal(err)
	}
	held := []float64{2.6, 0.43, 0.55, 0.41, 0.999}
	other := []float64{2.6, 0.43, 0.55, 0.41, 0.99}
	testcurves.SubsetMatchesBind(t, law, lawcore.BindOptions{Free: []bool{true, true, true, true, true}}, [][]float64{held, other})
}
