package importer

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// tableReader reads a CSV or TSV file with the conventions of a CSV export: the delimiter
// sniffed from the first line, # comments, blank lines skipped, errors naming line and
// character.
type tableReader struct {
	r          *csv.Reader
	header     []string
	headerLine int
	where      string
}

func openTable(where string, data []byte) (*tableReader, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sniffDelimiter(data)
	r.Comment = '#'
	r.TrimLeadingSpace = true
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil, csvError(where, err)
	}
	header = append([]string(nil), header...)
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	line, _ := r.FieldPos(0)
	return &tableReader{r: r, header: header, headerLine: line, where: where}, nil
}

// each calls fn with every data row that is not blank and its line, counting rows against
// MaxRows. The record is reused between calls.
func (t *tableReader) each(set *fileReader, fn func(line int, rec []string) error) error {
	for {
		rec, err := t.r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(t.where, err)
		}
		line, _ := t.r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if err := set.row(line); err != nil {
			return err
		}
		if err := fn(line, rec); err != nil {
			return err
		}
	}
}

// column names column i in messages: "column 2 (loss)".
func (t *tableReader) column(i int) string {
	return fmt.Sprintf("column %d (%s)", i+1, t.header[i])
}

// readTable reads a table: a TensorBoard export, a W&B export, or any CSV or TSV.
func readTable(set *fileReader, data []byte) error {
	t, err := openTable(set.where, data)
	if err != nil {
		return err
	}
	switch {
	case tensorBoardHeader(t.header):
		return readTensorBoardCSV(set, t)
	case wandbHeader(t.header):
		return readWandB(set, t)
	case lightningHeader(t.header):
		return readCSV(set, t, FormatLightning, false)
	}
	return readCSV(set, t, FormatCSV, true)
}

// readCSV reads a CSV or TSV file whose header names a step column, loss columns, perhaps
// a learning-rate column and a run column, as format. A strict file (hand-made) is read
// strictly, except that an empty cell means no value at that step (so that a validation loss
// logged every so many steps can share a file with the training loss).
func readCSV(set *fileReader, t *tableReader, format string, strict bool) error {
	set.format, set.strict = format, strict
	header := t.header
	stepCol := findColumn(header, stepNamesAll)
	if stepCol < 0 {
		if len(header) > 1 && wandbColumns(header[1:]) {
			return input.Errorf(set.where, lineField(t.headerLine, ""),
				"this W&B export has %s on the x axis: export the panel with Step on the x axis", input.Quote(header[0]))
		}
		if _, numErr := strconv.ParseFloat(header[0], 64); numErr == nil {
			return input.Errorf(set.where, lineField(t.headerLine, ""),
				"the first line should be a header naming the columns, such as step,loss,lr")
		}
		return input.Errorf(set.where, lineField(t.headerLine, ""),
			"no step column: the header has %s (a step column is called step or iteration, a loss column loss, val_loss or lm loss)",
			quoteNames(header))
	}
	set.stepSource, set.stepField = header[stepCol], t.column(stepCol)
	set.noLoss = input.Errorf(set.where, lineField(t.headerLine, ""),
		"no loss column: the header has %s (a loss column is called loss, val_loss or lm loss)", quoteNames(header))
	runCol := -1
	for _, want := range runNames {
		for i, h := range header {
			if runCol < 0 && i != stepCol && strings.EqualFold(h, want) && !(set.choice.Column != "" && strings.EqualFold(h, set.choice.Column)) {
				runCol = i
			}
		}
	}
	var valueCols []int
	fields := make([]string, len(header))
	seen := map[string]int{} // a column read, by name: one read twice would mix two series
	for i, h := range header {
		fields[i] = t.column(i)
		if i != runCol && (strings.EqualFold(h, header[stepCol]) || set.wants(h)) { // (names trimmed by openTable)
			key := strings.ToLower(h)
			if j, ok := seen[key]; ok {
				return input.Errorf(set.where, lineField(t.headerLine, ""),
					"the header names %s twice (columns %d and %d): rename one", input.Quote(h), j+1, i+1)
			}
			seen[key] = i
		}
		if i == stepCol || i == runCol {
			continue
		}
		if set.wants(h) {
			set.declare(h)
			valueCols = append(valueCols, i)
		} else {
			set.offer(h)
		}
	}
	// Each value column's series, for the run of the row before: looked up by name only when
	// the run changes (a map lookup per value was an eighth of reading a million-row file).
	type columnSeries struct {
		run    string
		series *valueSeries
	}
	current := make([]columnSeries, len(header))
	err := t.each(set, func(line int, rec []string) error {
		if strings.TrimSpace(rec[stepCol]) == "" {
			for _, c := range valueCols {
				if strings.TrimSpace(rec[c]) != "" {
					return input.Errorf(set.where, lineField(line, set.stepField), "the step is missing")
				}
			}
			return nil
		}
		step, err := set.parseStep(line, rec[stepCol])
		if err != nil {
			return err
		}
		run := ""
		if runCol >= 0 {
			run = strings.TrimSpace(rec[runCol])
		}
		for _, c := range valueCols {
			if strings.TrimSpace(rec[c]) == "" {
				set.blank(run, header[c], line)
				continue
			}
			s := current[c].series
			if s == nil || current[c].run != run {
				var err error
				if s, err = set.seriesFor(run, header[c], header[c], fields[c]); err != nil {
					return err
				}
				current[c] = columnSeries{run, s}
			}
			if err := set.addText(s, line, step, rec[c]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if set.rows == 0 {
		return input.Errorf(set.where, "", "the file has a header but no data rows")
	}
	return nil
}
