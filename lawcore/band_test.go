package lawcore

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/lawcalc/annealing/lawcore/internal/order"
)

// sortedFrontier is the frontier as NewReach finds it when the points are not a few runs of
// increasing S1: sorted by S1 descending.
func sortedFrontier(s1, s2 []float64) [][2]float64 {
	idx := make([]int, len(s1))
	for i := range idx {
		idx[i] = i
	}
	order.Sort(idx, func(a, b int) bool { return s1[idx[a]] > s1[idx[b]] })
	var out [][2]float64
	top := math.Inf(-1)
	for _, i := range idx {
		if s2[i] > top {
			out = append(out, [2]float64{s1[i], s2[i]})
			top = s2[i]
		}
	}
	return out
}

// The frontier merged from runs of increasing S1 is the sorted one, point for point: on curves
// that share their first steps (equal S1 and S2), cross, tie in S1 with other S2s (where the
// merge gives way to the sort), or come in more runs than it merges.
func TestFrontierOfRunsIsTheSortedOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	merged := 0
	for trial := range 2000 {
		runs := 1 + rng.IntN(5)
		var s1, s2 []float64
		shared := rng.IntN(30)
		for range runs {
			a1, a2 := 0.0, 0.0
			for k := range 20 + rng.IntN(40) {
				switch {
				case k < shared: // the same learning rates as the other runs so far
					a1 += 1
					a2 += 0.25
				case rng.IntN(10) == 0: // a step of no learning rate: S1 stays
					a2 += rng.Float64() - 0.5
				default:
					a1 += float64(1 + rng.IntN(3))
					a2 += float64(rng.IntN(5)-2) * 0.25
				}
				s1, s2 = append(s1, a1), append(s2, a2)
			}
		}
		if trial%7 == 0 { // equal S1s with other S2s across runs
			for i := range s1 {
				s1[i] = math.Round(s1[i] / 4)
			}
		}
		most := maxFrontierRuns
		if trial%11 == 0 {
			most = 2
		}
		want := sortedFrontier(s1, s2)
		got, ok := frontierOfRuns(s1, s2, most)
		if !ok {
			continue
		}
		merged++
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: merged %v, sorted %v", trial, got, want)
		}
		if r := NewReach(s1, s2); !reflect.DeepEqual(r.Frontier, want) {
			t.Fatalf("trial %d: NewReach %v, sorted %v", trial, r.Frontier, want)
		}
	}
	if merged < 1000 {
		t.Errorf("the runs were merged in %d trials of 2000", merged)
	}
}
