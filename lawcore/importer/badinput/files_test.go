package badinput

import (
	"bytes"
	"path"
	"testing"
)

// The corpus is written to a directory under its names: they must be plain and distinct.
func TestFileNamesArePlainAndDistinct(t *testing.T) {
	files := Files(10)
	if len(files) < 40 {
		t.Fatalf("the corpus has %d files, want at least 40", len(files))
	}
	seen := map[string]bool{}
	for _, f := range files {
		if f.Name == "" || path.Base(f.Name) != f.Name || f.Name[0] == '.' {
			t.Errorf("%q is not a plain file name", f.Name)
		}
		if seen[f.Name] {
			t.Errorf("%q appears twice", f.Name)
		}
		seen[f.Name] = true
	}
}

func TestTooManyRowsHasOneRowPastTheLimit(t *testing.T) {
	for _, f := range Files(1000) {
		if f.Name != "too-many-rows.csv" {
			continue
		}
		if lines := bytes.Count(f.Data, []byte("\n")); lines != 1+1001 {
			t.Errorf("%d lines, want a header and 1001 rows", lines)
		}
		if !bytes.HasSuffix(f.Data, []byte("\n1001,3\n")) {
			t.Errorf("the last row is not step 1001: %q", f.Data[len(f.Data)-20:])
		}
		return
	}
	t.Fatal("no too-many-rows.csv")
}
