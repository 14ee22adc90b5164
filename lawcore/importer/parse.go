package importer

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/lawcalc/annealing/lawcore"
)

// MaxRows bounds the data rows of one parsed file.
const MaxRows = 2_000_000

// ParsedCurve is a loss curve read from a CSV or TSV file. The arrays are left out of JSON:
// they cross to JavaScript as typed arrays.
type ParsedCurve struct {
	// Name is the file's name.
	Name string `json:"name"`
	// Rows is the number of data rows.
	Rows int `json:"rows"`
	// Columns are the header's column names.
	Columns []string `json:"columns"`
	// StepColumn, LossColumn and LRColumn name the columns used ("" for LR when absent).
	StepColumn string `json:"stepColumn"`
	LossColumn string `json:"lossColumn"`
	LRColumn   string `json:"lrColumn"`
	// HasLR says whether the file had a learning-rate column.
	HasLR bool `json:"hasLR"`

	Steps, Loss, LR []float64 `json:"-"`
}

// Errors in values name the line and the column (counted from 1, with the header's name for
// it); syntax errors name the line and the character.

// Column names recognised, lower-cased, in order of preference.
var (
	stepNames = []string{"step", "steps", "iteration", "iter", "global_step", "_step", "train/global_step"}
	lossNames = []string{"loss", "val_loss", "validation_loss", "valid_loss", "eval_loss", "eval loss", "lm loss", "lm_loss", "val loss", "validation loss", "train_loss", "train loss"}
	lrNames   = []string{"lr", "learning_rate", "learning rate", "learning-rate", "train/learning_rate"}
)

// ParseCurveCSV reads a CSV or TSV file (comma, tab or semicolon separated) with a header
// naming a step column and a loss column, and optionally a learning-rate column. Errors
// name the file, the line and the column.
func ParseCurveCSV(name string, data []byte) (*ParsedCurve, error) {
	where := name
	if where == "" {
		where = "pasted data"
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // byte-order mark
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &lawcore.InputError{Where: where, Msg: "the file is empty"}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, &lawcore.InputError{Where: where, Msg: "this is a binary file, not CSV or TSV text"}
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sniffDelimiter(data)
	r.Comment = '#'
	r.TrimLeadingSpace = true
	r.ReuseRecord = true

	header, err := r.Read()
	if err != nil {
		return nil, csvError(where, err)
	}
	header = append([]string(nil), header...) // the reader reuses its record

	headerLine, _ := r.FieldPos(0)
	pc := &ParsedCurve{Name: name, Columns: header}
	stepCol, lossCol, lrCol := findColumn(header, stepNames), findColumn(header, lossNames), findColumn(header, lrNames)
	if stepCol < 0 || lossCol < 0 {
		if _, numErr := strconv.ParseFloat(strings.TrimSpace(header[0]), 64); numErr == nil {
			return nil, lawcore.Errorf(where, fmt.Sprintf("line %d", headerLine),
				"the first line should be a header naming the columns, such as step,loss,lr")
		}
		missing := "step"
		if stepCol >= 0 {
			missing = "loss"
		}
		return nil, lawcore.Errorf(where, fmt.Sprintf("line %d", headerLine),
			"no %s column: the header has %s (a step column is called step or iteration, a loss column loss, val_loss or lm loss)",
			missing, quoteList(header))
	}
	pc.StepColumn, pc.LossColumn = header[stepCol], header[lossCol]
	if lrCol >= 0 {
		pc.LRColumn, pc.HasLR = header[lrCol], true
	}

	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(where, err)
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if pc.Rows >= MaxRows {
			return nil, lawcore.Errorf(where, fmt.Sprintf("line %d", line), "more than %d rows: thin the curve first", MaxRows)
		}
		at := func(col int) string { return fmt.Sprintf("line %d, column %d (%s)", line, col+1, header[col]) }
		num := func(col int) (float64, error) {
			v, err := strconv.ParseFloat(strings.TrimSpace(rec[col]), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				msg := "is not a number"
				if err == nil || errors.Is(err, strconv.ErrRange) {
					msg = "is not a finite number"
				}
				return 0, lawcore.Errorf(where, at(col), "%s %s", lawcore.Quote(rec[col]), msg)
			}
			return v, nil
		}
		step, err := num(stepCol)
		if err != nil {
			return nil, err
		}
		loss, err := num(lossCol)
		if err != nil {
			return nil, err
		}
		stepField := at(stepCol)
		switch {
		case step != math.Trunc(step) || step < 0:
			return nil, lawcore.Errorf(where, stepField, "a step must be a whole number, zero or more, got %v", step)
		case pc.Rows > 0 && step == pc.Steps[pc.Rows-1]:
			return nil, lawcore.Errorf(where, stepField, "step %v appears twice", step)
		case pc.Rows > 0 && step < pc.Steps[pc.Rows-1]:
			return nil, lawcore.Errorf(where, stepField, "steps must increase: %v comes after %v", step, pc.Steps[pc.Rows-1])
		}
		if loss <= 0 {
			return nil, lawcore.Errorf(where, at(lossCol), "the loss must be positive, got %v", loss)
		}
		pc.Steps = append(pc.Steps, step)
		pc.Loss = append(pc.Loss, loss)
		if pc.HasLR {
			lr, err := num(lrCol)
			if err != nil {
				return nil, err
			}
			if lr < 0 {
				return nil, lawcore.Errorf(where, at(lrCol), "a learning rate cannot be negative, got %v", lr)
			}
			pc.LR = append(pc.LR, lr)
		}
		pc.Rows++
	}
	if pc.Rows == 0 {
		return nil, lawcore.Errorf(where, "", "the file has a header but no data rows")
	}
	return pc, nil
}

// sniffDelimiter picks tab, semicolon or comma by which appears in the first line that is
// neither blank nor a comment.
func sniffDelimiter(data []byte) rune {
	var first []byte
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			first = line
			break
		}
	}
	switch {
	case bytes.IndexByte(first, '\t') >= 0:
		return '\t'
	case bytes.IndexByte(first, ',') < 0 && bytes.IndexByte(first, ';') >= 0:
		return ';'
	}
	return ','
}

// findColumn returns the index of the header column matching the first known name, or -1.
func findColumn(header, names []string) int {
	for _, want := range names {
		for i, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), want) {
				return i
			}
		}
	}
	return -1
}

// csvError turns encoding/csv's errors (which carry line and column) into an *lawcore.InputError.
func csvError(where string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = "this row has a different number of columns than the header"
		}
		return lawcore.Errorf(where, fmt.Sprintf("line %d, character %d", pe.Line, pe.Column), "%s", msg)
	}
	if err == io.EOF {
		return &lawcore.InputError{Where: where, Msg: "the file is empty"}
	}
	return &lawcore.InputError{Where: where, Msg: err.Error()}
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = lawcore.Quote(s)
	}
	return strings.Join(q, ", ")
}
