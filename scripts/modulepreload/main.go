// Command modulepreload lists, in a built page, every module its entry module imports
// statically, so that the browser fetches them all at once: without the list it finds each
// chunk only once it has downloaded and parsed the module that imports it (main.js's chunks
// and uPlot came 90-190 ms after main.js itself on the first view).
//
//	go run ./scripts/modulepreload -meta build/esbuild-meta.json -entry build/site/js/main.js -html build/site/index.html
//
// The imports come from esbuild's metafile (its --metafile): the closure of the entry's
// "import-statement" imports, chunks and external files alike (the dynamic imports, which
// load on first use, are left out). The marker comment <!-- modulepreload --> in the page
// becomes one <link rel="modulepreload" href="..."> per module, each href relative to the page.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// marker is the comment in the page that the links replace.
const marker = "<!-- modulepreload -->"

// metafile is the part of esbuild's metafile read here: each output file's imports.
type metafile struct {
	Outputs map[string]output `json:"outputs"`
}

// output is a file esbuild wrote.
type output struct {
	Imports []struct {
		Path     string `json:"path"`
		Kind     string `json:"kind"` // "import-statement" or "dynamic-import"
		External bool   `json:"external"`
	} `json:"imports"`
}

func main() {
	meta := flag.String("meta", "", "esbuild's metafile")
	entry := flag.String("entry", "", "the entry module's output file, as the metafile names it")
	html := flag.String("html", "", "the page that loads the entry module")
	flag.Parse()
	if err := run(*meta, *entry, *html); err != nil {
		fmt.Fprintln(os.Stderr, "modulepreload:", err)
		os.Exit(1)
	}
}

func run(metaPath, entry, htmlPath string) error {
	data, err := os.ReadFile(metaPath)
	if err != nil {
		return err
	}
	var meta metafile
	if err := json.Unmarshal(data, &meta); err != nil {
		return fmt.Errorf("%s: %w", metaPath, err)
	}
	page, err := os.ReadFile(htmlPath)
	if err != nil {
		return err
	}
	modules, err := staticImports(meta, filepath.ToSlash(entry))
	if err != nil {
		return err
	}
	out, err := withLinks(string(page), modules, path.Dir(filepath.ToSlash(htmlPath)))
	if err != nil {
		return fmt.Errorf("%s: %w", htmlPath, err)
	}
	return os.WriteFile(htmlPath, []byte(out), 0o644)
}

// staticImports is the closure of entry's static imports in meta, sorted: output files as the
// metafile names them, externals resolved against the directory of the module importing them.
func staticImports(meta metafile, entry string) ([]string, error) {
	if _, ok := meta.Outputs[entry]; !ok {
		return nil, fmt.Errorf("the metafile has no output %q", entry)
	}
	seen := map[string]bool{}
	queue := []string{entry}
	for len(queue) > 0 {
		from := queue[0]
		queue = queue[1:]
		for _, imp := range meta.Outputs[from].Imports {
			if imp.Kind != "import-statement" {
				continue
			}
			to := imp.Path
			if imp.External {
				to = path.Join(path.Dir(from), imp.Path)
			} else if _, ok := meta.Outputs[to]; !ok {
				return nil, fmt.Errorf("%s imports %s, which the metafile does not list", from, to)
			}
			if !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	modules := make([]string, 0, len(seen))
	for m := range seen {
		modules = append(modules, m)
	}
	sort.Strings(modules)
	return modules, nil
}

// withLinks replaces the marker line of page (in directory dir) with a modulepreload link per
// module, keeping the marker's indentation.
func withLinks(page string, modules []string, dir string) (string, error) {
	at := strings.Index(page, marker)
	if at < 0 {
		return "", errors.New("no " + marker + " marker")
	}
	if strings.Contains(page[at+len(marker):], marker) {
		return "", errors.New("more than one " + marker + " marker")
	}
	indent := page[strings.LastIndex(page[:at], "\n")+1 : at]
	var b strings.Builder
	for i, m := range modules {
		rel, err := filepath.Rel(dir, m)
		if err != nil || strings.HasPrefix(filepath.ToSlash(rel), "../") {
			return "", fmt.Errorf("module %s is outside the page's directory %s", m, dir)
		}
		if i > 0 {
			b.WriteString("\n" + indent)
		}
		fmt.Fprintf(&b, `<link rel="modulepreload" href="%s">`, filepath.ToSlash(rel))
	}
	return page[:at] + b.String() + page[at+len(marker):], nil
}
