package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/lawcalc/annealing/lawcore/importer/badinput"
)

// Every file lands under its name with its bytes, and the index lists them in order.
func TestWriteCorpusWritesEveryFileAndTheIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	files := badinput.Files(10)
	if err := writeCorpus(dir, files); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, indexName))
	if err != nil {
		t.Fatal(err)
	}
	var index []indexEntry
	if err := json.Unmarshal(raw, &index); err != nil {
		t.Fatal(err)
	}
	if len(index) != len(files) {
		t.Fatalf("the index lists %d files, want %d", len(index), len(files))
	}
	for i, f := range files {
		if index[i] != (indexEntry{Name: f.Name, Want: f.Want}) {
			t.Errorf("index[%d] = %+v, want %q, %q", i, index[i], f.Name, f.Want)
		}
		data, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil || !bytes.Equal(data, f.Data) {
			t.Errorf("%s: not written as it is (%v)", f.Name, err)
		}
	}
}

func TestWriteCorpusRefusesANameOutsideTheDirectory(t *testing.T) {
	for _, name := range []string{"../escape.csv", "sub/file.csv", indexName} {
		if err := writeCorpus(t.TempDir(), []badinput.File{{Name: name}}); err == nil {
			t.Errorf("%q: written", name)
		}
	}
}
