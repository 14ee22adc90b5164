package numeric

import "github.com/lawcalc/annealing/lawcore/internal/order"

// Weighted is a value with a weight, for WeightedQuantile.
type Weighted struct{ Value, Weight float64 }

// WeightedQuantile is the smallest value v such that the values up to v carry at least the
// share q of the total weight (0 for no values). It sorts vs.
func WeightedQuantile(vs []Weighted, q float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	order.Sort(vs, func(i, j int) bool { return vs[i].Value < vs[j].Value })
	total := 0.0
	for _, v := range vs {
		total += v.Weight
	}
	acc := 0.0
	for _, v := range vs {
		acc += v.Weight
		if acc >= q*total {
			return v.Value
		}
	}
	return vs[len(vs)-1].Value
}
