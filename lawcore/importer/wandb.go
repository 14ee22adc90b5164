package importer

import (
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// A Weights & Biases panel export (the CSV download of a line plot) has a step column and,
// for each run, `<run> - <metric>` with `<run> - <metric>__MIN` and `__MAX` (the range over a
// group, or over the points a bucket of the plot merged). An empty cell means the run logged
// no value at that step.

// wandbSeparator separates the run's name from the metric in a W&B column name.
const wandbSeparator = " - "

// wandbHeader reports whether a header is that of a W&B export: a step column, and every
// other column `<run> - <metric>`.
func wandbHeader(header []string) bool {
	step := findColumn(header, stepNamesAll)
	if step < 0 {
		return false
	}
	others := make([]string, 0, len(header))
	for i, h := range header {
		if i != step {
			others = append(others, h)
		}
	}
	return wandbColumns(others)
}

// wandbColumns reports whether every column is named `<run> - <metric>` (and there is one).
func wandbColumns(cols []string) bool {
	for _, h := range cols {
		if !strings.Contains(h, wandbSeparator) {
			return false
		}
	}
	return len(cols) > 0
}

// splitWandBColumn splits `<run> - <metric>` at the last separator: run names may contain it,
// metric names rarely do.
func splitWandBColumn(h string) (run, metric string) {
	i := strings.LastIndex(h, wandbSeparator)
	return strings.TrimSpace(h[:i]), strings.TrimSpace(h[i+len(wandbSeparator):])
}

// readWandB reads a W&B panel export: one series per run and metric, the __MIN and __MAX
// columns left out.
func readWandB(set *fileReader, t *tableReader) error {
	set.format = FormatWandB
	header := t.header
	stepCol := findColumn(header, stepNamesAll)
	set.stepSource, set.stepField = header[stepCol], t.column(stepCol)
	set.noLoss = input.Errorf(set.where, lineField(t.headerLine, ""),
		"no loss metric: the export has %s", quoteNames(header))
	type wcol struct {
		i                  int
		run, metric, field string
	}
	var cols []wcol
	seen := map[[2]string]int{} // W&B lets two runs share a name: their values must not mix
	for i, h := range header {
		if i == stepCol {
			continue
		}
		run, metric := splitWandBColumn(h)
		if strings.HasSuffix(metric, "__MIN") || strings.HasSuffix(metric, "__MAX") || findColumn([]string{metric}, stepNamesAll) == 0 {
			continue
		}
		if j, ok := seen[[2]string{run, metric}]; ok && set.wants(metric) {
			return input.Errorf(set.where, lineField(t.headerLine, ""),
				"the export has two columns %s (columns %d and %d): two runs share the name %s; rename one in W&B, or export them apart", input.Quote(h), j+1, i+1, input.Quote(run))
		}
		seen[[2]string{run, metric}] = i
		if set.wants(metric) {
			set.declare(metric)
			cols = append(cols, wcol{i, run, metric, t.column(i)})
		} else {
			set.offer(metric)
		}
	}
	err := t.each(set, func(line int, rec []string) error {
		if strings.TrimSpace(rec[stepCol]) == "" {
			for _, c := range cols {
				if strings.TrimSpace(rec[c.i]) != "" {
					return input.Errorf(set.where, lineField(line, set.stepField), "the step is missing")
				}
			}
			return nil
		}
		step, err := set.parseStep(line, rec[stepCol])
		if err != nil {
			return err
		}
		for _, c := range cols {
			if strings.TrimSpace(rec[c.i]) == "" {
				continue
			}
			s, err := set.seriesFor(c.run, c.metric, header[c.i], c.field)
			if err != nil {
				return err
			}
			if err := set.addText(s, line, step, rec[c.i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if set.rows == 0 {
		return input.Errorf(set.where, "", "the export has a header but no data rows")
	}
	return nil
}
