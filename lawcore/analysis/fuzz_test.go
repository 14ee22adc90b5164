package lawcore

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

// FuzzFastFill checks that the analyses' fast expansion agrees with Schedule.LR on any valid
// schedule it takes, and that decomposing any schedule never panics and encodes as JSON.
func FuzzFastFill(f *testing.F) {
	for _, p := range Presets() {
		b, _ := json.Marshal(p.Schedule)
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"wsd","total":1000,"peak":1,"final":0.01,"decay":"exponential","decayFraction":0.3,"warmup":7,"warmupFrom":0.1}`))
	f.Add([]byte(`{"kind":"cosine","total":999,"peak":1,"cycle":300,"after":"continue","final":0.2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSchedule(data)
		if err != nil || s.Length() > fuzzMaxSteps {
			return
		}
		want, err := s.LR()
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, len(want))
		if fastFill(&s, got) {
			scale := s.PeakLR()
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-9*math.Max(scale, math.Abs(want[i])) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
					t.Fatalf("step %d: fastFill %.17g, Schedule.LR %.17g", i, got[i], want[i])
				}
			}
		}
		o := DefaultDecompositionOptions()
		o.Points = 50
		o.Schedules = []NamedSchedule{{Name: "fuzz", Schedule: s}}
		res, err := Decompose(o)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *InputError", err)
			}
			return
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result does not encode: %v", err)
		}
	})
}
