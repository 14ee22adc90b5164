package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// JSON files are read as a stream, one entry at a time, so that memory grows with the values
// kept (bounded by MaxRows and maxPoints), not with the size of the parsed tree; nesting
// deeper than maxJSONDepth is rejected before any decoding. Python's json module writes
// NaN and Infinity, which are not JSON: they are read as null (no value).

// maxJSONDepth bounds the nesting of an imported JSON file: the formats read need 4.
const maxJSONDepth = 64

// looksLikeJSON reports whether data starts as the JSON files read here do: with '{', or with
// '[' followed by '[', '{' or ']', or else with tokens that read as JSON (log lines may start
// with a bracket too: "[2024-05-01 10:00:00] iteration ...", "[rank0]: ...").
func looksLikeJSON(data []byte) bool {
	switch firstNonSpace(data) {
	case '{':
		return true
	case '[':
		// A log line may start with '[' too ("[2024-05-01 12:00:00] step 100 ..."); a JSON file
		// this reads holds arrays or objects (or nothing) inside its first '['. Deciding by the
		// first bytes (not by decoding) keeps a JSON file with a bad value a JSON file, whose
		// error then names its line.
		rest := data[bytes.IndexByte(data, '[')+1:]
		switch firstNonSpace(rest) {
		case '[', '{', ']':
			return true
		}
		return startsAsJSON(data)
	}
	return false
}

// startsAsJSON reports whether the first 64 tokens of data read as JSON (numbers as written,
// so that one too large for float64 is still JSON).
func startsAsJSON(data []byte) bool {
	if len(data) > 1<<16 {
		data = data[:1<<16]
	}
	dec := json.NewDecoder(bytes.NewReader(nullNonFinite(data)))
	dec.UseNumber()
	for range 64 {
		if _, err := dec.Token(); err != nil {
			return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
		}
	}
	return true
}

// readJSON reads a JSON file: a Hugging Face trainer_state.json, a TensorBoard scalar
// export, a list of records or JSON lines.
func readJSON(set *fileReader, data []byte) error {
	if err := checkJSONDepth(set.where, data); err != nil {
		return err
	}
	data = nullNonFinite(data)
	lc := &lineCounter{data: data}
	first := firstNonSpace(data)
	switch {
	case first == '{' && bytes.Contains(data, []byte(`"log_history"`)):
		return readHFTrainerState(set, data, lc)
	case first == '{':
		if ok, err := readJSONColumns(set, data); ok || err != nil {
			return err
		}
		return readJSONLines(set, data, lc)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the opening '['
		return jsonError(set.where, lc, err)
	}
	off := skipJSONSpace(data, int(dec.InputOffset()))
	if off >= len(data) {
		return input.Errorf(set.where, lineField(lc.at(len(data)), ""), "the JSON ends too early")
	}
	switch data[off] {
	case '[':
		err := readTensorBoardJSON(set, dec, data, lc)
		if err != nil {
			return err
		}
	case '{':
		set.format = FormatJSONRecords
		if err := readJSONEntries(set, dec, data, lc, false, "list entry"); err != nil {
			return err
		}
	case ']':
		return input.Errorf(set.where, lineField(lc.at(off), ""), "the JSON list is empty")
	default:
		return input.Errorf(set.where, lineField(lc.at(off), ""),
			"expected a list of [wall time, step, value] (a TensorBoard export) or a list of objects with a step and a loss")
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return jsonError(set.where, lc, err)
	}
	return jsonEnd(set.where, dec, data, lc)
}

// readJSONLines reads JSON objects one after another (JSON lines, or a single object), each
// a record with a step and metrics. A last line that is not a whole record after records that
// are (a log still being written, or its job killed mid-line) is left out with a note.
func readJSONLines(set *fileReader, data []byte, lc *lineCounter) error {
	set.format = FormatJSONRecords
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		end := int(dec.InputOffset())
		start := skipJSONSpace(data, end)
		if start >= len(data) {
			break
		}
		// the last line, after a line of records, and not JSON: cut short
		ownLine := bytes.ContainsRune(data[end:start], '\n')
		if rest := bytes.TrimSpace(data[start:]); set.rows > 0 && ownLine && !bytes.ContainsRune(rest, '\n') && !json.Valid(rest) {
			set.notes = append(set.notes, fmt.Sprintf("line %d, the last, is not a whole record (%s): left out, as a log cut short while it was written ends; the %d records before it are read",
				lc.at(start), jsonReason(rest), set.rows))
			break
		}
		if err := decodeJSONEntry(set, dec, data, start, lc, false, "record"); err != nil {
			return err
		}
	}
	if set.rows == 0 {
		return input.Errorf(set.where, "", "the file holds no records")
	}
	return nil
}

// readJSONColumns reads a JSON object that holds its points as columns: arrays of one length,
// one of them the steps, at its top level ({"step": [...], "loss": [...]}) or in the objects
// within it, two levels down ({"val": {"iter": [...], "val_loss": [...]}, "train": {...}}, as
// some training scripts save their logs). Each such table's i-th values make one record, read
// as a record of a list is. ok is false, and nothing read, when data is not one such object.
// Unlike the rest of the file's readers it holds the whole tree: a file of columns is one value.
func readJSONColumns(set *fileReader, data []byte) (ok bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var top map[string]json.RawMessage
	if dec.Decode(&top) != nil || dec.More() {
		return false, nil
	}
	tables := columnTables(top, 2)
	if len(tables) == 0 {
		return false, nil
	}
	set.format = FormatJSONRecords
	lc := &lineCounter{data: data}
	for _, t := range tables {
		// a value's line is its column's: the arrays are often written on one line
		line := lc.at(max(0, bytes.Index(data, []byte(strconv.Quote(t.step)))))
		for i := range t.n {
			if err := set.row(line); err != nil {
				return true, err
			}
			m := make(map[string]json.RawMessage, len(t.cols))
			for k, col := range t.cols {
				m[k] = col[i]
			}
			if err := readJSONEntry(set, m, data, 1, false); err != nil {
				return true, err
			}
		}
	}
	return true, nil
}

// columnTable is a table of readJSONColumns: columns of n values, step the name of the steps'.
type columnTable struct {
	cols map[string][]json.RawMessage
	step string
	n    int
}

// columnTables finds the tables of obj (its arrays of numbers, strings or nulls, when one of
// them is named as steps are; those of the steps' length), and those of the objects within it
// down to depth more levels, in the order of their keys.
func columnTables(obj map[string]json.RawMessage, depth int) []columnTable {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t := columnTable{cols: map[string][]json.RawMessage{}}
	var within []columnTable
	for _, k := range keys {
		v := obj[k]
		switch firstNonSpace(v) {
		case '[':
			var arr []json.RawMessage
			if json.Unmarshal(v, &arr) == nil && len(arr) > 0 && slices.IndexFunc(arr, isJSONComposite) < 0 {
				t.cols[k] = arr
			}
		case '{':
			var sub map[string]json.RawMessage
			if depth > 0 && json.Unmarshal(v, &sub) == nil {
				within = append(within, columnTables(sub, depth-1)...)
			}
		}
	}
	for _, want := range stepNamesAll {
		for _, k := range keys {
			if t.step == "" && t.cols[k] != nil && strings.EqualFold(k, want) {
				t.step = k
			}
		}
	}
	if t.step == "" {
		return within
	}
	t.n = len(t.cols[t.step])
	for k, col := range t.cols {
		if len(col) != t.n {
			delete(t.cols, k)
		}
	}
	if len(t.cols) < 2 {
		return within
	}
	return append([]columnTable{t}, within...)
}

// isJSONComposite reports whether a JSON value is an array or an object.
func isJSONComposite(v json.RawMessage) bool {
	c := firstNonSpace(v)
	return c == '[' || c == '{'
}

// readJSONEntries reads the objects of a list whose '[' the decoder has just read, up to
// (not including) its ']'.
func readJSONEntries(set *fileReader, dec *json.Decoder, data []byte, lc *lineCounter, hf bool, what string) error {
	for dec.More() {
		start := skipJSONSpace(data, int(dec.InputOffset()))
		if err := decodeJSONEntry(set, dec, data, start, lc, hf, what); err != nil {
			return err
		}
	}
	return nil
}

// decodeJSONEntry decodes the record starting at data[start] and reads it.
func decodeJSONEntry(set *fileReader, dec *json.Decoder, data []byte, start int, lc *lineCounter, hf bool, what string) error {
	line := lc.at(start)
	if err := set.row(line); err != nil {
		return err
	}
	if start >= len(data) || data[start] != '{' {
		return input.Errorf(set.where, lineField(line, ""), "each %s should be an object with a step and a loss", what)
	}
	var m map[string]json.RawMessage
	if err := dec.Decode(&m); err != nil {
		return jsonError(set.where, lc, err)
	}
	end := max(start, min(int(dec.InputOffset()), len(data)))
	return readJSONEntry(set, m, data[start:end], line, hf)
}

// readJSONEntry reads one record, m, whose text raw starts at line: an object with a step
// key and metrics. In a Hugging Face log_history, the train_loss of the summary entry at the
// end (the mean over the run) is left out.
func readJSONEntry(set *fileReader, m map[string]json.RawMessage, raw []byte, line int, hf bool) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	stepKey := ""
	for _, want := range stepNamesAll {
		for _, k := range keys {
			if stepKey == "" && strings.EqualFold(k, want) {
				stepKey = k
			}
		}
	}
	if stepKey == "" {
		for _, k := range keys {
			if set.wants(k) {
				return input.Errorf(set.where, lineField(line, ""), "this entry has %q but no step", k)
			}
		}
		return nil // an entry without values, such as a summary
	}
	if set.stepSource == "" {
		set.stepSource, set.stepField = stepKey, strconv.Quote(stepKey)
	}
	if firstNonSpace(m[stepKey]) == '[' {
		// the steps as a list whose losses are not lists beside it (nested by run, say): no
		// layout of columns (readJSONColumns) holds them
		return input.Errorf(set.where, lineField(keyLine(raw, stepKey, line), set.stepField),
			`the steps are a list, but no list of losses of the same length is beside it: give each loss as a list next to the steps' ({"step": [...], "loss": [...]}), or one or two objects down ({"val": {"iter": [...], "val_loss": [...]}}), one file per run`)
	}
	step, err := set.jsonStep(keyLine(raw, stepKey, line), m[stepKey])
	if err != nil {
		return err
	}
	summary := hf && m["train_runtime"] != nil
	for _, k := range keys {
		if k == stepKey || (summary && k == "train_loss") {
			continue
		}
		if !set.wants(k) {
			if !hf { // trainer_state.json always names its losses
				set.offer(k)
			}
			continue
		}
		s, err := set.seriesFor("", k, k, strconv.Quote(k))
		if err != nil {
			return err
		}
		if err := set.addText(s, keyLine(raw, k, line), step, jsonNumberText(m[k])); err != nil {
			return err
		}
	}
	return nil
}

// jsonStep reads a step from JSON.
func (set *fileReader) jsonStep(line int, raw json.RawMessage) (float64, error) {
	if strings.TrimSpace(string(raw)) == "null" {
		return 0, input.Errorf(set.where, lineField(line, set.stepField), "the step is null")
	}
	return set.parseStep(line, jsonNumberText(raw))
}

// jsonNumberText returns the text of a JSON number, of a string (whose content may be a
// number), or "NaN" for null (no value).
func jsonNumberText(raw json.RawMessage) string {
	t := strings.TrimSpace(string(raw))
	switch {
	case t == "null":
		return "NaN"
	case strings.HasPrefix(t, `"`):
		if s, err := strconv.Unquote(t); err == nil {
			return s
		}
	}
	return t
}

// keyLine returns the line of key within the object raw, which starts at line.
func keyLine(raw []byte, key string, line int) int {
	i := bytes.Index(raw, []byte(strconv.Quote(key)))
	if i < 0 {
		return line
	}
	return line + bytes.Count(raw[:i], []byte{'\n'})
}

// jsonEnd checks that nothing but white space follows the JSON value.
func jsonEnd(where string, dec *json.Decoder, data []byte, lc *lineCounter) error {
	off := skipJSONSpace(data, int(dec.InputOffset()))
	if off < len(data) {
		return input.Errorf(where, lineField(lc.at(off), ""), "unexpected text after the end of the JSON")
	}
	return nil
}

// jsonError turns encoding/json's errors into an *input.Error naming the line.
func jsonError(where string, lc *lineCounter, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read, the one at fault included
		return input.Errorf(where, lineField(lc.at(max(0, int(se.Offset)-1)), ""), "%s", se.Error())
	case errors.As(err, &te):
		return input.Errorf(where, lineField(lc.at(int(te.Offset)), ""), "expected %s, got a JSON %s", te.Type, te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return input.Errorf(where, lineField(lc.at(len(lc.data)), ""), "the JSON ends too early")
	}
	return &input.Error{Where: where, Msg: err.Error()}
}

// jsonReason says what is wrong with text that is not valid JSON, without its position.
func jsonReason(text []byte) string {
	var v any
	var se *json.SyntaxError
	if err := json.Unmarshal(text, &v); errors.As(err, &se) {
		return se.Error()
	}
	return "it ends too early"
}

// skipJSONSpace returns the offset of the first byte at or after off that is neither white
// space nor a comma.
func skipJSONSpace(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
			continue
		}
		break
	}
	return off
}

// checkJSONDepth rejects JSON nested deeper than maxJSONDepth, naming the line.
func checkJSONDepth(where string, data []byte) error {
	depth, line, inString, escaped := 0, 1, false, false
	for _, b := range data {
		if b == '\n' {
			line++
		}
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString && b == '"':
			inString = false
		case inString:
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			depth++
			if depth > maxJSONDepth {
				return input.Errorf(where, lineField(line, ""), "the JSON is nested more than %d deep", maxJSONDepth)
			}
		case b == ']' || b == '}':
			depth--
		}
	}
	return nil
}

// nullNonFinite replaces NaN, Infinity and -Infinity outside strings (which Python writes)
// with null, keeping the lines. It returns data itself when there is none.
func nullNonFinite(data []byte) []byte {
	if !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		b := data[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString && b == '"':
			inString = false
		case inString:
		case b == '"':
			inString = true
		case bytes.HasPrefix(data[i:], []byte("NaN")):
			out, i = append(out, "null"...), i+len("NaN")-1
			continue
		case bytes.HasPrefix(data[i:], []byte("Infinity")):
			out, i = append(out, "null"...), i+len("Infinity")-1
			continue
		case bytes.HasPrefix(data[i:], []byte("-Infinity")):
			out, i = append(out, "null"...), i+len("-Infinity")-1
			continue
		}
		out = append(out, b)
	}
	return out
}

// lineCounter turns byte offsets into line numbers, counting forward from the last offset
// asked for (offsets mostly increase).
type lineCounter struct {
	data       []byte
	off, lines int // lines counts the newlines before off
}

// at returns the line (from 1) of the byte at off.
func (l *lineCounter) at(off int) int {
	off = max(0, min(off, len(l.data)))
	if off < l.off {
		l.off, l.lines = 0, 0
	}
	l.lines += bytes.Count(l.data[l.off:off], []byte{'\n'})
	l.off = off
	return l.lines + 1
}
