// Package sitetest writes small site trees for the tests of the build's scripts (the server,
// the content hashing, the precompression). Only tests import it.
package sitetest

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFiles writes files (slash-separated path relative to dir -> content) under dir,
// creating their directories.
func WriteFiles(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}
