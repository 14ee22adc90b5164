package importer

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// MaxRows bounds the data rows of one file.
const MaxRows = 2_000_000

// Errors in values name the line and the column (counted from 1, with the header's name for
// it); syntax errors name the line and the character.

// Column names recognised, lower-cased, in order of preference.
var (
	stepNames = []string{"step", "steps", "iteration", "iter", "global_step", "train/global_step"}
	lossNames = []string{"loss", "val_loss", "validation_loss", "valid_loss", "eval_loss", "eval loss", "lm loss", "lm_loss", "val loss", "validation loss", "train_loss", "train loss"}
	lrNames   = []string{"lr", "learning_rate", "learning rate", "learning-rate", "train/learning_rate"}
)

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

// csvError turns encoding/csv's errors (which carry line and column) into an *input.Error.
func csvError(where string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = "this row has a different number of columns than the header"
		}
		if errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine != pe.Line {
			// a quote left open runs on to where the reader gave up: the row it opened in is at fault
			return input.Errorf(where, fmt.Sprintf("line %d", pe.StartLine), "a quoted field opens in this row and is not closed where it should be (the reader got to line %d, character %d)", pe.Line, pe.Column)
		}
		return input.Errorf(where, fmt.Sprintf("line %d, character %d", pe.Line, pe.Column), "%s", msg)
	}
	if err == io.EOF {
		return &input.Error{Where: where, Msg: "the file is empty"}
	}
	return &input.Error{Where: where, Msg: err.Error()}
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = input.Quote(s)
	}
	return strings.Join(q, ", ")
}
