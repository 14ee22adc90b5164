package importer_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/importer"
	"github.com/lawcalc/annealing/lawcore/importer/badinput"
)

// Every file of the bad-input corpus gives an *InputError that names the file and, where the
// fault is on a line, the line; or a question to the user; or, for a file marked NothingToFit,
// curves with no step the fit could use (the page leaves those out).
func TestBadInputCorpus(t *testing.T) {
	files := badinput.Files(importer.MaxRows)
	if len(files) < 40 {
		t.Fatalf("the corpus has %d files, want at least 40", len(files))
	}
	for _, f := range files {
		imp, err := importer.Read(f.Name, f.Data, importer.Choice{})
		if f.NothingToFit {
			if err != nil || imp.Ambiguity != nil || hasFittableStep(imp.Curves) {
				t.Errorf("%s: want it imported with no step >= 1; got error %v", f.Name, err)
			}
			continue
		}
		if err == nil {
			if imp.Ambiguity != nil {
				continue // a question to the user, not a failure
			}
			t.Errorf("%s: accepted (%d curves)", f.Name, len(imp.Curves))
			continue
		}
		var ie *lawcore.InputError
		msg := err.Error()
		if !errors.As(err, &ie) || !strings.HasPrefix(msg, f.Name) || !strings.Contains(msg, f.Want) {
			t.Errorf("%s: got %q, want an *InputError starting with the file name and containing %q", f.Name, msg, f.Want)
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
