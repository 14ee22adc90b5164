package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/scripts/internal/sitetest"
)

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// site is a small built site: a page, a worker, modules in a subdirectory, and the files to hash.
var site = map[string]string{
	"index.html":                    `<link rel="stylesheet" href="style.css"><link rel="preload" href="./app.wasm" as="fetch">`,
	"worker.js":                     "importScripts('wasm_exec.js'); fetch(`app.wasm`); // app.wasm, unquoted, stays",
	"js/chart.js":                   `import uPlot from '../vendor/uPlot.esm.js'; const s = "style.css";`,
	"style.css":                     "body { color: red }",
	"wasm_exec.js":                  "class Go {}",
	"app.wasm":                      "\x00asm",
	"vendor/uPlot.esm.js":           "export default 1;",
	"assets/old.0123456789ab.js":    "an older build's",
	"assets/old.0123456789ab.js.br": "its copy",
}

var hashed = []string{"style.css", "wasm_exec.js", "app.wasm", "vendor/uPlot.esm.js"}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	sitetest.WriteFiles(t, dir, site)
	var out strings.Builder
	if err := run(dir, hashed, &out); err != nil {
		t.Fatal(err)
	}
	name := map[string]string{}
	for _, f := range hashed {
		name[f] = hashedName(f, []byte(site[f]))
		if !regexp.MustCompile(`^assets/[\w.]+\.[0-9a-f]{12}\.(css|js|wasm)$`).MatchString(name[f]) {
			t.Errorf("%s: hashed name %q", f, name[f])
		}
		if got := read(t, dir, name[f]); got != site[f] {
			t.Errorf("%s: content %q, want %q", name[f], got, site[f])
		}
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s: still there under its old name", f)
		}
	}
	tests := []struct{ file, want string }{
		{"index.html", `<link rel="stylesheet" href="` + name["style.css"] + `"><link rel="preload" href="./` + name["app.wasm"] + `" as="fetch">`},
		{"worker.js", "importScripts('" + name["wasm_exec.js"] + "'); fetch(`" + name["app.wasm"] + "`); // app.wasm, unquoted, stays"},
		{"js/chart.js", `import uPlot from '../` + name["vendor/uPlot.esm.js"] + `'; const s = "style.css";`},
	}
	for _, tt := range tests {
		if got := read(t, dir, tt.file); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.file, got, tt.want)
		}
	}
	for _, stale := range []string{"assets/old.0123456789ab.js", "assets/old.0123456789ab.js.br"} {
		if _, err := os.Stat(filepath.Join(dir, stale)); err == nil {
			t.Errorf("%s: an older build's asset was kept", stale)
		}
	}

	// A rebuild with the same content keeps the hashed file as it is (and its copies).
	copyPath := filepath.Join(dir, name["app.wasm"]+".br")
	if err := os.WriteFile(copyPath, []byte("compressed"), 0o644); err != nil {
		t.Fatal(err)
	}
	sitetest.WriteFiles(t, dir, site)
	if err := run(dir, hashed, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(copyPath); err != nil {
		t.Errorf("the unchanged asset's compressed copy was removed: %v", err)
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		hash  []string
		want  string
	}{
		{"nothing named", map[string]string{"index.html": ""}, nil, "no files named"},
		{"missing", map[string]string{"index.html": ""}, []string{"gone.js"}, "gone.js"},
		{"unreferenced", map[string]string{"index.html": "", "a.css": ""}, []string{"a.css"}, "no file of the site refers to it"},
		{"refers to another", map[string]string{"index.html": `"a.css" "b.css"`, "a.css": `@import "b.css";`, "b.css": ""}, []string{"a.css", "b.css"}, "a.css refers to b.css"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		sitetest.WriteFiles(t, dir, tt.files)
		var out strings.Builder
		err := run(dir, tt.hash, &out)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}
