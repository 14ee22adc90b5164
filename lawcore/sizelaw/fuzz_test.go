package sizelaw

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/input"
)

// fuzzMaxSteps keeps fuzzed schedules small enough that each input runs in milliseconds.
const fuzzMaxSteps = 100_000

// FuzzSizeFitRequest: any fit request of this law gives a result that encodes as JSON, an
// *input.Error, or a timeout; never a panic.
func FuzzSizeFitRequest(f *testing.F) {
	f.Add([]byte(`{"curves":[{"name":"a","size":1e7,"steps":[100,200,300],"loss":[3.5,3.2,3.1],"schedule":{"kind":"cosine","total":300,"peak":3e-4,"warmup":10}},{"name":"b","size":1e8,"steps":[100,200,300],"loss":[3.2,3.0,2.9],"schedule":{"kind":"cosine","total":300,"peak":3e-4,"warmup":10}}]}`))
	f.Add([]byte(`{"curves":[{"name":"a","size":1e7,"steps":[1,2],"loss":[3,2.9],"lr":[0,1,1]},{"name":"b","size":2e7,"role":"validate","steps":[1],"loss":[3],"lr":[1,1]}],"fixed":{"beta":0.3},"lambda":0.99}`))
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
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		req.Law = Name
		res, err := lawcore.Fit(ctx, req, nil)
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
