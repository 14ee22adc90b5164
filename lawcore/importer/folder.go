package importer

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// A folder of runs, dropped whole (or several files given together, or a zip archive), is read
// by ReadFiles. Its files are grouped into runs by where they lie:
//
//   - the TensorBoard event files of one directory are one run, read in the order they were
//     written (a job restarted writes a new file: what the files before it logged from its first
//     step on is dropped, as TensorBoard drops it);
//     event files given without a directory are a run each;
//   - the metric files of an MLflow run (<run>/metrics/<key>) are one run, named by its
//     tags/mlflow.runName when the folder has it; its params/, tags/ and meta.yaml are skipped;
//   - any other file (a Lightning version_N/metrics.csv, a CSV, a trainer_state.json, a log) is
//     read as Read reads it, and belongs to the run of its directory.
//
// Runs are named by their directories, less the directories all runs share ("cosine",
// "lightning_logs/version_0" -> "version_0"), and curves "<run> <metric>". Within a
// directory, learning rates read apart from the loss (an LR-only file) are joined to the loss
// curves as PairLR and MergeLR join them. Files that hold no log, and runs that cannot be read,
// are listed in the notes with the reason; it is an error only when nothing at all is read.

// unitKind says what a unit holds.
type unitKind int

const (
	unitFile   unitKind = iota // one file, read as Read reads it
	unitEvents                 // the event files of one directory
	unitMLflow                 // the metric files of one MLflow run
)

// unit is what one fileReader reads.
type unit struct {
	kind    unitKind
	dir     string // the run's directory ("" at the top)
	label   string // names the unit in messages and notes
	entries []entry
	keys    []string // MLflow: the metric key of each entry
}

// paths lists the unit's files.
func (u *unit) paths() []string {
	ps := make([]string, len(u.entries))
	for i, e := range u.entries {
		ps[i] = e.path
	}
	return ps
}

// read reads the unit's series.
func (u *unit) read(choice Choice) (*fileReader, error) {
	switch u.kind {
	case unitEvents:
		set := newFileReader(u.label, u.label, choice)
		er := newEventReader(set)
		er.nameFiles = len(u.entries) > 1
		for _, e := range u.entries {
			set.where = e.path
			if err := er.read(e.data); err != nil {
				return nil, err
			}
		}
		set.where = u.label
		return set, er.finish()
	case unitMLflow:
		set := newFileReader(u.label, u.label, choice)
		for i, e := range u.entries {
			set.where = e.path
			if err := readMLflow(set, u.keys[i], e.data); err != nil {
				return nil, err
			}
		}
		set.where = u.label
		set.noLoss = input.Errorf(u.label, "", "no metric of the run is named like a loss: its metrics are %s", quoteNames(u.keys))
		return set, nil
	}
	e := u.entries[0]
	return readSeries(e.name, e.path, e.data, choice)
}

// files lists the files a curve of the unit was read from: its loss's and its learning
// rates' (for an MLflow run), or the unit's.
func (u *unit) files(set *fileReader, c *Curve) []string {
	if u.kind != unitMLflow {
		return u.paths()
	}
	var files []string
	if s := set.byKey[[2]string{c.Run, c.Metric}]; s != nil {
		files = append(files, s.file)
	}
	if c.HasLR && c.HasLoss {
		for _, s := range set.series {
			if s.isLR && s.run == c.Run && s.source == c.Source.LR {
				files = append(files, s.file)
				break
			}
		}
	}
	return files
}

// groupUnits groups the files into units: the event files of each directory, the metric files
// of each MLflow run, every other file alone; the files in root are at the top, as if given
// without a directory. It returns the MLflow runs' names (from tags/mlflow.runName) by run
// directory, and MLflow's bookkeeping files as skipped.
func groupUnits(entries []entry, root string) ([]*unit, map[string]string, []skip) {
	mlflowRuns := map[string]bool{}
	for _, e := range entries {
		if rd, _, ok := mlflowMetricKey(e.path); ok && !isTFRecord(e.data) && looksLikeMLflow(e.data) {
			mlflowRuns[rd] = true
		}
	}
	var units []*unit
	var skipped []skip
	names := map[string]string{}
	events, mlflow := map[string]*unit{}, map[string]*unit{}
	for _, e := range entries {
		dir := dirOf(e.path)
		if dir == root {
			dir = ""
		}
		if rd, ok := mlflowRunOf(e.path, mlflowRuns); ok {
			if strings.TrimPrefix(e.path, rd+"/") == mlflowRunNameTag {
				names[rd] = mlflowRunName(e.data)
			}
			skipped = append(skipped, skip{e.path, "MLflow run metadata, not a metric"})
			continue
		}
		switch rd, key, ok := mlflowMetricKey(e.path); {
		case isTFRecord(e.data) && (dir != "" || root != ""):
			// the event files of a directory are one run, and so are those at an archive's top:
			// the archive is their directory (files given one by one have none)
			u := events[dir]
			if u == nil {
				label := dir
				if dir == "" {
					label = root
				}
				u = &unit{kind: unitEvents, dir: dir, label: label}
				events[dir] = u
				units = append(units, u)
			}
			u.entries = append(u.entries, e)
		case ok && mlflowRuns[rd] && looksLikeMLflow(e.data):
			u := mlflow[rd]
			if u == nil {
				u = &unit{kind: unitMLflow, dir: rd, label: rd}
				if rd == "" {
					u.label = "metrics"
				}
				mlflow[rd] = u
				units = append(units, u)
			}
			u.entries, u.keys = append(u.entries, e), append(u.keys, key)
		default:
			units = append(units, &unit{kind: unitFile, dir: dir, label: e.path, entries: []entry{e}})
		}
	}
	for _, u := range units {
		switch {
		case u.kind == unitEvents && len(u.entries) == 1:
			u.label = u.entries[0].path
		case u.kind == unitEvents:
			ps := u.paths()
			sortEventFiles(ps)
			byPath := map[string]entry{}
			for _, e := range u.entries {
				byPath[e.path] = e
			}
			for i, p := range ps {
				u.entries[i] = byPath[p]
			}
		}
	}
	sort.SliceStable(units, func(i, j int) bool {
		if units[i].dir != units[j].dir {
			return units[i].dir < units[j].dir
		}
		return units[i].entries[0].path < units[j].entries[0].path
	})
	return units, names, skipped
}

// mlflowRunOf returns the MLflow run whose bookkeeping (params/, tags/, meta.yaml, or its
// experiment's meta.yaml) a path is, if any.
func mlflowRunOf(p string, runs map[string]bool) (string, bool) {
	for rd := range runs {
		prefix := ""
		if rd != "" {
			prefix = rd + "/"
		}
		if rest, ok := strings.CutPrefix(p, prefix); ok &&
			(strings.HasPrefix(rest, "params/") || strings.HasPrefix(rest, "tags/") || rest == "meta.yaml") {
			return rd, true
		}
		if rd != "" && p == path.Join(path.Dir(rd), "meta.yaml") {
			return rd, true
		}
	}
	return "", false
}

// dirOf is a path's directory, "" for a file at the top.
func dirOf(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// unitRead is a unit read and resolved.
type unitRead struct {
	u      *unit
	set    *fileReader
	curves []*Curve
}

// unitAmbiguity is a unit whose loss column is left to choose.
type unitAmbiguity struct {
	label   string
	message string
	columns []Option
}

// readFolder reads the files of a folder (or archive) named where, whose paths start with
// the directory root ("" for none: the files at root are at the top); nothing says what it is
// when no file can be read.
func readFolder(where, root, nothing string, entries []entry, skipped []skip, choice Choice) (*Result, error) {
	units, mlflowNames, sk := groupUnits(entries, root)
	skipped = append(skipped, sk...)
	imp := &Result{Name: where, Curves: []*Curve{}, Notes: []string{}}
	var done []unitRead
	var ambiguous []unitAmbiguity
	var columns []FileColumns // each unit's loss candidates, for the column they agree on
	points := 0
	for _, u := range units {
		set, err := u.read(choice)
		if err != nil {
			skipped = append(skipped, skipOf(u.label, err))
			continue
		}
		points += set.points
		if points > maxPoints {
			return nil, input.Errorf(where, "", "more than %d values in all: give fewer runs at a time", maxPoints)
		}
		res, err := resolveInFolder(u, set, choice)
		if err != nil {
			skipped = append(skipped, skipOf(u.label, err))
			continue
		}
		if res.Ambiguity != nil && res.Ambiguity.Columns != nil {
			columns = append(columns, FileColumns{Name: u.label, Candidates: res.Ambiguity.Columns})
		} else if res.Loss != nil {
			columns = append(columns, FileColumns{Name: u.label, Chosen: res.Loss.Column, Candidates: res.Loss.Candidates})
		}
		if res.Ambiguity != nil {
			ambiguous = append(ambiguous, unitAmbiguity{u.label, res.Ambiguity.Message, res.Ambiguity.Columns})
			continue
		}
		for _, n := range res.Notes {
			imp.Notes = append(imp.Notes, u.label+": "+n)
		}
		done = append(done, unitRead{u, set, res.Curves})
	}
	agreed := Agree(columns)
	if len(ambiguous) > 0 {
		imp.Ambiguity = folderAmbiguity(ambiguous)
		if imp.Ambiguity.Columns != nil {
			imp.Ambiguity.Columns = markSummaries(imp.Ambiguity.Columns)
			imp.Ambiguity.Default, imp.Ambiguity.Reason = agreed.Column, agreed.Reason
		}
		imp.Notes = append(imp.Notes, skippedNotes(skipped)...)
		return imp, nil
	}
	if choice.Column == "" && slices.ContainsFunc(columns, func(f FileColumns) bool { return len(f.Candidates) > 1 }) {
		// the units read their only series beside summaries: say once why
		imp.Notes = append(imp.Notes, agreed.Reason)
	}
	if choice.Column == "" {
		imp.Notes = append(imp.Notes, agreed.Notes...)
	}
	nameCurves(done, mlflowNames)
	curves, notes := pairInFolder(done)
	imp.Notes = append(imp.Notes, notes...)
	curves, err := chooseRuns(where, curves, choice.Runs)
	if err != nil {
		return nil, err
	}
	imp.Curves = curves
	imp.Notes = append(imp.Notes, skippedNotes(skipped)...)
	if len(imp.Curves) == 0 {
		return nil, input.Errorf(where, "", "%s: %s", nothing, skippedSummary(skipped))
	}
	return imp, nil
}

// resolveInFolder resolves a unit of a folder: the chosen column if it has it, else its only
// candidate, and every run of a file holding several. A unit with no column named like a loss or
// a learning rate, or with several candidates when the choice names another column, is an error
// (the unit is skipped).
func resolveInFolder(u *unit, set *fileReader, choice Choice) (*Result, error) {
	ch := Choice{Column: strings.TrimSpace(choice.Column)}
	if ch.Column != "" {
		if _, err := set.findMetric(ch.Column); err != nil {
			ch.Column = ""
		}
	}
	loss, lr := set.metrics()
	if ch.Column == "" && len(loss) == 0 && len(lr) == 0 {
		if len(set.others) > 0 {
			return nil, input.Errorf(u.label, "", "no column is named like a loss or a learning rate: the file has %s", quoteNames(set.others))
		}
		if set.noLoss != nil {
			return nil, set.noLoss
		}
		return nil, input.Errorf(u.label, "", "found no loss values")
	}
	set.choice, set.inFolder = ch, true
	res, err := set.resolve()
	if err != nil {
		return nil, err
	}
	if res.Ambiguity != nil && choice.Column != "" {
		return nil, input.Errorf(u.label, "", "%s may be the loss, and none is called %s: choose one of them to read it",
			quoteNames(optionNames(res.Ambiguity.Columns)), input.Quote(choice.Column))
	}
	return res, nil
}

// optionNames lists the options' names.
func optionNames(opts []Option) []string {
	names := make([]string, len(opts))
	for i, o := range opts {
		names[i] = o.Name
	}
	return names
}

// folderAmbiguity merges the column ambiguities of a folder's units: the columns of all, by
// name.
func folderAmbiguity(ambiguous []unitAmbiguity) *Ambiguity {
	amb := &Ambiguity{}
	index := map[string]int{}
	labels := make([]string, len(ambiguous))
	for i, a := range ambiguous {
		labels[i] = a.label
		for _, o := range a.columns {
			j, ok := index[o.Name]
			if !ok {
				index[o.Name] = len(amb.Columns)
				amb.Columns = append(amb.Columns, o)
				continue
			}
			m := &amb.Columns[j]
			if o.Points > 0 && (m.Points == 0 || o.FirstStep < m.FirstStep) {
				m.FirstStep = o.FirstStep
			}
			if o.Points > 0 && (m.Points == 0 || o.LastStep > m.LastStep) {
				m.LastStep = o.LastStep
			}
			m.Points += o.Points
		}
	}
	if len(ambiguous) == 1 {
		amb.Message = ambiguous[0].message
	} else {
		amb.Message = fmt.Sprintf("%d files have several columns that may be the loss (%s): choose one (a file without it keeps its only candidate)",
			len(ambiguous), strings.Join(labels[:min(len(labels), maxSkippedListed)], ", "))
	}
	return amb
}
