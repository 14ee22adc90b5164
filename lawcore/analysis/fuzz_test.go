package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// fuzzMaxSteps keeps fuzzed schedules small enough that each input runs in milliseconds.
const fuzzMaxSteps = 100_000

// FuzzDecompose checks that decomposing any schedule never panics and encodes as JSON.
func FuzzDecompose(f *testing.F) {
	for _, p := range schedule.Presets() {
		b, _ := json.Marshal(p.Schedule)
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"wsd","total":1000,"peak":1,"final":0.01,"decay":"exponential","decayFraction":0.3,"warmup":7,"warmupFrom":0.1}`))
	f.Add([]byte(`{"kind":"cosine","total":999,"peak":1,"cycle":300,"after":"continue","final":0.2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := schedule.Decode(data)
		if err != nil || s.Length() > fuzzMaxSteps {
			return
		}
		o := DefaultDecompositionOptions()
		o.Points = 50
		o.Schedules = []NamedSchedule{{Name: "fuzz", Schedule: s}}
		res, err := Decompose(context.Background(), o, nil)
		if err != nil {
			var ie *input.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *input.Error", err)
			}
			return
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
	})
}
