// Command precompress writes a brotli (.br) and a gzip (.gz) copy of every compressible file
// of a built site, so that a static server sends them as they are, by Accept-Encoding, instead
// of compressing each response (scripts/serve does; so does nginx with `gzip_static on;` and
// `brotli_static on;`).
//
//	go run ./scripts/precompress [-dir build/site]
//	go run ./scripts/precompress -sizes FILE...    (prints each file's sizes; make bench)
//
// Compressible files are text (HTML, JavaScript, CSS, JSON, SVG, CSV, the web manifest) and
// WebAssembly. Brotli runs at its best quality (11, a 16 MB window), gzip at level 9: the
// files are compressed once per build and sent many times. A copy is written only when it is
// smaller than the file, and only when the file changed since its copies were written (their
// modification time is not older), so that a rebuild whose large content-hashed assets did not
// change skips them. Copies whose file is gone are removed. The files are compressed on as
// many goroutines as there are CPUs; it prints one line per file written, with its sizes.
package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// compressible lists the extensions of the files worth compressing (images other than SVG
// and fonts are compressed already).
var compressible = map[string]bool{
	".html": true, ".htm": true, ".js": true, ".mjs": true, ".css": true, ".json": true,
	".map": true, ".webmanifest": true, ".svg": true, ".wasm": true, ".csv": true, ".tsv": true,
	".txt": true, ".md": true,
}

// encodings are the copies written next to each file: its extension and how to compress.
var encodings = []struct {
	ext      string
	compress func([]byte) ([]byte, error)
}{
	{".br", compressBrotli},
	{".gz", compressGzip},
}

func compressBrotli(b []byte) ([]byte, error) {
	var out bytes.Buffer
	w := brotli.NewWriterOptions(&out, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	err := w.Close()
	return out.Bytes(), err
}

func compressGzip(b []byte) ([]byte, error) {
	var out bytes.Buffer
	w, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	err = w.Close()
	return out.Bytes(), err
}

func main() {
	dir := flag.String("dir", "build/site", "the built site")
	sizes := flag.Bool("sizes", false, "print the raw, gzip and brotli sizes of the files named instead (make bench)")
	flag.Parse()
	if *sizes {
		if err := printSizes(flag.Args(), os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
		return
	}
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "precompress: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := run(*dir, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
}

// run precompresses the files under dir and removes stale copies, reporting to out.
func run(dir string, out io.Writer) error {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if ext == ".br" || ext == ".gz" {
			// A copy whose file is gone (a renamed asset) would be served for nothing.
			if _, err := os.Stat(strings.TrimSuffix(path, ext)); errors.Is(err, fs.ErrNotExist) {
				return os.Remove(path)
			}
			return nil
		}
		if compressible[strings.ToLower(ext)] {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)

	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		lines = map[string]string{}
		errs  []error
		next  = make(chan string)
	)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range next {
				line, err := precompress(path)
				mu.Lock()
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", path, err))
				} else if line != "" {
					lines[path] = line
				}
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	for _, f := range files {
		if line, ok := lines[f]; ok {
			rel, _ := filepath.Rel(dir, f)
			fmt.Fprintf(out, "%-44s %s\n", rel, line)
		}
	}
	return errors.Join(errs...)
}

// precompress writes the copies of the file at path that are out of date, and returns a line
// giving its sizes ("" when every copy was up to date).
func precompress(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	var data []byte
	sizes := []string{fmt.Sprintf("raw %9d", info.Size())}
	wrote := false
	for _, enc := range encodings {
		copyPath := path + enc.ext
		if c, err := os.Stat(copyPath); err == nil && !c.ModTime().Before(info.ModTime()) {
			sizes = append(sizes, fmt.Sprintf("%s %9d", enc.ext[1:], c.Size()))
			continue
		}
		if data == nil {
			if data, err = os.ReadFile(path); err != nil {
				return "", err
			}
		}
		packed, err := enc.compress(data)
		if err != nil {
			return "", err
		}
		if len(packed) >= len(data) {
			// Not worth it: the file is sent as it is (and an old copy must not stay).
			if err := os.Remove(copyPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			continue
		}
		if err := writeAtomic(copyPath, packed); err != nil {
			return "", err
		}
		sizes = append(sizes, fmt.Sprintf("%s %9d", enc.ext[1:], len(packed)))
		wrote = true
	}
	if !wrote {
		return "", nil
	}
	return strings.Join(sizes, "  "), nil
}

// writeAtomic writes data to path through a temporary file in the same directory, so that a
// server (or an interrupted build) never sees half a copy.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".precompress-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// printSizes prints each file's size raw, gzip'd and brotli'd as this command writes its copies
// (what a visitor downloads of it), in bytes.
func printSizes(files []string, out io.Writer) error {
	if len(files) == 0 {
		return errors.New("-sizes: name the files")
	}
	fmt.Fprintf(out, "%-28s %10s %10s %10s\n", "", "raw", "gzip -9", "brotli 11")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		gz, err := compressGzip(data)
		if err != nil {
			return err
		}
		br, err := compressBrotli(data)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%-28s %10d %10d %10d\n", filepath.Base(f), len(data), len(gz), len(br))
	}
	return nil
}
