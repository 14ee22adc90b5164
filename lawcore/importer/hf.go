package importer

import (
	"bytes"
	"encoding/json"

	"github.com/lawcalc/annealing/lawcore/input"
)

// A Hugging Face trainer_state.json (written by transformers' Trainer next to each
// checkpoint) keeps the run's logs in log_history: training entries {"step", "loss",
// "learning_rate", "grad_norm", "epoch"}, evaluation entries {"step", "eval_loss",
// "eval_runtime", ...} (or "eval_<dataset>_loss" for several evaluation sets), and a summary
// entry at the end {"step", "train_loss", "train_runtime", ...} whose train_loss is the mean
// over the run. Training and evaluation losses are separate candidate columns; the learning
// rate of the training entries goes with either.

// readHFTrainerState reads a trainer_state.json, streaming its log_history.
func readHFTrainerState(set *fileReader, data []byte, lc *lineCounter) error {
	set.format = FormatHFTrainerState
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening '{'
		return jsonError(set.where, lc, err)
	}
	found := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonError(set.where, lc, err)
		}
		key, _ := tok.(string)
		if key != "log_history" || found {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return jsonError(set.where, lc, err)
			}
			continue
		}
		found = true
		off := skipJSONSpace(data, int(dec.InputOffset()))
		if off < len(data) && data[off] == ':' {
			off = skipJSONSpace(data, off+1)
		}
		if off >= len(data) || data[off] != '[' {
			return input.Errorf(set.where, lineField(lc.at(off), ""), "log_history should be a list")
		}
		if _, err := dec.Token(); err != nil { // the opening '['
			return jsonError(set.where, lc, err)
		}
		if err := readJSONEntries(set, dec, data, lc, true, "log_history entry"); err != nil {
			return err
		}
		if _, err := dec.Token(); err != nil { // the closing ']'
			return jsonError(set.where, lc, err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return jsonError(set.where, lc, err)
	}
	if err := jsonEnd(set.where, dec, data, lc); err != nil {
		return err
	}
	if !found {
		return input.Errorf(set.where, "", "a JSON object without a log_history list: not a trainer_state.json")
	}
	if set.rows == 0 {
		return input.Errorf(set.where, "", "log_history is empty: the run logged nothing")
	}
	set.noLoss = input.Errorf(set.where, "", "log_history has no loss or eval_loss")
	return nil
}
