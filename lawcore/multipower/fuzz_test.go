package multipower

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/input"
)

// fuzzMaxSteps keeps fuzzed schedules small enough for the loss drop's worst case (a schedule
// whose every step changes the LR in a way no group can hide).
const fuzzMaxSteps = 20_000

// FuzzFitMultiPower fits fuzzed requests with both searches: an *input.Error, a timeout or a
// result that encodes as JSON, never a panic.
func FuzzFitMultiPower(f *testing.F) {
	f.Add([]byte(`{"curves":[{"name":"c","steps":[100,200,300,400],"loss":[3.5,3.2,3.1,3.05],"schedule":{"kind":"cosine","total":400,"peak":3e-4,"warmup":10}},{"name":"k","steps":[100,200,300,400],"loss":[3.5,3.25,3.15,3.1],"schedule":{"kind":"constant","total":400,"peak":3e-4,"warmup":10}}]}`))
	f.Add([]byte(`{"curves":[{"name":"a","steps":[1,2,3],"loss":[3,2.9,2.8],"lr":[0,1,1,0.5]}],"warmupConvention":"peak","warmupSteps":1}`))
	f.Add([]byte(`{"curves":[{"name":"a","steps":[5,9],"loss":[3,1e-300],"lr":[1e300,1e-300,0,1,0,1,0,1,0,1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := lawcore.DecodeFitRequest(data)
		if err != nil {
			return
		}
		for _, c := range req.Curves {
			if len(c.LR) > fuzzMaxSteps || (c.Schedule != nil && c.Schedule.Validate() == nil && c.Schedule.Length() > fuzzMaxSteps) {
				return
			}
		}
		req.Law = Name
		for _, search := range []string{"", SearchRelease} {
			req.Search = search
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			res, err := lawcore.Fit(ctx, req, nil)
			cancel()
			if err != nil {
				var ie *input.Error
				if !errors.As(err, &ie) && !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("error %v is neither an *input.Error nor a timeout", err)
				}
				continue
			}
			if _, err := json.Marshal(res); err != nil {
				t.Fatalf("result does not encode: %v (%+v)", err, res.Params)
			}
		}
	})
}

// FuzzPredictMultiPower predicts with fuzzed parameters and learning rates: an *input.Error or
// finite losses, never a panic.
func FuzzPredictMultiPower(f *testing.F) {
	f.Add(3.0, 0.5, 0.5, 400.0, 2.0, 0.6, 0.6, 1e-3, 1e-4, 0.0, 100)
	f.Add(0.0, 0.0, 1e300, 1e300, 1e-300, 1e300, 1e-300, 1e300, 0.0, 1.0, 3)
	f.Fuzz(func(t *testing.T, l0, a, alpha, b, c, beta, gamma, lr1, lr2, lr3 float64, n int) {
		p := Params{L0: l0, A: a, Alpha: alpha, B: b, C: c, Beta: beta, Gamma: gamma}
		if n < 1 || n > 300 {
			return
		}
		lr := make([]float64, n)
		for i := range lr {
			lr[i] = []float64{lr1, lr2, lr3}[i%3]
		}
		got, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: p.Values(), Curves: []lawcore.PredictCurve{{Name: "fuzz", LR: lr}}})
		if err != nil {
			var ie *input.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *input.Error", err)
			}
			return
		}
		for k, l := range got[0].Loss {
			if math.IsNaN(l) || math.IsInf(l, 0) {
				t.Fatalf("%+v on %v: %v at step %v", p, lr, l, got[0].Steps[k])
			}
		}
	})
}
