package importer_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore/importer"
	"github.com/lawcalc/annealing/lawcore/importer/badinput"
	"github.com/lawcalc/annealing/lawcore/input"
)

// corpusSize is the number of files in the corpus, as docs/api.md#bad-input counts them: a
// file that drops out of the corpus must be noticed.
const corpusSize = 76

// Every file of the bad-input corpus gives an *input.Error that names the file and, where the
// fault is on a line, the line; or, for a file marked Asks, a question to the user naming the
// file; or, for a file marked NothingToFit, curves with no step the fit could use (the page
// leaves those out).
func TestBadInputCorpus(t *testing.T) {
	files := badinput.Files(importer.MaxRows)
	if len(files) != corpusSize {
		t.Errorf("the corpus has %d files, docs/api.md#bad-input says %d", len(files), corpusSize)
	}
	for _, f := range files {
		imp, err := importer.Read(f.Name, f.Data, importer.Choice{})
		if f.NothingToFit {
			if err != nil || imp.Ambiguity != nil || hasFittableStep(imp.Curves) {
				t.Errorf("%s: want it imported with no step >= 1; got error %v", f.Name, err)
			}
			continue
		}
		if f.Asks {
			if err != nil || imp.Ambiguity == nil || !strings.Contains(imp.Ambiguity.Message, f.Name) {
				t.Errorf("%s: want a question naming the file; got error %v, ambiguity %+v", f.Name, err, imp.Ambiguity)
			}
			continue
		}
		if err == nil {
			what := fmt.Sprintf("accepted (%d curves)", len(imp.Curves))
			if imp.Ambiguity != nil {
				what = "asked: " + imp.Ambiguity.Message
			}
			t.Errorf("%s: %s, want an error", f.Name, what)
			continue
		}
		var ie *input.Error
		msg := err.Error()
		if !errors.As(err, &ie) || !strings.HasPrefix(msg, f.Name) || !strings.Contains(msg, f.Want) {
			t.Errorf("%s: got %q, want an *input.Error starting with the file name and containing %q", f.Name, msg, f.Want)
		}
	}
}

// hasFittableStep says whether any curve has a step of 1 or more.
func hasFittableStep(curves []*importer.Curve) bool {
	for _, c := range curves {
		for _, s := range c.Steps {
			if s >= 1 {
				return true
			}
		}
	}
	return false
}
