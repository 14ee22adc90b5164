package schedule

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore/input"
)

// fuzzMaxSteps keeps fuzzed schedules small enough that each input runs in milliseconds.
const fuzzMaxSteps = 100_000

func FuzzDecodeSchedule(f *testing.F) {
	for _, p := range Presets() {
		b, _ := json.Marshal(p.Schedule)
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"explicit","steps":[10,20],"lr":[1,0.5],"warmup":5,"total":30}`))
	f.Add([]byte(`{"kind":"concat","segments":[{"kind":"cosine","total":10,"peak":1},{"kind":"wsd","total":10,"peak":1,"decay":"half-life","halfLife":2,"decaySteps":5}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data)
		if err != nil {
			var ie *input.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *input.Error", err)
			}
			return
		}
		if s.Length() > fuzzMaxSteps {
			return
		}
		lr, err := s.LR()
		if err != nil {
			t.Fatalf("decoded but LR failed: %v", err)
		}
		if len(lr) != s.Length() {
			t.Fatalf("%d values for length %d", len(lr), s.Length())
		}
		if _, err := ComputeAreas(CountedLR(lr, s.Warmup, WarmupPeak), 0.999); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzFill checks that Schedule.LR (whose common kinds are filled by recurrences) agrees with
// the definitions evaluated step by step on any valid schedule of those kinds.
func FuzzFill(f *testing.F) {
	for _, p := range Presets() {
		b, _ := json.Marshal(p.Schedule)
		f.Add(b)
	}
	f.Add([]byte(`{"kind":"wsd","total":1000,"peak":1,"final":0.01,"decay":"exponential","decayFraction":0.3,"warmup":7,"warmupFrom":0.1}`))
	f.Add([]byte(`{"kind":"cosine","total":999,"peak":1,"cycle":300,"after":"continue","final":0.2}`))
	f.Add([]byte(`{"kind":"multistep","total":999,"peak":1,"stages":[0.5,0.5],"levels":[1,0.1],"transition":30}`))
	f.Add([]byte(`{"kind":"multistep","total":999,"peak":1,"stages":[0.5,0.5],"levels":[1,0.1],"transition":30,"drop":"at","warmup":9}`))
	f.Add([]byte(`{"kind":"cosine","total":999,"peak":1,"cycles":7,"final":0.2,"warmup":13}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data)
		if err != nil || s.Length() > fuzzMaxSteps {
			return
		}
		switch s.Kind {
		case KindConstant, KindCosine, KindWSD, KindMultistep:
		default:
			return
		}
		got, err := s.LR()
		if err != nil {
			t.Fatal(err)
		}
		scale := s.PeakLR()
		for i := range got {
			want := referenceLR(s, i)
			if !(math.Abs(got[i]-want) <= 1e-9*math.Max(scale, math.Abs(want))) && !(math.IsNaN(got[i]) && math.IsNaN(want)) {
				t.Fatalf("step %d: Schedule.LR %.17g, the definition %.17g", i, got[i], want)
			}
		}
	})
}
