package numeric

import "math"

// JackknifeStdErr is the jackknife's standard error of an estimate from its K leave-one-block-
// out replicates: sqrt((K-1)/K * sum (x_b - mean)^2). Times Student's t with K-1 degrees of
// freedom, it is the half-width of a jackknife interval.
func JackknifeStdErr(replicates []float64) float64 {
	k := float64(len(replicates))
	mean := 0.0
	for _, x := range replicates {
		mean += x / k
	}
	ss := 0.0
	for _, x := range replicates {
		ss += (x - mean) * (x - mean)
	}
	return math.Sqrt((k - 1) / k * ss)
}
