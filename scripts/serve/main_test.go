package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestServer serves a temporary directory holding a small site, with a secret file next to
// it (outside the served directory) and a symbolic link pointing at that secret.
func newTestServer(t *testing.T) *httptest.Server {
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
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
	return srv
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
// headers this server sends (read back from a real response), and .wasm its content type.
func TestHeadersFile(t *testing.T) {
	var out, errs strings.Builder
	if err := run(context.Background(), []string{"-headers"}, &out, &errs); err != nil {
		t.Fatal(err, errs.String())
	}
	rules := map[string]map[string]string{}
	var path string
	for _, line := range strings.Split(out.String(), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case !strings.HasPrefix(line, " "):
			path = line
			rules[path] = map[string]string{}
		default:
			k, v, ok := strings.Cut(strings.TrimSpace(line), ": ")
			if !ok || path == "" {
				t.Fatalf("not a header line: %q", line)
			}
			rules[path][k] = v
		}
	}
	resp, _ := get(t, newTestServer(t), "/")
	for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Cache-Control"} {
		if got, want := rules["/*"][k], resp.Header.Get(k); got != want {
			t.Errorf("_headers /* %s = %q, the server sends %q", k, got, want)
		}
	}
	if got := rules["/*.wasm"]["Content-Type"]; got != "application/wasm" {
		t.Errorf("_headers /*.wasm Content-Type = %q", got)
	}
}
