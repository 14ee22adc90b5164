package importer

import (
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// The importers read every candidate column of a file into series, one per (run, column);
// the choice then picks the series that become curves. Checks on the values that depend on
// how a series is used (a loss must be positive, a learning rate only not negative) wait until
// then, and so do the errors of series nobody chose.

const (
	// maxSeries bounds the (run, column) series read from one file.
	maxSeries = 4096
	// maxPoints bounds the values kept from one file, over all its series.
	maxPoints = 4 * MaxRows
	// maxStep is the largest step: whole numbers are exact in a float64 up to 2^53.
	maxStep = 1 << 53
	// maxOthers bounds the columns offered by name only.
	maxOthers = 256
)

// valueSeries is one column of values (for one run) read from a file, with the line of
// each value.
type valueSeries struct {
	run, metric string
	file        string // the file it was first read from (where, at the time)
	source      string // the column or key, for Source
	field       string // names the field after "line L, " in messages ("" for none)
	isLR        bool   // named like a learning rate
	steps       []float64
	values      []float64
	lines       []int32
	err         error // the first error in the series, reported if the series is used

	// Lenient formats keep the values as they came; segments mark where the steps went back,
	// and settle puts them in order once the file is read.
	segments              []segment
	lastFile              string // the file of the last value, to tell a file of a run's own from the next
	repeated              int    // steps logged again: the last value is kept
	unordered             int    // steps logged after a later step, put in step order
	replaced              int    // values of an earlier run replaced by a restart
	repeat, late, restart jump   // the first of each, for the notes
	nonFinite             int    // values skipped as not finite (lenient formats)
	nonFiniteLine         int
	nonFiniteWhere        string // the file of nonFiniteLine
}

// label names the series in notes and messages.
func (s *valueSeries) label() string {
	if s.run != "" {
		return strconv.Quote(s.metric) + " of run " + strconv.Quote(s.run)
	}
	return strconv.Quote(s.metric)
}

// fileReader collects the series of one file.
type fileReader struct {
	name, where string
	choice      Choice
	format      string
	// strict formats (hand-made CSV) report bad values and steps out of order as errors;
	// machine-written ones (exports, logs) skip non-finite values and keep the last value of a
	// step logged again, with a note.
	strict     bool
	stepSource string // the step column's name, for Source
	stepField  string // the step column in messages, such as "column 1 (step)"
	// unit names what the numbers of positions count in messages: "line" (the default) for
	// text, "record" for an event file.
	unit string
	// nameByMetric names curves after their column (an event file's name says nothing of
	// what it holds) instead of after the file.
	nameByMetric bool
	// notes are said of the file as a whole, before the notes of its curves.
	notes []string
	// inFolder reads the file as part of a folder (ReadFiles): every run of a file holding
	// several is taken instead of asking which, and learning-rate files are joined to their
	// loss by the folder.
	inFolder bool
	noLoss   error // the error when the file has no loss values at all
	series   []*valueSeries
	byKey    map[[2]string]*valueSeries
	points   int
	rows     int
	others   []string // value columns not named like a loss or LR: offered by name
	columns  []string // the value columns read, whether or not they hold values
	declared map[string]bool
	wanted   map[string]bool // wants, remembered
	offered  map[string]bool
	// blanks counts the rows of a (run, column) whose cell was empty (a CSV's), said of the
	// loss chosen, for its steps are left out
	blanks map[[2]string]*blankCells
}

// blankCells are the rows a column left empty: how many, and the first's line.
type blankCells struct{ rows, line int }

// blank records that (run, metric) has no value on the row at line.
func (set *fileReader) blank(run, metric string, line int) {
	key := [2]string{run, metric}
	if set.blanks == nil {
		set.blanks = map[[2]string]*blankCells{}
	}
	if b := set.blanks[key]; b != nil {
		b.rows++
		return
	}
	set.blanks[key] = &blankCells{rows: 1, line: line}
}

func newFileReader(name, where string, choice Choice) *fileReader {
	return &fileReader{name: name, where: where, choice: choice, byKey: map[[2]string]*valueSeries{},
		wanted: map[string]bool{}, offered: map[string]bool{}}
}

// wants reports whether the values of a column are kept: it is named like a loss or a
// learning rate, or chosen.
func (set *fileReader) wants(metric string) bool {
	if w, ok := set.wanted[metric]; ok {
		return w
	}
	w := isLossName(metric) || isLRName(metric) ||
		(set.choice.Column != "" && strings.EqualFold(strings.TrimSpace(metric), strings.TrimSpace(set.choice.Column)))
	if len(set.wanted) < maxSeries {
		set.wanted[metric] = w
	}
	return w
}

// declare records a value column that is read, so that a choice naming it finds it even
// when it holds no values.
func (set *fileReader) declare(metric string) {
	if set.declared == nil {
		set.declared = map[string]bool{}
	}
	if !set.declared[metric] && len(set.columns) < maxSeries {
		set.declared[metric] = true
		set.columns = append(set.columns, metric)
	}
}

// offer records a column not named like a loss or a learning rate, to be offered by name when
// no column is.
func (set *fileReader) offer(metric string) {
	if set.offered[metric] || len(set.others) >= maxOthers || isIgnoredName(metric) {
		return
	}
	set.offered[metric] = true
	set.others = append(set.others, metric)
}

// seriesFor returns the series of (run, metric), creating it with the given source and field.
func (set *fileReader) seriesFor(run, metric, source, field string) (*valueSeries, error) {
	key := [2]string{run, metric}
	if s := set.byKey[key]; s != nil {
		return s, nil
	}
	if len(set.series) >= maxSeries {
		what := input.Quote(metric)
		if run != "" {
			what += " of run " + input.Quote(run)
		}
		return nil, input.Errorf(set.where, "", "more than %d series (one per metric and run): %s would be number %d, and one file may hold %d; keep fewer metrics or runs in it",
			maxSeries, what, maxSeries+1, maxSeries)
	}
	s := &valueSeries{run: run, metric: metric, file: set.where, lastFile: set.where, source: source, field: field, isLR: isLRName(metric) && !isLossName(metric)}
	set.series = append(set.series, s)
	set.byKey[key] = s
	return s, nil
}

// row counts a data row (or JSON entry, or log line with values) at line, enforcing MaxRows.
func (set *fileReader) row(line int) error {
	set.rows++
	if set.rows > MaxRows {
		return input.Errorf(set.where, set.at(line, ""), "more than %d rows: thin the curve first", MaxRows)
	}
	return nil
}

// parseStep reads a step: a whole number, zero or more.
func (set *fileReader) parseStep(line int, text string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, input.Errorf(set.where, set.at(line, set.stepField), "%s is not a number", input.Quote(text))
	}
	return set.checkStep(line, v)
}

// checkStep checks a step read as a number.
func (set *fileReader) checkStep(line int, v float64) (float64, error) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) || v < 0:
		return 0, input.Errorf(set.where, set.at(line, set.stepField), "a step must be a whole number, zero or more, got %v", v)
	case v > maxStep:
		return 0, input.Errorf(set.where, set.at(line, set.stepField), "step %v is too large", v)
	}
	return v, nil
}

// addText parses text and adds it to s at step; a value that is not a number is an error of
// the series.
func (set *fileReader) addText(s *valueSeries, line int, step float64, text string) error {
	t := strings.TrimSpace(text)
	v, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		if s.err == nil {
			s.err = input.Errorf(set.where, set.at(line, s.field), "%s is not a number", input.Quote(text))
		}
		return nil
	}
	return set.add(s, line, step, v, text)
}

// add appends (step, value) to s. Strict formats record an error in the series for a value
// that is not finite or a step out of order; the others skip the value, or keep it where the
// steps went back, for settle to sort out once the file is read.
func (set *fileReader) add(s *valueSeries, line int, step, v float64, text string) error {
	if s.err != nil {
		return nil
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		if set.strict {
			s.err = input.Errorf(set.where, set.at(line, s.field), "%s is not a finite number", input.Quote(text))
			return nil
		}
		if s.nonFinite == 0 {
			s.nonFiniteLine, s.nonFiniteWhere = line, set.where
		}
		s.nonFinite++
		return nil
	}
	line32 := int32(min(line, math.MaxInt32)) // as s.lines keeps it
	if n := len(s.steps); n > 0 && step <= s.steps[n-1] {
		last := s.steps[n-1]
		if set.strict {
			at := set.at(line, set.stepField)
			if step == last {
				s.err = input.Errorf(set.where, at, "step %v appears twice", step)
			} else {
				s.err = input.Errorf(set.where, at, "steps must increase: %v comes after %v", step, last)
			}
			return nil
		}
		s.segments = append(s.segments, segment{start: n, where: set.where, newFile: set.where != s.lastFile})
	}
	s.lastFile = set.where
	set.points++
	if set.points > maxPoints {
		return input.Errorf(set.where, set.at(line, ""), "more than %d values: thin the curves or export fewer runs", maxPoints)
	}
	s.steps = append(s.steps, step)
	s.values = append(s.values, v)
	s.lines = append(s.lines, line32)
	return nil
}

// segment is where a series' steps went back: its values from start on, up to the next
// segment, increase again.
type segment struct {
	start   int
	where   string // the file it starts in
	newFile bool   // it starts a file of the run's own, after its earlier files
}

// jump is where steps went back, for a note: the file and line, the step and the one before.
type jump struct {
	line        int
	where       string
	step, after float64
}

// point is one value of a series with its step and line.
type point struct {
	step, value float64
	line        int32
}

// settle puts the values of a lenient series in step order where its steps went back, by what
// the going back means:
//   - a restart: steps that start again at a step already logged (a job resumed from a
//     checkpoint) and go on, or a run's next file that starts at or before the last step so
//     far. The values the earlier run logged from there on are dropped (counted as replaced),
//     as TensorBoard drops them: they belong to a run that was abandoned.
//   - otherwise a value or a few out of order (a line filed late, a log written backwards):
//     each takes its place in step order, and one of a step logged again replaces it.
//
// Within a file, going back is a restart only if the file is in the order the run logged it
// (see loggedInOrder); else every value takes its place and each step keeps its last value.
func (s *valueSeries) settle() {
	if len(s.segments) == 0 {
		return
	}
	inOrder := s.loggedInOrder()
	at := func(i int) point { return point{s.steps[i], s.values[i], s.lines[i]} }
	out := make([]point, 0, len(s.steps))
	for i := range s.segments[0].start {
		out = append(out, at(i))
	}
	var pending []point // values out of order, merged into out before a restart and at the end
	merge := func() {
		if len(pending) == 0 {
			return
		}
		// out is in order with no step twice; pending comes after it, in the order it came:
		// a stable sort keeps a step's later values after its earlier ones, and the last wins
		all := append(out, pending...)
		sort.SliceStable(all, func(i, j int) bool { return all[i].step < all[j].step })
		out = all[:0]
		for i, p := range all {
			if i+1 < len(all) && all[i+1].step == p.step {
				continue
			}
			out = append(out, p)
		}
		pending = pending[:0]
	}
	for g, seg := range s.segments {
		end := len(s.steps)
		if g+1 < len(s.segments) {
			end = s.segments[g+1].start
		}
		first, before := s.steps[seg.start], s.steps[seg.start-1]
		merge()
		k := sort.Search(len(out), func(i int) bool { return out[i].step >= first })
		logged := k < len(out) && out[k].step == first
		if end-seg.start >= 2 && (logged && inOrder || seg.newFile) {
			if s.replaced == 0 {
				s.restart = jump{int(s.lines[seg.start]), seg.where, first, before}
			}
			s.replaced += len(out) - k
			out = out[:k]
			for i := seg.start; i < end; i++ {
				out = append(out, at(i))
			}
			continue
		}
		for i := seg.start; i < end; i++ {
			p := at(i)
			j := sort.Search(len(out), func(i int) bool { return out[i].step >= p.step })
			switch {
			case j < len(out) && out[j].step == p.step:
				if s.repeated == 0 {
					s.repeat = jump{int(p.line), seg.where, p.step, before}
				}
				s.repeated++
			case j < len(out):
				if s.unordered == 0 {
					s.late = jump{int(p.line), seg.where, p.step, before}
				}
				s.unordered++
			}
			if j < len(out) {
				pending = append(pending, p)
			} else {
				out = append(out, p) // past every step so far: in order
			}
			before = p.step
		}
	}
	merge()
	s.segments = nil
	s.steps, s.values, s.lines = s.steps[:0], s.values[:0], s.lines[:0]
	for _, p := range out {
		s.steps, s.values, s.lines = append(s.steps, p.step), append(s.values, p.value), append(s.lines, p.line)
	}
}

// loggedInOrder reports whether the series' files hold its values in the order the run logged
// them. A restart resumes from a step the run had reached, so in a log written as the run went,
// steps never go back before every step logged so far; a stretch of values (two or more) that
// does was put there by whatever wrote the file, such as jobs' logs joined latest first. Then
// going back says nothing of abandoned runs, and dropping "their" values would drop the run's own
// (the end of the run, when the latest job comes first). A run's later file goes back to its
// first step when the run restarted from scratch: files are not counted.
func (s *valueSeries) loggedInOrder() bool {
	lowest := slices.Min(s.steps[:s.segments[0].start])
	for g, seg := range s.segments {
		end := len(s.steps)
		if g+1 < len(s.segments) {
			end = s.segments[g+1].start
		}
		if end == seg.start {
			continue
		}
		if !seg.newFile && end-seg.start >= 2 && s.steps[seg.start] < lowest {
			return false
		}
		lowest = min(lowest, slices.Min(s.steps[seg.start:end]))
	}
	return true
}

// at names a position (a line, or a record) and, when there is one, a field at it:
// "line 3, column 2 (loss)", "record 17, step".
func (set *fileReader) at(n int, field string) string {
	s := set.unitName() + " " + strconv.Itoa(n)
	if field != "" {
		s += ", " + field
	}
	return s
}

// atIn names a position (as at does) in file where, naming the file when it is not the one
// the reader as a whole is named by (a run read from several files).
func (set *fileReader) atIn(where string, n int) string {
	s := set.at(n, "")
	if where != "" && where != set.where {
		s += " of " + where
	}
	return s
}

// unitName is what positions count: "line" or "record".
func (set *fileReader) unitName() string {
	if set.unit == "" {
		return "line"
	}
	return set.unit
}

// quoteNames quotes names and joins them with commas, giving at most 20.
func quoteNames(names []string) string {
	if len(names) > 20 {
		return quoteList(names[:20]) + ", ..."
	}
	return quoteList(names)
}

// plural counts n things: "1 step was" or "3 steps were", given the words that follow
// the number for one and for several.
func plural(n int, several, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + several
}
