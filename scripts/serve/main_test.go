package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/lawcalc/annealing/scripts/internal/sitetest"
)

// newTestServer serves a temporary directory holding a small site, with a secret file next to
// it (outside the served directory) and a symbolic link pointing at that secret.
func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv, _ := newTestSite(t)
	return srv
}

// precompressedSite are files with precompressed copies (their bodies say which they are: the
// server never decompresses), a hashed asset, and a copy whose file is not there.
var precompressedSite = map[string]string{
	"page.html":                           "<!doctype html><title>raw</title>",
	"page.html.br":                        "brotli of page.html",
	"page.html.gz":                        "gzip of page.html",
	"js/only-gz.js":                       "export const raw = 1;",
	"js/only-gz.js.gz":                    "gzip of only-gz.js",
	"assets/lawcore.0123456789ab.wasm":    "\x00asm raw",
	"assets/lawcore.0123456789ab.wasm.br": "brotli of the wasm",
	"assets/lawcore.0123456789ab.wasm.gz": "gzip of the wasm",
	"assets/style.0123456789ab.css":       "body{}",
	"orphan.js.br":                        "a copy without its file",
}

// newTestSite is newTestServer, also returning the served directory.
func newTestSite(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "site")
	files := map[string]string{
		"index.html":           "<!doctype html><title>t</title>",
		"app.mjs":              "export const x = 1;",
		"worker.js":            "self.onmessage = () => {};",
		"lawcore.wasm":         "\x00asm\x01\x00\x00\x00",
		"manifest.webmanifest": `{"name": "t"}`,
		"style.css":            "body{}",
		"examples/a.json":      `{"a": 1}`,
		"examples/b.csv":       "step,loss\n1,3.5\n",
		"vendor/uPlot.esm.js":  "export default {};",
		"nolisting/file.txt":   "hello",
		"../secret.txt":        "top secret",
	}
	for name, body := range precompressedSite {
		files[name] = body
	}
	sitetest.WriteFiles(t, dir, files)
	if err := os.Symlink(filepath.Join(base, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	srv := httptest.NewServer(newHandler(root.FS()))
	t.Cleanup(srv.Close)
	return srv, dir
}

// rawGet sends path as written, without the client cleaning it, and returns status and body.
func rawGet(t *testing.T, srv *httptest.Server, target string) (int, http.Header, string) {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

func get(t *testing.T, srv *httptest.Server, path string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func TestContentTypes(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		path, contentType, body string
	}{
		{"/", "text/html; charset=utf-8", "<!doctype html><title>t</title>"},
		{"/lawcore.wasm", "application/wasm", "\x00asm\x01\x00\x00\x00"},
		{"/app.mjs", "text/javascript; charset=utf-8", "export const x = 1;"},
		{"/worker.js", "text/javascript; charset=utf-8", "self.onmessage = () => {};"},
		{"/vendor/uPlot.esm.js", "text/javascript; charset=utf-8", "export default {};"},
		{"/manifest.webmanifest", "application/manifest+json", `{"name": "t"}`},
		{"/style.css", "text/css; charset=utf-8", "body{}"},
		{"/examples/a.json", "application/json", `{"a": 1}`},
		{"/examples/b.csv", "text/csv; charset=utf-8", "step,loss\n1,3.5\n"},
	}
	for _, tt := range tests {
		resp, body := get(t, srv, tt.path)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: status %d, want 200", tt.path, resp.StatusCode)
			continue
		}
		if got := resp.Header.Get("Content-Type"); got != tt.contentType {
			t.Errorf("GET %s: Content-Type %q, want %q", tt.path, got, tt.contentType)
		}
		if body != tt.body {
			t.Errorf("GET %s: body %q, want %q", tt.path, body, tt.body)
		}
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	srv := newTestServer(t)
	want := map[string]string{
		"Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; " +
			"worker-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; " +
			"font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; " +
			"frame-ancestors 'none'",
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "no-referrer",
		"Cache-Control":          "no-cache",
	}
	// Found files, missing files and refused paths all carry the headers.
	for _, path := range []string{"/", "/lawcore.wasm", "/missing.js", "/nolisting/"} {
		resp, _ := get(t, srv, path)
		for k, v := range want {
			if got := resp.Header.Get(k); got != v {
				t.Errorf("GET %s: %s = %q, want %q", path, k, got, v)
			}
		}
	}
	_, h, _ := rawGet(t, srv, "/../secret.txt")
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("GET /../secret.txt: %s = %q, want %q", k, got, v)
		}
	}
}

func TestTraversalRefused(t *testing.T) {
	srv := newTestServer(t)
	for _, target := range []string{
		"/../secret.txt",
		"/examples/../../secret.txt",
		"/%2e%2e/secret.txt",
		"/examples/%2e%2e/%2e%2e/secret.txt",
		"/..%2fsecret.txt",
		"/..%5csecret.txt",
		"/examples\\..\\..\\secret.txt",
	} {
		status, _, body := rawGet(t, srv, target)
		if status != http.StatusBadRequest {
			t.Errorf("GET %s: status %d, want 400", target, status)
		}
		if strings.Contains(body, "top secret") {
			t.Errorf("GET %s: served the file outside the directory", target)
		}
	}
	// A symbolic link inside the directory that points outside it is not followed.
	resp, body := get(t, srv, "/link.txt")
	if resp.StatusCode == http.StatusOK || strings.Contains(body, "top secret") {
		t.Errorf("GET /link.txt: status %d body %q: followed a link out of the directory", resp.StatusCode, body)
	}
}

func TestNoDirectoryListingAndMissing(t *testing.T) {
	srv := newTestServer(t)
	for _, path := range []string{"/nolisting/", "/examples/", "/missing.html"} {
		resp, body := get(t, srv, path)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", path, resp.StatusCode)
		}
		if strings.Contains(body, "file.txt") || strings.Contains(body, "a.json") {
			t.Errorf("GET %s: body lists the directory: %q", path, body)
		}
	}
}

func TestOnlyGetAndHead(t *testing.T) {
	srv := newTestServer(t)
	resp, err := http.Post(srv.URL+"/index.html", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", resp.StatusCode)
	}
	resp, err = http.Head(srv.URL + "/lawcore.wasm")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("HEAD /lawcore.wasm: status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

func TestListenURL(t *testing.T) {
	tests := []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 41234}, "http://127.0.0.1:41234"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, "http://[::1]:8080"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "http://localhost:8080"},
		{&net.TCPAddr{Port: 9000}, "http://localhost:9000"},
	}
	for _, tt := range tests {
		if got := listenURL(tt.addr); got != tt.want {
			t.Errorf("listenURL(%v) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe to write from run's goroutine and read from the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestRunPrintsURLAndServes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lawcore.wasm"), []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-dir", dir, "-addr", "127.0.0.1:0"}, &stdout, &stderr) }()

	var line string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if out := stdout.String(); strings.Contains(out, "\n") {
			line = strings.SplitN(out, "\n", 2)[0]
			break
		}
	}
	prefix := "serving " + dir + " on http://127.0.0.1:"
	if !strings.HasPrefix(line, prefix) || strings.HasSuffix(line, ":0") {
		t.Fatalf("first line %q, want %q followed by a real port", line, prefix)
	}
	url := strings.TrimPrefix(line, "serving "+dir+" on ")
	resp, err := http.Get(url + "/lawcore.wasm")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("GET %s/lawcore.wasm: status %d, Content-Type %q", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run returned %v after cancel, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after its context was cancelled")
	}
}

func TestRunErrors(t *testing.T) {
	var stdout, stderr syncBuffer
	err := run(context.Background(), []string{"-dir", filepath.Join(t.TempDir(), "missing")}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "make build") {
		t.Errorf("missing dir: error %v, want one suggesting make build", err)
	}
	err = run(context.Background(), []string{"-nosuchflag"}, &stdout, &stderr)
	var usage usageError
	if !errors.As(err, &usage) {
		t.Errorf("bad flag: error %v, want a usageError", err)
	}
	err = run(context.Background(), []string{"extra"}, &stdout, &stderr)
	if !errors.As(err, &usage) {
		t.Errorf("extra argument: error %v, want a usageError", err)
	}
	if stdout.String() != "" {
		t.Errorf("stdout %q, want nothing on errors", stdout.String())
	}
}

// TestHeadersFile checks that the _headers file a static host reads gives every path the
// headers this server sends (read back from real responses): the security headers on every
// path, each top-level entry of the site its Cache-Control, .wasm its content type; and that
// no two rules matching one path set the same header (the hosts would join their values).
func TestHeadersFile(t *testing.T) {
	srv, dir := newTestSite(t)
	var out, errs strings.Builder
	if err := run(context.Background(), []string{"-headers", "-dir", dir}, &out, &errs); err != nil {
		t.Fatal(err, errs.String())
	}
	rules := map[string]map[string]string{}
	var order []string
	var rule string
	for _, line := range strings.Split(out.String(), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case !strings.HasPrefix(line, " "):
			rule = line
			rules[rule] = map[string]string{}
			order = append(order, rule)
		default:
			k, v, ok := strings.Cut(strings.TrimSpace(line), ": ")
			if !ok || rule == "" {
				t.Fatalf("not a header line: %q", line)
			}
			rules[rule][k] = v
		}
	}
	// matches says whether a _headers rule (a path, * matching anything) matches the URL path p.
	matches := func(rule, p string) bool {
		re := "^" + strings.ReplaceAll(regexp.QuoteMeta(rule), `\*`, ".*") + "$"
		return regexp.MustCompile(re).MatchString(p)
	}
	for _, p := range []string{"/", "/page.html", "/lawcore.wasm", "/app.mjs", "/js/only-gz.js", "/examples/a.json",
		"/vendor/uPlot.esm.js", "/assets/lawcore.0123456789ab.wasm", "/assets/style.0123456789ab.css"} {
		resp, _ := getWith(t, srv, p, "br, gzip")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: status %d", p, resp.StatusCode)
		}
		set := map[string]string{}
		for _, r := range order {
			if !matches(r, p) {
				continue
			}
			for k, v := range rules[r] {
				if prev, dup := set[k]; dup {
					t.Errorf("_headers: %s gets %s from two rules (%q and %q): hosts would join them", p, k, prev, v)
				}
				set[k] = v
			}
		}
		for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Cache-Control"} {
			if got, want := set[k], resp.Header.Get(k); got != want {
				t.Errorf("_headers gives %s %s = %q, the server sends %q", p, k, got, want)
			}
		}
		if strings.HasSuffix(p, ".wasm") && set["Content-Type"] != resp.Header.Get("Content-Type") {
			t.Errorf("_headers gives %s Content-Type %q, the server sends %q", p, set["Content-Type"], resp.Header.Get("Content-Type"))
		}
	}
}

// getWith sends a GET of path with the Accept-Encoding header ae (none when empty), and
// returns the response and its body as sent (never decompressed).
func getWith(t *testing.T, srv *httptest.Server, path, ae string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ae != "" {
		req.Header.Set("Accept-Encoding", ae)
	}
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

func TestPrecompressedByAcceptEncoding(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		path, acceptEncoding        string
		encoding, body, vary, ctype string
	}{
		{"/page.html", "gzip, deflate, br", "br", "brotli of page.html", "Accept-Encoding", "text/html; charset=utf-8"},
		{"/page.html", "br;q=1.0, gzip;q=0.8", "br", "brotli of page.html", "Accept-Encoding", "text/html; charset=utf-8"},
		{"/page.html", "gzip", "gzip", "gzip of page.html", "Accept-Encoding", "text/html; charset=utf-8"},
		{"/page.html", "gzip, br;q=0", "gzip", "gzip of page.html", "Accept-Encoding", "text/html; charset=utf-8"},
		{"/page.html", "*", "br", "brotli of page.html", "Accept-Encoding", "text/html; charset=utf-8"},
		{"/page.html", "br;q=0, gzip;q=0", "", "<!doctype html><title>raw</title>", "Accept-Encoding", "text/html; charset=utf-8"},
		{"/page.html", "identity", "", "<!doctype html><title>raw</title>", "Accept-Encoding", "text/html; charset=utf-8"},
		{"/page.html", "", "", "<!doctype html><title>raw</title>", "Accept-Encoding", "text/html; charset=utf-8"},
		{"/js/only-gz.js", "br, gzip", "gzip", "gzip of only-gz.js", "Accept-Encoding", "text/javascript; charset=utf-8"},
		{"/js/only-gz.js", "br", "", "export const raw = 1;", "Accept-Encoding", "text/javascript; charset=utf-8"},
		{"/assets/lawcore.0123456789ab.wasm", "gzip, br", "br", "brotli of the wasm", "Accept-Encoding", "application/wasm"},
		{"/assets/style.0123456789ab.css", "gzip, br", "", "body{}", "", "text/css; charset=utf-8"},
		{"/app.mjs", "br", "", "export const x = 1;", "", "text/javascript; charset=utf-8"},
	}
	for _, tt := range tests {
		resp, body := getWith(t, srv, tt.path, tt.acceptEncoding)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s (%q): status %d", tt.path, tt.acceptEncoding, resp.StatusCode)
			continue
		}
		h := resp.Header
		if got := h.Get("Content-Encoding"); got != tt.encoding {
			t.Errorf("GET %s (%q): Content-Encoding %q, want %q", tt.path, tt.acceptEncoding, got, tt.encoding)
		}
		if body != tt.body {
			t.Errorf("GET %s (%q): body %q, want %q", tt.path, tt.acceptEncoding, body, tt.body)
		}
		if got := h.Get("Vary"); got != tt.vary {
			t.Errorf("GET %s (%q): Vary %q, want %q", tt.path, tt.acceptEncoding, got, tt.vary)
		}
		if got := h.Get("Content-Type"); got != tt.ctype {
			t.Errorf("GET %s (%q): Content-Type %q, want %q", tt.path, tt.acceptEncoding, got, tt.ctype)
		}
		if got := h.Get("Content-Length"); got != strconv.Itoa(len(tt.body)) {
			t.Errorf("GET %s (%q): Content-Length %q, want %d", tt.path, tt.acceptEncoding, got, len(tt.body))
		}
		if got := h.Get("Content-Security-Policy"); got != contentSecurityPolicy {
			t.Errorf("GET %s (%q): no Content-Security-Policy", tt.path, tt.acceptEncoding)
		}
	}
	// A copy whose file is not there is not a file of the site; nor does a copy escape.
	for _, target := range []string{"/orphan.js", "/../secret.txt"} {
		status, _, body := rawGet(t, srv, target)
		if status == http.StatusOK || strings.Contains(body, "copy") || strings.Contains(body, "top secret") {
			t.Errorf("GET %s: status %d body %q", target, status, body)
		}
	}
}

func TestCacheControl(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct{ path, want string }{
		{"/", "no-cache"},
		{"/index.html", "no-cache"},
		{"/worker.js", "no-cache"},
		{"/manifest.webmanifest", "no-cache"},
		{"/vendor/uPlot.esm.js", "no-cache"},
		{"/assets/lawcore.0123456789ab.wasm", "public, max-age=31536000, immutable"},
		{"/assets/style.0123456789ab.css", "public, max-age=31536000, immutable"},
		{"/assets/missing.0123456789ab.js", "no-cache"}, // a 404 is never kept a year
	}
	for _, tt := range tests {
		resp, _ := getWith(t, srv, tt.path, "br, gzip")
		if got := resp.Header.Get("Cache-Control"); got != tt.want {
			t.Errorf("GET %s: Cache-Control %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestAcceptsEncoding(t *testing.T) {
	tests := []struct {
		header, coding string
		want           bool
	}{
		{"gzip, deflate, br", "br", true},
		{"gzip, deflate, br", "gzip", true},
		{"gzip, deflate", "br", false},
		{"BR", "br", true},
		{"br;q=0", "br", false},
		{"br; q=0.5", "br", true},
		{"br;q=0.000", "br", false},
		{"br;q=x", "br", false},
		{"*", "br", true},
		{"*;q=0", "gzip", false},
		{"*, br;q=0", "br", false},
		{"gzip;q=0, *", "gzip", false},
		{"", "gzip", false},
		{"identity", "gzip", false},
	}
	for _, tt := range tests {
		if got := acceptsEncoding(tt.header, tt.coding); got != tt.want {
			t.Errorf("acceptsEncoding(%q, %q) = %v, want %v", tt.header, tt.coding, got, tt.want)
		}
	}
}

// A real file and its real brotli and gzip copies, larger than the server's write buffer: each
// is sent whole with its Content-Length (not chunked), and decodes to the file.
func TestPrecompressedLargeFileDecodes(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	for i := 0; text.Len() < 200_000; i++ {
		fmt.Fprintf(&text, "export const v%d = %d; // a line of a large module\n", i, i*i)
	}
	file := []byte(text.String())
	var br, gz bytes.Buffer
	bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
	bw.Write(file)
	bw.Close()
	zw := gzip.NewWriter(&gz)
	zw.Write(file)
	zw.Close()
	for name, data := range map[string][]byte{"big.js": file, "big.js.br": br.Bytes(), "big.js.gz": gz.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	srv := httptest.NewServer(newHandler(root.FS()))
	defer srv.Close()

	for _, tt := range []struct {
		accept, encoding string
		sent             []byte
	}{{"gzip, deflate, br", "br", br.Bytes()}, {"gzip", "gzip", gz.Bytes()}, {"", "", file}} {
		req, _ := http.NewRequest("GET", srv.URL+"/big.js", nil)
		req.Header.Set("Accept-Encoding", tt.accept) // set by hand: the client does not decode
		resp, err := srv.Client().Transport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		h := resp.Header
		if h.Get("Content-Encoding") != tt.encoding || h.Get("Vary") != "Accept-Encoding" || h.Get("Cache-Control") != "no-cache" {
			t.Errorf("%q: Content-Encoding %q, Vary %q, Cache-Control %q", tt.accept, h.Get("Content-Encoding"), h.Get("Vary"), h.Get("Cache-Control"))
		}
		if resp.ContentLength != int64(len(tt.sent)) || len(resp.TransferEncoding) > 0 {
			t.Errorf("%q: Content-Length %d, Transfer-Encoding %v; want %d bytes, not chunked", tt.accept, resp.ContentLength, resp.TransferEncoding, len(tt.sent))
		}
		var decoded []byte
		switch tt.encoding {
		case "br":
			decoded, err = io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
		case "gzip":
			var zr *gzip.Reader
			if zr, err = gzip.NewReader(bytes.NewReader(body)); err == nil {
				decoded, err = io.ReadAll(zr)
			}
		default:
			decoded = body
		}
		if err != nil || !bytes.Equal(decoded, file) {
			t.Errorf("%q: the body (%d bytes) does not decode to the file: %v", tt.accept, len(body), err)
		}
	}
}
