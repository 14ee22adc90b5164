package lawcore

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/lawcalc/annealing/lawcore/input"
)

// fuzzMaxSteps keeps fuzzed schedules small enough that each input runs in milliseconds.
const fuzzMaxSteps = 100_000

func FuzzFitRequest(f *testing.F) {
	f.Add([]byte(`{"curves":[{"name":"c","steps":[100,200,300,400],"loss":[3.5,3.2,3.1,3.05],"schedule":{"kind":"cosine","total":400,"peak":3e-4,"warmup":10}},{"name":"k","steps":[100,200,300,400],"loss":[3.5,3.25,3.15,3.1],"schedule":{"kind":"constant","total":400,"peak":3e-4,"warmup":10}}],"lambda":0.99}`))
	f.Add([]byte(`{"curves":[{"name":"a","steps":[1,2,3],"loss":[3,2.9,2.8],"lr":[0,1,1,0.5]}],"lambda":"fit","warmupConvention":"actual","warmupSteps":1}`))
	f.Add([]byte(`{"curves":[{"name":"a","role":"validate","steps":[1],"loss":[-3],"lr":[1,1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeFitRequest(data)
		if err != nil {
			return
		}
		for _, c := range req.Curves {
			if len(c.LR) > fuzzMaxSteps || (c.Schedule != nil && c.Schedule.Validate() == nil && c.Schedule.Length() > fuzzMaxSteps) {
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		res, err := Fit(ctx, req, nil)
		if err != nil {
			var ie *input.Error
			if !errors.As(err, &ie) && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error %v is neither an *input.Error nor a timeout", err)
			}
			return
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
	})
}
