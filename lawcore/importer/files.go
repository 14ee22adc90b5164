package importer

import (
	"fmt"
	"path"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

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
