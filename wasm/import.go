package main

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/importer"
)

// importRequest is the `import` method's request: a file (any format lawcore recognises),
// optionally the choice that settles an ambiguity, and optionally a second file holding the
// learning rates, merged into every curve on step.
type importRequest struct {
	Name   string          `json:"name"`
	Text   string          `json:"text"`
	Choice importer.Choice `json:"choice"`
	LRFile *struct {
		Name   string          `json:"name"`
		Text   string          `json:"text"`
		Choice importer.Choice `json:"choice"`
	} `json:"lrFile,omitempty"`
}

// importFile answers the `import` method: the Import JSON, and per curve the columns
// {steps, loss?, lr?}. The file is file's bytes when given (a large file then never goes
// through JSON), else the request's text.
func importFile(request, file []byte) (answer, error) {
	var req importRequest
	if err := lawcore.DecodeJSON(request, &req); err != nil {
		return answer{}, &lawcore.InputError{Where: "import request", Msg: err.Error()}
	}
	data := file
	switch {
	case file != nil && req.Text != "":
		return answer{}, &lawcore.InputError{Where: "import request", Msg: "give the file as text or as bytes, not both"}
	case file == nil:
		data = []byte(req.Text)
	}
	imp, err := importer.Read(req.Name, data, req.Choice)
	if err != nil {
		return answer{}, err
	}
	if req.LRFile != nil && imp.Ambiguity == nil {
		choice := req.LRFile.Choice
		choice.AsLR = true
		lrImp, err := importer.Read(req.LRFile.Name, []byte(req.LRFile.Text), choice)
		if err != nil {
			return answer{}, err
		}
		if lrImp.Ambiguity != nil || len(lrImp.Curves) != 1 {
			return answer{}, &lawcore.InputError{Where: req.LRFile.Name, Msg: "the learning-rate file must hold exactly one learning-rate curve"}
		}
		for i, c := range imp.Curves {
			if imp.Curves[i], err = importer.MergeLR(c, lrImp.Curves[0]); err != nil {
				return answer{}, err
			}
		}
	}
	cols := make([]columns, len(imp.Curves))
	for i, c := range imp.Curves {
		cols[i] = columns{"steps": c.Steps}
		if c.HasLoss {
			cols[i]["loss"] = c.Loss
		}
		if c.HasLR {
			cols[i]["lr"] = c.LR
		}
	}
	return answer{result: imp, columns: cols}, nil
}

// pairRequest is the `pairlr` method's request: curves as `import` described them (name,
// file, run, hasLoss, hasLR), their steps in the columns.
type pairRequest struct {
	Curves []*importer.Curve `json:"curves"`
}

// pairLR answers the `pairlr` method: which learning-rate curves are the schedules of which
// loss curves ({pairs: [{loss, lr}], notes}), by [importer.PairLR].
func pairLR(request []byte, in []columns) (answer, error) {
	var req pairRequest
	if err := lawcore.DecodeJSON(request, &req); err != nil {
		return answer{}, &lawcore.InputError{Where: "pairlr request", Msg: err.Error()}
	}
	for i, c := range req.Curves {
		if c == nil {
			return answer{}, &lawcore.InputError{Where: "pairlr request", Msg: fmt.Sprintf("curves[%d] is null", i)}
		}
		c.Steps = fill(c.Steps, in, i, "steps")
	}
	pairs, notes := importer.PairLR(req.Curves)
	if pairs == nil {
		pairs = []importer.LRPair{}
	}
	if notes == nil {
		notes = []string{}
	}
	return answer{result: map[string]any{"pairs": pairs, "notes": notes}}, nil
}
