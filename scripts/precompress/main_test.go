package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/lawcalc/annealing/scripts/internal/sitetest"
)

// writeSite writes files (path -> content) under a new temporary directory and returns it.
func writeSite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	sitetest.WriteFiles(t, dir, files)
	return dir
}

func decompress(t *testing.T, ext string, b []byte) string {
	t.Helper()
	var r io.Reader
	switch ext {
	case ".br":
		r = brotli.NewReader(bytes.NewReader(b))
	case ".gz":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestPrecompress(t *testing.T) {
	text := strings.Repeat("export const x = 'the same line, again and again';\n", 200)
	dir := writeSite(t, map[string]string{
		"index.html":              "<!doctype html>" + text,
		"js/main.js":              text,
		"assets/lawcore.abc.wasm": "\x00asm" + text,
		"tiny.json":               "{}",
		"favicon.png":             text, // not compressible: images are compressed already
		"_headers":                text,
		"gone.js.br":              "a copy of a file that is gone",
		"gone.js.gz":              "a copy of a file that is gone",
	})
	var out strings.Builder
	if err := run(dir, &out); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		copies bool
	}{
		{"index.html", true},
		{"js/main.js", true},
		{"assets/lawcore.abc.wasm", true},
		{"tiny.json", false}, // compressed, it would be larger
		{"favicon.png", false},
		{"_headers", false},
	}
	for _, tt := range tests {
		want, err := os.ReadFile(filepath.Join(dir, tt.name))
		if err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".br", ".gz"} {
			got, err := os.ReadFile(filepath.Join(dir, tt.name+ext))
			switch {
			case !tt.copies && err == nil:
				t.Errorf("%s%s written, want none", tt.name, ext)
			case tt.copies && err != nil:
				t.Errorf("%s%s: %v", tt.name, ext, err)
			case tt.copies:
				if d := decompress(t, ext, got); d != string(want) {
					t.Errorf("%s%s decompresses to %d bytes, want the file's %d", tt.name, ext, len(d), len(want))
				}
				if len(got) >= len(want) {
					t.Errorf("%s%s is %d bytes, the file %d", tt.name, ext, len(got), len(want))
				}
			}
		}
		if strings.Contains(out.String(), tt.name+" ") != tt.copies {
			t.Errorf("report %q: a line for %s: %v, want %v", out.String(), tt.name, !tt.copies, tt.copies)
		}
	}
	for _, stale := range []string{"gone.js.br", "gone.js.gz"} {
		if _, err := os.Stat(filepath.Join(dir, stale)); err == nil {
			t.Errorf("%s: kept, though its file is gone", stale)
		}
	}

	// A second run has nothing to do; a changed file is compressed again.
	out.Reset()
	if err := run(dir, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "" {
		t.Errorf("second run wrote %q, want nothing", out.String())
	}
	main := filepath.Join(dir, "js/main.js")
	if err := os.WriteFile(main, []byte(text+text), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(main, later, later); err != nil {
		t.Fatal(err)
	}
	if err := run(dir, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), filepath.FromSlash("js/main.js")+" ") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("after a change: %q, want one line for js/main.js", out.String())
	}
	got, _ := os.ReadFile(main + ".br")
	if decompress(t, ".br", got) != text+text {
		t.Error("js/main.js.br is the old content")
	}
}

func TestPrintSizes(t *testing.T) {
	text := strings.Repeat("the same line, again and again\n", 500)
	dir := writeSite(t, map[string]string{"a.wasm": text})
	var out strings.Builder
	if err := printSizes([]string{filepath.Join(dir, "a.wasm")}, &out); err != nil {
		t.Fatal(err)
	}
	gz, _ := compressGzip([]byte(text))
	br, _ := compressBrotli([]byte(text))
	fields := strings.Fields(strings.Split(strings.TrimSpace(out.String()), "\n")[1])
	if want := []string{"a.wasm", strconv.Itoa(len(text)), strconv.Itoa(len(gz)), strconv.Itoa(len(br))}; strings.Join(fields, " ") != strings.Join(want, " ") {
		t.Errorf("got %q, want %q", fields, want)
	}
	if err := printSizes(nil, &out); err == nil {
		t.Error("no files: no error")
	}
}
