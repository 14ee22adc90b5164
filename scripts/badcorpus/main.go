// Command badcorpus writes the corpus of bad input files (package lawcore/badinput) into a
// directory, for the browser test that feeds each file through the page.
//
//	go run ./scripts/badcorpus -out DIR [-max-rows N]
//
// Each file is written under its name, and DIR/index.json lists them in order as
// [{"name": ..., "want": ...}]: want is a part every message about the file must contain
// besides its name ("" when only the name is required). -max-rows is the row limit the
// too-many-rows file goes one past (importer.MaxRows by default).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lawcalc/annealing/lawcore/importer"
	"github.com/lawcalc/annealing/lawcore/importer/badinput"
)

// indexName is the file listing the corpus; no file of the corpus may take its name.
const indexName = "index.json"

// indexEntry is one file as index.json lists it.
type indexEntry struct {
	Name string `json:"name"`
	Want string `json:"want"`
}

func main() {
	out := flag.String("out", "", "the directory to write the files into (created if missing)")
	maxRows := flag.Int("max-rows", importer.MaxRows, "the row limit the too-many-rows file goes one past")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 || *maxRows < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := writeCorpus(*out, badinput.Files(*maxRows)); err != nil {
		fmt.Fprintln(os.Stderr, "badcorpus:", err)
		os.Exit(1)
	}
}

// writeCorpus writes every file into dir, and the index.
func writeCorpus(dir string, files []badinput.File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	index := make([]indexEntry, 0, len(files))
	for _, f := range files {
		if f.Name == indexName || filepath.Base(f.Name) != f.Name {
			return fmt.Errorf("cannot write a corpus file named %q", f.Name)
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
		index = append(index, indexEntry{Name: f.Name, Want: f.Want})
	}
	data, err := json.MarshalIndent(index, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, indexName), append(data, '\n'), 0o644)
}
