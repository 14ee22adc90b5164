// Command hashassets gives a built site's large, rarely changing files content-hashed names,
// so that a browser may keep them for a year without asking again (scripts/serve sends
// everything under assets/ as immutable), and a new build, which changes a file's content,
// changes its name.
//
//	go run ./scripts/hashassets [-dir build/site] FILE...
//
// Each FILE (a path in the site, such as vendor/uPlot.esm.js) moves to
// assets/<name>.<hash><ext> (assets/uPlot.esm.1f0c2a9e4b7d.js), the hash being the first 12
// hex digits of its SHA-256, and every reference to it is rewritten: a quoted relative path
// ('../vendor/uPlot.esm.js', "style.css") in the site's HTML, JavaScript, CSS and web
// manifest files, each relative to the file that holds it. A FILE that nothing refers to is
// an error (nothing would load it), and so is a FILE that refers to another FILE (its name
// would have to change after the other's). Files under assets/ that this run did not write
// (an older build's) are removed; one that is already there with the same name is kept as it
// is, so that its precompressed copies stay current (scripts/precompress).
//
// JavaScript modules keep their names: they import each other by relative path, so hashing
// them would mean rewriting every import in dependency order; they are small and sent with
// Cache-Control: no-cache (revalidated), and the service worker serves them offline.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// assetsDir is the directory of the site that holds the hashed files.
const assetsDir = "assets"

// rewritten lists the extensions of the files whose references are rewritten.
var rewritten = map[string]bool{".html": true, ".js": true, ".mjs": true, ".css": true, ".webmanifest": true}

func main() {
	dir := flag.String("dir", "build/site", "the built site")
	flag.Parse()
	if err := run(*dir, flag.Args(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hashassets:", err)
		os.Exit(1)
	}
}

// hashedName is the name under assets/ of the file at p (slash-separated) with content data.
func hashedName(p string, data []byte) string {
	sum := sha256.Sum256(data)
	base := path.Base(p)
	ext := path.Ext(base)
	return path.Join(assetsDir, strings.TrimSuffix(base, ext)+"."+hex.EncodeToString(sum[:])[:12]+ext)
}

// relative is the path of target (slash-separated, from the site's root) as written in a file
// at from.
func relative(from, target string) string {
	rel, err := filepath.Rel(filepath.FromSlash(path.Dir(from)), filepath.FromSlash(target))
	if err != nil {
		return target
	}
	return filepath.ToSlash(rel)
}

// rewriteRefs replaces in text, held by the file at from, every quoted reference to an asset
// (old name -> new name) and reports which assets it referred to.
func rewriteRefs(text, from string, names map[string]string, order []string) (string, []string) {
	var found []string
	for _, old := range order {
		oldRel, newRel := relative(from, old), relative(from, names[old])
		hit := false
		for _, prefix := range []string{"", "./"} {
			for _, q := range []string{"'", `"`, "`"} {
				ref := q + prefix + oldRel + q
				if strings.Contains(text, ref) {
					text = strings.ReplaceAll(text, ref, q+prefix+newRel+q)
					hit = true
				}
			}
		}
		if hit {
			found = append(found, old)
		}
	}
	return text, found
}

// run hashes the files (paths in dir, slash-separated) and rewrites the references to them.
func run(dir string, files []string, out io.Writer) error {
	if len(files) == 0 {
		return errors.New("no files named: give the paths, in the site, of the files to hash")
	}
	names := map[string]string{}
	contents := map[string][]byte{}
	for _, f := range files {
		f = path.Clean(f)
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		names[f], contents[f] = hashedName(f, data), data
	}
	order := make([]string, 0, len(names))
	for f := range names {
		order = append(order, f)
	}
	sort.Strings(order)

	for _, f := range order {
		if _, refs := rewriteRefs(string(contents[f]), f, names, order); len(refs) > 0 {
			return fmt.Errorf("%s refers to %s: files that refer to hashed files cannot be hashed", f, strings.Join(refs, ", "))
		}
	}

	referrers := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == assetsDir {
				return fs.SkipDir
			}
			return nil
		}
		if _, isAsset := names[rel]; isAsset || !rewritten[strings.ToLower(path.Ext(rel))] {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text, refs := rewriteRefs(string(data), rel, names, order)
		for _, r := range refs {
			referrers[r] = append(referrers[r], rel)
		}
		if len(refs) == 0 {
			return nil
		}
		return os.WriteFile(p, []byte(text), 0o644)
	})
	if err != nil {
		return err
	}

	if err := os.MkdirAll(filepath.Join(dir, assetsDir), 0o755); err != nil {
		return err
	}
	for _, f := range order {
		if len(referrers[f]) == 0 {
			return fmt.Errorf("%s: no file of the site refers to it ('%s' in quotes), so nothing would load it", f, path.Base(f))
		}
		src, dst := filepath.Join(dir, filepath.FromSlash(f)), filepath.Join(dir, filepath.FromSlash(names[f]))
		if _, err := os.Stat(dst); err == nil {
			// The same content under the same name: keep it, and its compressed copies.
			if err := os.Remove(src); err != nil {
				return err
			}
		} else if err := os.Rename(src, dst); err != nil {
			return err
		}
		fmt.Fprintf(out, "%-24s -> %s (in %s)\n", f, names[f], strings.Join(referrers[f], ", "))
	}

	// An older build's assets, and their compressed copies.
	keep := map[string]bool{}
	for _, n := range names {
		keep[path.Base(n)] = true
	}
	entries, err := os.ReadDir(filepath.Join(dir, assetsDir))
	if err != nil {
		return err
	}
	for _, e := range entries {
		base := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".br"), ".gz")
		if !keep[base] {
			if err := os.RemoveAll(filepath.Join(dir, assetsDir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}
