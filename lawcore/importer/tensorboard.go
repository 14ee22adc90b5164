package importer

import (
	"encoding/json"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// TensorBoard's scalar dashboard downloads one tag of one run as CSV (`Wall time,Step,Value`)
// or as JSON (`[[wall time, step, value], ...]`), in a file named
// `run-<run>-tag-<tag>.csv` (the tag's slashes made underscores). The file does not say what
// the values are: they are taken as a loss, or as learning rates when the tag in the file's
// name is named like one (or when the choice says AsLR).

// tensorBoardHeader reports whether a header is TensorBoard's: wall time, step and value.
func tensorBoardHeader(header []string) bool {
	if len(header) != 3 {
		return false
	}
	want := map[string]bool{"wall time": true, "step": true, "value": true}
	for _, h := range header {
		l := strings.ToLower(strings.TrimSpace(h))
		if !want[l] {
			return false
		}
		delete(want, l)
	}
	return true
}

// tensorBoardTag returns the tag in a TensorBoard download's file name, or "".
func tensorBoardTag(name string) string {
	stem := fileStem(name)
	if i := strings.LastIndex(stem, "-tag-"); i >= 0 && i+len("-tag-") < len(stem) {
		return stem[i+len("-tag-"):]
	}
	return ""
}

// tensorBoardRun returns the run in a TensorBoard download's file name
// (`run-<run>-tag-<tag>.csv`), or "".
func tensorBoardRun(name string) string {
	stem := fileStem(name)
	i := strings.LastIndex(stem, "-tag-")
	if i <= 0 {
		return ""
	}
	run := stem[:i]
	for _, prefix := range []string{"run-", "run_"} {
		if strings.HasPrefix(run, prefix) && len(run) > len(prefix) {
			return run[len(prefix):]
		}
	}
	return run
}

// tensorBoardMetric names the series of a TensorBoard export: the tag, else "Value".
func tensorBoardMetric(name string) string {
	if tag := tensorBoardTag(name); tag != "" {
		return tag
	}
	return "Value"
}

// readTensorBoardCSV reads TensorBoard's CSV download.
func readTensorBoardCSV(set *fileReader, t *tableReader) error {
	set.format = FormatTensorBoardCSV
	stepCol, valueCol := findColumn(t.header, []string{"step"}), findColumn(t.header, []string{"value"})
	set.stepSource, set.stepField = t.header[stepCol], t.column(stepCol)
	s, err := set.seriesFor("", tensorBoardMetric(set.name), t.header[valueCol], t.column(valueCol))
	if err != nil {
		return err
	}
	err = t.each(set, func(line int, rec []string) error {
		step, err := set.parseStep(line, rec[stepCol])
		if err != nil {
			return err
		}
		return set.addText(s, line, step, rec[valueCol])
	})
	if err != nil {
		return err
	}
	if set.rows == 0 {
		return input.Errorf(set.where, "", "the export has a header but no data rows")
	}
	return nil
}

// readTensorBoardJSON reads TensorBoard's JSON download, whose opening '[' the decoder has
// just read, up to (not including) its closing ']'.
func readTensorBoardJSON(set *fileReader, dec *json.Decoder, data []byte, lc *lineCounter) error {
	set.format = FormatTensorBoardJSON
	set.stepSource, set.stepField = "step", "step"
	s, err := set.seriesFor("", tensorBoardMetric(set.name), "value", "value")
	if err != nil {
		return err
	}
	for dec.More() {
		start := skipJSONSpace(data, int(dec.InputOffset()))
		line := lc.at(start)
		var point []json.RawMessage
		if err := dec.Decode(&point); err != nil {
			if _, ok := err.(*json.UnmarshalTypeError); ok {
				return input.Errorf(set.where, lineField(line, ""), "each point should be a list [wall time, step, value]")
			}
			return jsonError(set.where, lc, err)
		}
		if err := set.row(line); err != nil {
			return err
		}
		if len(point) != 3 {
			return input.Errorf(set.where, lineField(line, ""), "each point should be a list [wall time, step, value], got %d values", len(point))
		}
		step, err := set.jsonStep(line, point[1])
		if err != nil {
			return err
		}
		if err := set.addText(s, line, step, jsonNumberText(point[2])); err != nil {
			return err
		}
	}
	return nil
}
