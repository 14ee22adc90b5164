package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// esbuildMeta is a metafile as esbuild writes it for main.js and offline.js with splitting:
// chunk-b imports uPlot (external, beside js/), main.js loads the dialog on first use, and
// offline.js's chunk is not main.js's.
const esbuildMeta = `{"outputs": {
  "out/site/js/main.js": {"imports": [
    {"path": "out/site/js/chunk-a.js", "kind": "import-statement"},
    {"path": "out/site/js/chunk-b.js", "kind": "import-statement"},
    {"path": "out/site/js/dialog-x.js", "kind": "dynamic-import"}]},
  "out/site/js/main.js.map": {"imports": []},
  "out/site/js/chunk-a.js": {"imports": [{"path": "out/site/js/chunk-c.js", "kind": "import-statement"}]},
  "out/site/js/chunk-b.js": {"imports": [
    {"path": "out/site/js/chunk-c.js", "kind": "import-statement"},
    {"path": "../vendor/uPlot.esm.js", "kind": "import-statement", "external": true}]},
  "out/site/js/chunk-c.js": {"imports": []},
  "out/site/js/dialog-x.js": {"imports": [{"path": "out/site/js/chunk-d.js", "kind": "import-statement"}]},
  "out/site/js/chunk-d.js": {"imports": []},
  "out/site/js/offline.js": {"imports": [{"path": "out/site/js/chunk-e.js", "kind": "import-statement"}]},
  "out/site/js/chunk-e.js": {"imports": []}
}}`

func TestRun(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "out", "site")
	if err := os.MkdirAll(filepath.Join(site, "js"), 0o755); err != nil {
		t.Fatal(err)
	}
	meta := filepath.Join(dir, "meta.json")
	page := filepath.Join(site, "index.html")
	write(t, meta, esbuildMeta)
	write(t, page, "<head>\n  <script src=\"js/boot.js\"></script>\n  <!-- modulepreload -->\n  <script type=\"module\" src=\"js/main.js\"></script>\n</head>\n")
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil { // the metafile's paths are relative to esbuild's directory
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	if err := run("meta.json", "out/site/js/main.js", "out/site/index.html"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(page)
	want := "<head>\n  <script src=\"js/boot.js\"></script>\n" +
		"  <link rel=\"modulepreload\" href=\"js/chunk-a.js\">\n" +
		"  <link rel=\"modulepreload\" href=\"js/chunk-b.js\">\n" +
		"  <link rel=\"modulepreload\" href=\"js/chunk-c.js\">\n" +
		"  <link rel=\"modulepreload\" href=\"vendor/uPlot.esm.js\">\n" +
		"  <script type=\"module\" src=\"js/main.js\"></script>\n</head>\n"
	if string(got) != want {
		t.Errorf("page:\n%s\nwant:\n%s", got, want)
	}
}

func TestErrors(t *testing.T) {
	var meta metafile
	if err := json.Unmarshal([]byte(esbuildMeta), &meta); err != nil {
		t.Fatal(err)
	}
	broken := metafile{Outputs: map[string]output{}}
	for k, v := range meta.Outputs {
		if k != "out/site/js/chunk-c.js" {
			broken.Outputs[k] = v
		}
	}
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"entry not built", func() error { _, err := staticImports(meta, "out/site/js/app.js"); return err }, `no output "out/site/js/app.js"`},
		{"chunk not listed", func() error { _, err := staticImports(broken, "out/site/js/main.js"); return err }, "imports out/site/js/chunk-c.js, which the metafile does not list"},
		{"no marker", func() error {
			_, err := withLinks("<head></head>", []string{"out/site/js/a.js"}, "out/site")
			return err
		}, "no <!-- modulepreload --> marker"},
		{"two markers", func() error {
			_, err := withLinks("<!-- modulepreload --><!-- modulepreload -->", nil, "out/site")
			return err
		}, "more than one"},
		{"module outside the site", func() error {
			_, err := withLinks("<!-- modulepreload -->", []string{"out/vendor/x.js"}, "out/site")
			return err
		}, "outside the page's directory"},
	}
	for _, tt := range tests {
		err := tt.err()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
