// Command serve is a small static file server for the calculator's built site.
//
//	go run ./scripts/serve [-dir build/site] [-addr 127.0.0.1:8080]
//
// It serves the files under -dir and nothing else: a request whose path would leave the
// directory (a ".." segment, or a symbolic link pointing outside) is refused. Every response
// carries a strict Content-Security-Policy (scripts and workers from the site itself, WebAssembly
// allowed, no connection anywhere but the site), X-Content-Type-Options: nosniff and
// Referrer-Policy: no-referrer. Content types come from a fixed table, not from the machine's
// mime.types, so .wasm is always application/wasm (which WebAssembly.instantiateStreaming
// requires) and ES modules are always text/javascript.
//
// Files under assets/ have content-hashed names (scripts/hashassets): they are sent with
// Cache-Control: public, max-age=31536000, immutable, and everything else with no-cache
// (revalidated on every use), so that a new build is seen at once. A file with precompressed
// copies next to it (name.br, name.gz, written by scripts/precompress) is sent as the brotli
// copy when the request's Accept-Encoding allows br, else as the gzip copy when it allows
// gzip, else as it is, with Content-Encoding and Vary: Accept-Encoding.
//
// The first line printed on stdout is "serving DIR on URL", with the real port when -addr asks
// for port 0, so that tests can start the server on a free port and read where it is.
//
//	go run ./scripts/serve -headers [-dir build/site] > build/site/_headers
//
// prints the same headers in the `_headers` format of Netlify and Cloudflare Pages instead, so
// that a static host sends what this server sends (make build writes it). Those hosts compress
// responses themselves.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// contentSecurityPolicy is sent with every response. 'wasm-unsafe-eval' lets the page and its
// worker compile lawcore.wasm; nothing else may be evaluated, loaded from elsewhere or sent
// anywhere.
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
	"worker-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; " +
	"font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; " +
	"frame-ancestors 'none'"

// contentTypes maps a file name extension to the Content-Type sent for it. Extensions not
// listed fall back to Go's mime package and then to content sniffing by http.ServeContent.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".htm":         "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".webmanifest": "application/manifest+json",
	".wasm":        "application/wasm",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".ico":         "image/x-icon",
	".woff2":       "font/woff2",
	".csv":         "text/csv; charset=utf-8",
	".tsv":         "text/tab-separated-values; charset=utf-8",
	".txt":         "text/plain; charset=utf-8",
	".md":          "text/markdown; charset=utf-8",
}

// securityHeaders are set on every response, errors included.
var securityHeaders = map[string]string{
	"Content-Security-Policy": contentSecurityPolicy,
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "no-referrer",
}

// assetsDir holds the files with content-hashed names: a name there never changes content.
const assetsDir = "assets"

// Cache-Control values: a hashed asset is kept a year without asking again; anything else is
// revalidated on every use (and so is every error response).
const (
	cacheImmutable   = "public, max-age=31536000, immutable"
	cacheRevalidated = "no-cache"
)

// cacheControl is the Cache-Control of the file name (slash-separated, from the site's root).
func cacheControl(name string) string {
	if strings.HasPrefix(name, assetsDir+"/") {
		return cacheImmutable
	}
	return cacheRevalidated
}

// precompressed are the copies a file may have next to it, in the order they are preferred,
// with their Content-Encoding.
var precompressed = []struct{ ext, encoding string }{
	{".br", "br"},
	{".gz", "gzip"},
}

// headersFile is what this server sends in the `_headers` format (Netlify, Cloudflare Pages),
// for the site in root: the security headers on every path, and each top-level entry of the
// site its Cache-Control. Both hosts join the values of a header that several matching rules
// set, so no two rules that match one path set the same header.
func headersFile(root fs.FS) (string, error) {
	entries, err := fs.ReadDir(root, ".")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Written by `go run ./scripts/serve -headers` (make build): the headers scripts/serve sends.\n/*\n")
	keys := make([]string, 0, len(securityHeaders))
	for k := range securityHeaders {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s: %s\n", k, securityHeaders[k])
	}
	fmt.Fprintf(&b, "/\n  Cache-Control: %s\n", cacheControl("index.html"))
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == "_headers" || strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz"):
			continue
		case e.IsDir():
			fmt.Fprintf(&b, "/%s/*\n  Cache-Control: %s\n", name, cacheControl(name+"/x"))
		default:
			fmt.Fprintf(&b, "/%s\n  Cache-Control: %s\n", name, cacheControl(name))
		}
	}
	fmt.Fprintf(&b, "/*.wasm\n  Content-Type: %s\n", contentTypes[".wasm"])
	return b.String(), nil
}

// acceptsEncoding reports whether the Accept-Encoding header value allows coding: named with
// a q-value above 0, or covered by "*" with one.
func acceptsEncoding(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		token, params, _ := strings.Cut(part, ";")
		token = strings.ToLower(strings.TrimSpace(token))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(p, "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				var err error
				if q, err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil {
					q = 0
				}
			}
		}
		switch token {
		case coding:
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

// serveEncoded sends the precompressed copy of name that the request accepts, if it has one,
// and reports whether it did. Any copy's existence makes the response vary by Accept-Encoding.
func serveEncoded(w http.ResponseWriter, r *http.Request, root fs.FS, name string, info fs.FileInfo) bool {
	ct, known := contentTypes[strings.ToLower(path.Ext(name))]
	if !known {
		return false
	}
	accept := r.Header.Get("Accept-Encoding")
	for _, p := range precompressed {
		f, err := root.Open(name + p.ext)
		if err != nil {
			continue
		}
		defer f.Close()
		w.Header().Set("Vary", "Accept-Encoding")
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() || !acceptsEncoding(accept, p.encoding) {
			continue
		}
		rs, ok := f.(io.ReadSeeker)
		if !ok {
			continue
		}
		h := w.Header()
		h.Set("Content-Type", ct)
		h.Set("Content-Encoding", p.encoding)
		if r.Header.Get("Range") == "" {
			// ServeContent leaves Content-Length out when Content-Encoding is set (it cannot
			// know the coding is the file's own), and would send the body chunked.
			h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
		}
		// The file's own time: every encoding of one file is one version of it.
		http.ServeContent(w, r, name, info.ModTime(), rs)
		return true
	}
	return false
}

// newHandler returns the handler serving the files of root. The caller is expected to pass an
// fs.FS that cannot be escaped (os.Root.FS); the handler refuses ".." segments itself as well.
func newHandler(root fs.FS) http.Handler {
	files := http.FileServerFS(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range securityHeaders {
			h.Set(k, v)
		}
		h.Set("Cache-Control", cacheRevalidated)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if escapes(r.URL.Path) || escapes(r.URL.RawPath) {
			http.Error(w, "path outside the served directory", http.StatusBadRequest)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "."
		}
		info, err := fs.Stat(root, name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if info.IsDir() {
			// Directories are served only through their index.html: no listings.
			if _, err := fs.Stat(root, path.Join(name, "index.html")); err != nil {
				http.NotFound(w, r)
				return
			}
			name = path.Join(name, "index.html")
		}
		h.Set("Cache-Control", cacheControl(name))
		if serveEncoded(w, r, root, name, info) {
			return
		}
		if ct, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
			h.Set("Content-Type", ct)
		}
		files.ServeHTTP(w, r)
	})
}

// escapes reports whether the URL path p has a ".." segment (either slash counts as a
// separator), which could name something outside the served directory.
func escapes(p string) bool {
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
	}
	return false
}

// listenURL returns the http URL at which a listener bound to addr is reached.
func listenURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP == nil || tcp.IP.IsUnspecified() {
		port := 0
		if ok {
			port = tcp.Port
		}
		return fmt.Sprintf("http://localhost:%d", port)
	}
	return "http://" + addr.String()
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

// usageError marks a bad command line (exit code 2).
type usageError struct{ error }

// run parses the command line args, prints "serving DIR on URL" to stdout once it listens,
// and serves until ctx is done.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("dir", "build/site", "directory to serve")
	addr := flags.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	headers := flags.Bool("headers", false, "print the headers as a _headers file (Netlify, Cloudflare Pages) and exit")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if flags.NArg() > 0 {
		err := fmt.Errorf("unexpected argument %q", flags.Arg(0))
		fmt.Fprintln(stderr, "serve:", err)
		flags.Usage()
		return usageError{err}
	}

	root, err := os.OpenRoot(*dir)
	if err != nil {
		return fmt.Errorf("%w (run `make build` first?)", err)
	}
	defer root.Close()

	if *headers {
		text, err := headersFile(root.FS())
		if err != nil {
			return err
		}
		_, err = io.WriteString(stdout, text)
		return err
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "serving %s on %s\n", *dir, listenURL(ln.Addr()))

	srv := &http.Server{
		Handler:           newHandler(root.FS()),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
