package importer

import (
	"fmt"
	"maps"
	"path"
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

// File is one file given to [ReadFiles].
type File struct {
	// Path is the file's path inside the folder given, with / between directories, such as
	// "runs/cosine/events.out.tfevents.1700000000.host.1.0" (or its bare name, for files given
	// one by one): it names the file in messages, and its directory says which run the file
	// belongs to.
	Path string `json:"path"`
	// Data is the file's content.
	Data []byte `json:"-"`
}

// maxSkippedListed bounds the paths one note of skipped files names.
const maxSkippedListed = 5

// entry is a file to read: the path naming it, the name its content is read under (a gzip
// file's without .gz) and its content.
type entry struct {
	path, name string
	data       []byte
}

// ReadFiles reads the logs of a folder (or of several files given together): every file it
// can read, TensorBoard event files and MLflow metric files grouped by run, gzip files
// decompressed and zip and tar archives opened. Each curve is named "<run> <metric>" and lists in
// Files the files it was read from; the notes list the files skipped and why. Choice.Column
// picks the loss column in every file that has one of that name (the others keep their only
// candidate); when a file has several candidates and no choice settles it, the result has an
// Ambiguity listing the columns, and no curves. Choice.Runs, when set, keeps the runs it names
// (Curve.Run). Choice.AsLR is ignored. It is an error only when nothing at all can be read.
func ReadFiles(files []File, choice Choice) (*Result, error) {
	label := folderLabel(files)
	if len(files) == 0 {
		return nil, &input.Error{Where: label, Msg: "no files given"}
	}
	ex := newExpander()
	var entries []entry
	var skipped []skip
	for i, f := range files {
		p := memberName(f.Path)
		if p == "" {
			p = fmt.Sprintf("file %d", i+1)
		}
		es, sk := ex.expand(p, f.Data, false)
		entries, skipped = append(entries, es...), append(skipped, sk...)
	}
	imp, err := readFolder(label, "", "found no log I can read", entries, skipped, choice)
	if err != nil {
		return nil, err
	}
	imp.Format = FormatFolder
	return imp, nil
}

// readArchive reads a zip or tar archive given to Read, as a folder named after it.
func readArchive(name, where string, data []byte, choice Choice, ex *expander) (*Result, error) {
	root := path.Base(strings.ReplaceAll(where, `\`, "/"))
	format := FormatZip
	if isTar(data) {
		format = FormatTar
	}
	members, skipped, err := ex.unpack(where, root, data)
	if err != nil {
		return nil, err
	}
	entries, sk := ex.expandAll(members)
	imp, err := readFolder(where, root, "the archive holds no log I can read", entries, append(skipped, sk...), choice)
	if err != nil {
		return nil, err
	}
	imp.Name, imp.Format = name, format
	return imp, nil
}

// expand turns a file into the files to read: itself, what its gzip holds, or the members of
// its zip or tar archive (not of an archive inside an archive).
func (ex *expander) expand(p string, data []byte, inArchive bool) ([]entry, []skip) {
	switch {
	case len(data) > MaxBytes:
		return nil, []skip{{p, fmt.Sprintf("the file is larger than %d MB", MaxBytes>>20)}}
	case isGzip(data):
		inner, err := ex.gunzip(p, data)
		if err != nil {
			return nil, []skip{skipOf(p, err)}
		}
		switch {
		case isGzip(inner):
			return nil, []skip{{p, "a gzip file inside a gzip file: decompress it first"}}
		case isArchive(inner) && inArchive:
			return nil, []skip{{p, "an archive inside an archive: extract it first"}}
		case isArchive(inner):
			return ex.expandArchive(p, inner)
		}
		return []entry{{p, gunzippedName(p), inner}}, nil
	case isArchive(data) && inArchive:
		return nil, []skip{{p, "an archive inside an archive: extract it first"}}
	case isArchive(data):
		return ex.expandArchive(p, data)
	}
	return []entry{{p, p, data}}, nil
}

// expandArchive returns the members of a zip or tar archive to read, named p/<member>.
func (ex *expander) expandArchive(p string, data []byte) ([]entry, []skip) {
	members, skipped, err := ex.unpack(p, p, data)
	if err != nil {
		return nil, []skip{skipOf(p, err)}
	}
	entries, sk := ex.expandAll(members)
	return entries, append(skipped, sk...)
}

// expandAll expands the members of an archive.
func (ex *expander) expandAll(members []File) ([]entry, []skip) {
	var entries []entry
	var skipped []skip
	for _, m := range members {
		es, sk := ex.expand(m.Path, m.Data, true)
		entries, skipped = append(entries, es...), append(skipped, sk...)
	}
	return entries, skipped
}

// skipOf is a file skipped for an error: the error's file (which may be the file inside an
// archive, or one file of a run) and what it says; a file that is no log, in few words.
func skipOf(p string, err error) skip {
	ie, ok := err.(*input.Error)
	if !ok {
		return skip{p, err.Error()}
	}
	s := skip{p, ie.Msg}
	if ie.Where != "" {
		s.path = ie.Where
	}
	switch {
	case ie.Msg == unknownFormatMsg:
		s.reason = "not a log format I know"
	case ie.Msg == binaryFileMsg:
		s.reason = "a binary file, not a log"
	case ie.Field != "":
		s.reason = ie.Field + ": " + ie.Msg
	}
	return s
}

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
		if res.Ambiguity != nil {
			ambiguous = append(ambiguous, unitAmbiguity{u.label, res.Ambiguity.Message, res.Ambiguity.Columns})
			continue
		}
		for _, n := range res.Notes {
			imp.Notes = append(imp.Notes, u.label+": "+n)
		}
		done = append(done, unitRead{u, set, res.Curves})
	}
	if len(ambiguous) > 0 {
		imp.Ambiguity = folderAmbiguity(ambiguous)
		imp.Notes = append(imp.Notes, skippedNotes(skipped)...)
		return imp, nil
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

// nameCurves names each run after its directory (less the directories all runs share), or its
// MLflow run name, and each curve "<run> <metric>"; it sets the curves' files.
func nameCurves(done []unitRead, mlflowNames map[string]string) {
	var dirs []string
	for _, d := range done {
		if d.u.dir != "" {
			dirs = append(dirs, d.u.dir)
		}
	}
	runs := runDisplayNames(dirs, mlflowNames)
	seen := map[string]int{}
	dirRun := make([]string, len(done)) // the run each unit's directory names
	for i, d := range done {
		run := runs[d.u.dir]
		switch {
		case run != "" || d.set.format != FormatTensorBoardEvents:
		case d.u.kind == unitEvents && d.u.dir == "" && len(d.u.entries) > 1:
			run = fileStem(d.u.label) // the event files at an archive's top: the archive's run
		default:
			run = fileStem(d.u.entries[0].path)
		}
		dirRun[i] = run
		for _, c := range d.curves {
			c.Files = d.u.files(d.set, c)
			if len(c.Files) > 0 {
				c.File = c.Files[0]
			}
			switch {
			case c.Run != "" && run != "":
				c.Run = run + "/" + c.Run
			case c.Run == "":
				c.Run = run
			}
			if c.Run != "" {
				c.Name = c.Run + " " + c.Metric
			}
			seen[c.Name]++
		}
	}
	// Curves that share a name. Plain files of one directory that each hold the same metric,
	// naming no run of their own, are runs saved a file each (runs/cosine.csv, runs/wsd.csv):
	// each is the run of its file. Any others that still share a name say their file.
	shared := maps.Clone(seen)
	for i, d := range done {
		if d.u.kind != unitFile {
			continue
		}
		for _, c := range d.curves {
			if shared[c.Name] > 1 && c.Run == dirRun[i] {
				seen[c.Name]--
				c.Run = strings.TrimPrefix(dirRun[i]+"/"+fileStem(d.u.entries[0].name), "/")
				c.Name = c.Run + " " + c.Metric
				seen[c.Name]++
			}
		}
	}
	for _, d := range done {
		for _, c := range d.curves {
			if seen[c.Name] > 1 {
				c.Name += " (" + c.File + ")"
			}
		}
	}
}

// runDisplayNames names the runs of the directories given: each directory less the directories all
// share above them ("runs/a", "runs/b" -> "a", "b"; one directory -> its last element, without
// .zip), or its MLflow run name.
func runDisplayNames(dirs []string, mlflowNames map[string]string) map[string]string {
	names := map[string]string{}
	if len(dirs) == 0 {
		return names
	}
	common := strings.Split(path.Dir(dirs[0]), "/")
	for _, d := range dirs[1:] {
		parent := strings.Split(path.Dir(d), "/")
		k := 0
		for k < len(common) && k < len(parent) && common[k] == parent[k] {
			k++
		}
		common = common[:k]
	}
	prefix := strings.Join(common, "/")
	used := map[string]bool{}
	for _, d := range dirs {
		if _, ok := names[d]; ok {
			continue
		}
		name := d
		if prefix != "" && prefix != "." {
			name = strings.TrimPrefix(d, prefix+"/")
		}
		name = strings.TrimSuffix(name, ".zip")
		if mn := mlflowNames[d]; mn != "" {
			if used[mn] {
				mn += " (" + name + ")"
			}
			name = mn
		}
		used[name] = true
		names[d] = name
	}
	return names
}

// pairInFolder joins, in each directory, learning-rate curves read apart from their loss to the
// loss curves of the same run (by PairLR and MergeLR), and returns the curves, the
// learning-rate curves joined left out.
func pairInFolder(done []unitRead) ([]*Curve, []string) {
	var dirs []string
	byDir := map[string][]*Curve{}
	for _, d := range done {
		if _, ok := byDir[d.u.dir]; !ok {
			dirs = append(dirs, d.u.dir)
		}
		byDir[d.u.dir] = append(byDir[d.u.dir], d.curves...)
	}
	var out []*Curve
	var notes []string
	for _, dir := range dirs {
		cs := byDir[dir]
		pairs, pn := PairLR(cs)
		notes = append(notes, pn...)
		joined := map[int]bool{}
		for _, p := range pairs {
			loss, lr := cs[p.Loss], cs[p.LR]
			merged, err := MergeLR(loss, lr)
			if err != nil {
				notes = append(notes, err.Error())
				continue
			}
			merged.Files = append(append([]string(nil), loss.Files...), lr.Files...)
			cs[p.Loss] = merged
			joined[p.LR] = true
		}
		for i, c := range cs {
			if !joined[i] {
				out = append(out, c)
			}
		}
	}
	return out, notes
}

// chooseRuns keeps the curves of the runs chosen (all when none is).
func chooseRuns(where string, curves []*Curve, chosen []string) ([]*Curve, error) {
	if len(chosen) == 0 {
		return curves, nil
	}
	var runs []string
	has := map[string]bool{}
	for _, c := range curves {
		if r := curveRunName(c); !has[r] {
			has[r] = true
			runs = append(runs, r)
		}
	}
	want := map[string]bool{}
	for _, r := range chosen {
		if !has[r] {
			return nil, input.Errorf(where, "", "no run %q: the runs are %s", r, quoteNames(runs))
		}
		want[r] = true
	}
	var out []*Curve
	for _, c := range curves {
		if want[curveRunName(c)] {
			out = append(out, c)
		}
	}
	return out, nil
}

// curveRunName is the run a curve of a folder belongs to: its run, or its name for a file at
// the top.
func curveRunName(c *Curve) string {
	if c.Run != "" {
		return c.Run
	}
	return c.Name
}

// skippedNotes says which files were skipped and why, the files skipped for the same reason in
// one note.
func skippedNotes(skipped []skip) []string {
	var reasons []string
	paths := map[string][]string{}
	for _, s := range skipped {
		if _, ok := paths[s.reason]; !ok {
			reasons = append(reasons, s.reason)
		}
		paths[s.reason] = append(paths[s.reason], s.path)
	}
	notes := make([]string, 0, len(reasons))
	for _, r := range reasons {
		ps := paths[r]
		if len(ps) == 1 {
			notes = append(notes, fmt.Sprintf("skipped %s: %s", ps[0], r))
			continue
		}
		list := strings.Join(ps[:min(len(ps), maxSkippedListed)], ", ")
		if len(ps) > maxSkippedListed {
			list += fmt.Sprintf(" and %d more", len(ps)-maxSkippedListed)
		}
		notes = append(notes, fmt.Sprintf("skipped %d files (%s): %s", len(ps), r, list))
	}
	return notes
}

// skippedSummary says why nothing was read, in one line.
func skippedSummary(skipped []skip) string {
	if len(skipped) == 0 {
		return "no files"
	}
	notes := skippedNotes(skipped)
	for i, n := range notes {
		notes[i] = strings.TrimPrefix(n, "skipped ")
	}
	s := strings.Join(notes[:min(len(notes), maxSkippedListed)], "; ")
	if len(notes) > maxSkippedListed {
		s += fmt.Sprintf("; and %d more", len(notes)-maxSkippedListed)
	}
	return s
}

// folderLabel names the files given in messages: the top directory they share, else "the files
// given".
func folderLabel(files []File) string {
	top := ""
	for i, f := range files {
		p := memberName(f.Path)
		first, _, ok := strings.Cut(p, "/")
		if !ok || (i > 0 && first != top) {
			return "the files given"
		}
		top = first
	}
	if top == "" {
		return "the files given"
	}
	return top
}
