package importer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// Which column holds the loss: a file (or the files of one upload, or a folder's) may log
// several. The rules, the same for one file and for many:
//
//   - A summary (a column named final_*, best_*, min_*, or any series of one point) is never the
//     default and never competes: it is no curve to fit.
//   - The files of one upload read the same column wherever they have it, so that no curve is a
//     training loss beside another's validation loss.
//   - A validation loss is preferred, as the paper fits it (and the studies it reads report it).
//   - The user is asked only when two real series compete in a file; the question comes with the
//     default and the reason for it.

// LossChoice says which column a file's loss was read from, why, and what else it held.
type LossChoice struct {
	// Column is the column read.
	Column string `json:"column"`
	// Reason says in a sentence why this column ("" when it was the only candidate).
	Reason string `json:"reason,omitempty"`
	// Candidates are every column that may be the loss, summaries included.
	Candidates []Option `json:"candidates"`
}

// FileColumns are the loss candidates of one file of an upload, as its own import answered:
// the column it read (Chosen, "" when it asked) and its candidates.
type FileColumns struct {
	Name       string   `json:"name"`
	Chosen     string   `json:"chosen,omitempty"`
	Candidates []Option `json:"candidates"`
}

// Agreement is the loss column of an upload's files, settled together by [Agree].
type Agreement struct {
	// Column is the column the upload reads wherever a file has it ("" when no file has a loss).
	Column string `json:"column"`
	// Reason says why, in a sentence.
	Reason string `json:"reason"`
	// Ask is set when two real series compete in a file: the user confirms Column or picks
	// another among Columns, and Message asks.
	Ask     bool     `json:"ask"`
	Message string   `json:"message,omitempty"`
	Columns []Option `json:"columns"`
	// Files is the column each file reads (the upload's where the file has it, else the file's
	// own), in the order given.
	Files []string `json:"files"`
	// Notes say what the user may want to know: a file read with another column than the others.
	Notes []string `json:"notes"`
}

// isSummaryName reports whether a column is named as a one-value summary of a run: its final,
// best or lowest loss.
func isSummaryName(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		switch w {
		case "final", "best", "min", "minimum", "lowest", "summary":
			return true
		}
	}
	return false
}

// markSummaries sets each option's Summary: a series of one point, or one named as a summary.
// An option offered by its name alone (no points counted) is no summary.
func markSummaries(opts []Option) []Option {
	out := make([]Option, len(opts))
	for i, o := range opts {
		if o.Kind == "" {
			o.Kind = columnKind(o.Name)
		}
		o.Summary = o.Points == 1 || (o.Points > 1 && isSummaryName(o.Name))
		out[i] = o
	}
	return out
}

// seriesOf lists the options that are series to fit: not summaries (all of them when every one is).
func seriesOf(opts []Option) []Option {
	var out []Option
	for _, o := range opts {
		if !o.Summary {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return opts
	}
	return out
}

// Agree settles the loss column of files read together (one file alone too): see the rules
// above. A file with no candidates (an error, a file of learning rates) is given as none and
// reads "".
func Agree(files []FileColumns) Agreement {
	ag := Agreement{Files: make([]string, len(files)), Notes: []string{}, Columns: []Option{}}
	type column struct {
		opt        Option
		files      int // the files holding it as a real series
		validation bool
	}
	var cols []*column
	byName := map[string]*column{}
	withLoss := 0
	files = slices.Clone(files)
	for i := range files {
		files[i].Candidates = markSummaries(files[i].Candidates)
		f := files[i]
		if len(f.Candidates) == 0 {
			continue
		}
		withLoss++
		reals := map[string]bool{}
		for _, o := range seriesOf(f.Candidates) {
			reals[o.Name] = true
		}
		if len(seriesOf(f.Candidates)) > 1 {
			ag.Ask = true
		}
		for _, o := range f.Candidates {
			c := byName[o.Name]
			if c == nil {
				c = &column{opt: o, validation: o.Kind == "validation"}
				byName[o.Name] = c
				cols = append(cols, c)
			} else {
				c.opt = merged(c.opt, o)
			}
			if reals[o.Name] {
				c.files++
			}
		}
	}
	if withLoss == 0 {
		return ag
	}
	// the best column: held by every file, then a validation loss, then held by more files,
	// then the first
	better := func(a, b *column) bool {
		if (a.files == withLoss) != (b.files == withLoss) {
			return a.files == withLoss
		}
		if a.validation != b.validation {
			return a.validation
		}
		return a.files > b.files
	}
	var best *column
	for _, c := range cols {
		if c.files > 0 && (best == nil || better(c, best)) {
			best = c
		}
	}
	ag.Column = best.opt.Name
	for _, c := range cols {
		ag.Columns = append(ag.Columns, c.opt)
	}
	// each file: the upload's column where it holds it, else its own best
	for i, f := range files {
		if len(f.Candidates) == 0 {
			continue
		}
		own := ""
		for _, o := range seriesOf(f.Candidates) {
			c := byName[o.Name]
			if o.Name == ag.Column {
				own = o.Name
				break
			}
			if own == "" || better(c, byName[own]) {
				own = o.Name
			}
		}
		ag.Files[i] = own
		if own != ag.Column && byName[own].validation != best.validation {
			ag.Notes = append(ag.Notes, fmt.Sprintf("%s has no %s: its %s is read, a %s beside the others' %s",
				f.Name, input.Quote(ag.Column), input.Quote(own), kindWords(byName[own].validation), kindWords(best.validation)))
		}
	}
	ag.Reason = agreeReason(best.opt, best.validation, best.files == withLoss, withLoss, ag.Columns)
	if ag.Ask {
		if withLoss == 1 {
			ag.Message = fmt.Sprintf("%s has %d columns that may be the loss: choose one", files[firstWith(files)].Name, len(files[firstWith(files)].Candidates))
		} else {
			ag.Message = fmt.Sprintf("%d files have several columns that may be the loss: choose one for all (a file without it keeps its own)", withLoss)
		}
	}
	return ag
}

// kindWords names a loss's kind.
func kindWords(validation bool) string {
	if validation {
		return "validation loss"
	}
	return "training loss"
}

// firstWith is the index of the first file with candidates.
func firstWith(files []FileColumns) int {
	for i, f := range files {
		if len(f.Candidates) > 0 {
			return i
		}
	}
	return 0
}

// agreeReason says in a sentence why the column chosen (of files files' columns opts): a
// validation loss, the one every file has, and which candidates are summaries.
func agreeReason(chosen Option, validation, everywhere bool, files int, opts []Option) string {
	var why []string
	competing := 0
	for _, o := range opts {
		if !o.Summary {
			competing++
		}
	}
	switch {
	case competing <= 1:
		// the only series: the reason is what the others are
	case validation && everywhere && files > 1:
		why = append(why, "the validation loss, which the paper fits, and every file has it")
	case validation:
		why = append(why, "the validation loss, which the paper fits")
	case everywhere && files > 1:
		why = append(why, "the loss every file has, so that the curves are the same loss")
	default:
		why = append(why, "the first loss column")
	}
	var summaries, training []string
	for _, o := range opts {
		switch {
		case o.Name == chosen.Name:
		case o.Summary:
			summaries = append(summaries, input.Quote(o.Name))
		case o.Kind == "train" && validation && competing > 1:
			training = append(training, input.Quote(o.Name))
		}
	}
	if len(training) > 0 {
		why = append(why, fmt.Sprintf("%s %s the training loss", strings.Join(training, ", "), isAre(len(training))))
	}
	if len(summaries) > 0 {
		why = append(why, fmt.Sprintf("%s %s one point a run (a summary, not a curve)", strings.Join(summaries, ", "), hasHave(len(summaries))))
	}
	if len(why) == 0 {
		return fmt.Sprintf("%s is chosen: the only loss column.", input.Quote(chosen.Name))
	}
	return fmt.Sprintf("%s is chosen: %s.", input.Quote(chosen.Name), strings.Join(why, "; "))
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// merged is an option counted over two files: the points summed, the steps spanned, a summary
// only if it is one in both.
func merged(a, b Option) Option {
	if b.Points > 0 && (a.Points == 0 || b.FirstStep < a.FirstStep) {
		a.FirstStep = b.FirstStep
	}
	if b.Points > 0 && (a.Points == 0 || b.LastStep > a.LastStep) {
		a.LastStep = b.LastStep
	}
	a.Points += b.Points
	a.Summary = a.Summary && b.Summary
	return a
}
