package main

import (
	"context"
	"encoding/json"

	"github.com/lawcalc/annealing/lawcore"
)

// validateRequest is the `validate` method's request: a fit request plus the laws to compare
// and the band's coverage.
type validateRequest struct {
	lawcore.FitRequest
	Models []string `json:"models"`
	Level  float64  `json:"level"`
}

// validate answers the `validate` method: leave-one-schedule-out validation of each law.
func validate(ctx context.Context, request []byte, in []columns, progress func(float64)) (answer, error) {
	var req validateRequest
	if err := json.Unmarshal(request, &req); err != nil {
		return answer{}, &lawcore.InputError{Where: "validate request", Msg: err.Error()}
	}
	fillCurves(&req.FitRequest, in)
	res, err := lawcore.LeaveOneScheduleOut(ctx, req.FitRequest, req.Models, req.Level, progress)
	if err != nil {
		return answer{}, err
	}
	return answer{result: res}, nil
}
