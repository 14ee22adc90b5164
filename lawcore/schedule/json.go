package schedule

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// scheduleFields is Schedule without its JSON methods, so that they can decode and encode
// the fields as usual.
type scheduleFields Schedule

// UnmarshalJSON decodes a schedule description and records whether it gives "warmup" at
// all (WarmupGiven): "warmup": 0 is a schedule without warmup, where a description that
// leaves it out takes the request's warmup setting. Unknown fields are refused, as the
// requests that hold schedules refuse theirs.
func (s *Schedule) UnmarshalJSON(data []byte) error {
	var v struct {
		scheduleFields
		// Warmup shadows the embedded field, to see whether it is there.
		Warmup *int `json:"warmup"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			// name the field as the description does, not through the wrapper
			te.Field = strings.ReplaceAll(te.Field, "scheduleFields.", "")
			if te.Struct == "" {
				te.Struct = "Schedule"
			}
		}
		return err
	}
	*s = Schedule(v.scheduleFields)
	s.Warmup, s.WarmupGiven = 0, v.Warmup != nil
	if v.Warmup != nil {
		s.Warmup = *v.Warmup
	}
	return nil
}

// MarshalJSON encodes a schedule description as usual, with "warmup": 0 when the schedule
// gives no warmup of its own choice (WarmupGiven), so that it reads back the same.
func (s Schedule) MarshalJSON() ([]byte, error) {
	out, err := json.Marshal(scheduleFields(s))
	if err != nil || s.Warmup != 0 || !s.WarmupGiven {
		return out, err
	}
	// omitempty left it out: put it first (a description's fields are read in any order)
	return append([]byte(`{"warmup":0,`), out[1:]...), nil
}
