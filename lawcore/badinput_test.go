package lawcore

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// badFiles is the corpus of bad input: every file a public calculator should expect to be
// dropped on it. Each must give an *InputError that names the file and, where the fault is on
// a line, the line (want is a part of the message).
func badFiles() []struct{ name, text, want string } {
	many := func(n int, row func(i int) string) string {
		var b strings.Builder
		b.WriteString("step,loss\n")
		for i := 1; i <= n; i++ {
			b.WriteString(row(i))
		}
		return b.String()
	}
	return []struct{ name, text, want string }{
		{"empty.csv", "", "empty"},
		{"spaces.csv", "  \n\n\t\n", "empty"},
		{"binary.csv", "\x00\x01\x02\x03\xff\xfe", "binary"},
		{"png.csv", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"},
		{"gzip.csv", "\x1f\x8b\x08\x00\x00\x00\x00\x00", ""},
		{"utf16.csv", "\xff\xfes\x00t\x00e\x00p\x00", ""},
		{"header-only.csv", "step,loss\n", "no data"},
		{"header-only-crlf.csv", "step,loss\r\n", "no data"},
		{"no-header.csv", "1,3.5\n2,3.4\n", "line 1"},
		{"no-loss-column.csv", "step,accuracy\n1,0.5\n", "line 1"},
		{"no-step-column.csv", "time,loss\n1,3.5\n", "line 1"},
		{"ragged.csv", "step,loss\n1,3.5\n2,3.4,7\n", "line 3"},
		{"short-row.csv", "step,loss,lr\n1,3.5,1e-4\n2,3.4\n", "line 3"},
		{"nan-loss.csv", "step,loss\n1,3.5\n2,NaN\n", "line 3"},
		{"inf-loss.csv", "step,loss\n1,3.5\n2,Inf\n", "line 3"},
		{"negative-loss.csv", "step,loss\n1,3.5\n2,-3.4\n", "line 3"},
		{"zero-loss.csv", "step,loss\n1,3.5\n2,0\n", "line 3"},
		{"text-loss.csv", "step,loss\n1,3.5\n2,three\n", "line 3"},
		{"huge-number.csv", "step,loss\n1,3.5\n2,1e999\n", "line 3"},
		{"unsorted.csv", "step,loss\n1,3.5\n3,3.4\n2,3.3\n", "line 4"},
		{"duplicate.csv", "step,loss\n1,3.5\n2,3.4\n2,3.3\n", "line 4"},
		{"fractional-step.csv", "step,loss\n1,3.5\n2.5,3.4\n", "line 3"},
		{"negative-step.csv", "step,loss\n-1,3.5\n", "line 2"},
		{"step-too-large.csv", "step,loss\n1e300,3.5\n", "line 2"},
		{"decimal-comma.csv", "step;loss\n1;3,5\n2;3,4\n", "line 2"},
		{"negative-lr.csv", "step,loss,lr\n1,3.5,1e-4\n2,3.4,-1e-4\n", "line 3"},
		{"nan-lr.csv", "step,loss,lr\n1,3.5,NaN\n", "line 2"},
		{"unclosed-quote.csv", "step,loss\n1,\"3.5\n2,3.4\n", "line"},
		{"html.csv", "<html><body><script>alert(1)</script></body></html>", ""},
		{"html-run-name.csv", "Step,<img src=x onerror=alert(1)> - loss\n1,-3\n", ""},
		{"json-array-garbage.json", "[1, 2, 3]", ""},
		{"json-truncated.json", `{"log_history": [{"step": 1, "loss": 3.5}`, ""},
		{"json-wrong-types.json", `{"log_history": [{"step": "one", "loss": "3.5"}]}`, ""},
		{"json-bomb.json", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), ""},
		{"json-negative-loss.json", `{"log_history": [{"step": 1, "loss": -3.5}]}`, ""},
		{"trainer-state-empty.json", `{"log_history": []}`, ""},
		{"tensorboard-bad.csv", "Wall time,Step,Value\n1.0,1,3.5\n2.0,x,3.4\n", "line 3"},
		{"wandb-no-step.csv", "Time,run - loss\n1,3.5\n", ""},
		{"megatron-no-loss.log", " iteration      100/  10000 | consumed samples: 3200 | elapsed time per iteration (ms): 950.1 |\n", ""},
		{"log-nonsense.log", "hello world\nthis is not a training log\n", ""},
		{"only-comments.csv", "# a comment\n# another\n", ""},
		{"too-many-rows.csv", many(MaxRows+1, func(i int) string { return fmt.Sprintf("%d,3\n", i) }), ""},
	}
}

func TestBadInputCorpus(t *testing.T) {
	files := badFiles()
	if len(files) < 40 {
		t.Fatalf("the corpus has %d files, want at least 40", len(files))
	}
	for _, f := range files {
		imp, err := ImportFile(f.name, []byte(f.text), ImportChoice{})
		if err == nil {
			if imp.Ambiguity != nil {
				continue // a question to the user, not a failure
			}
			t.Errorf("%s: accepted (%d curves)", f.name, len(imp.Curves))
			continue
		}
		var ie *InputError
		msg := err.Error()
		if !errors.As(err, &ie) || !strings.HasPrefix(msg, f.name) || !strings.Contains(msg, f.want) {
			t.Errorf("%s: got %q, want an *InputError starting with the file name and containing %q", f.name, msg, f.want)
		}
	}
}

// Large but valid files load: a million rows, and a 50 MB file.
func TestLargeValidFilesLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 70 MB of input")
	}
	var b strings.Builder
	b.WriteString("step,loss,lr\n")
	for i := 1; i <= 1_000_000; i++ {
		fmt.Fprintf(&b, "%d,%.6f,0.0003\n", i, 3+1/float64(i))
	}
	imp, err := ImportFile("million.csv", []byte(b.String()), ImportChoice{})
	if err != nil || len(imp.Curves) != 1 || imp.Curves[0].Points != 1_000_000 {
		t.Fatalf("a million rows: %v", err)
	}
	b.Reset()
	b.WriteString("step,loss,comment\n")
	pad := strings.Repeat("x", 500)
	for i := 1; b.Len() < 50<<20; i++ {
		fmt.Fprintf(&b, "%d,%.6f,%s\n", i, 3+1/float64(i), pad)
	}
	if imp, err = ImportFile("fifty-megabytes.csv", []byte(b.String()), ImportChoice{}); err != nil || len(imp.Curves) != 1 {
		t.Fatalf("50 MB: %v", err)
	}
}
