package badinput

import (
	"bytes"
	"strconv"
	"strings"
)

// jsonNesting is how deep the nested JSON files go: far deeper than any reader should follow.
const jsonNesting = 100_000

// Files returns the corpus. The file with too many rows holds maxRows+1 data rows (pass
// importer.MaxRows).
func Files(maxRows int) []File {
	return append([]File{
		text("empty.csv", "", "empty"),
		text("spaces.csv", "  \n\n\t\n", "empty"),
		text("binary.csv", "\x00\x01\x02\x03\xff\xfe", "binary"),
		text("png.csv", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
		text("gzip.csv", "\x1f\x8b\x08\x00\x00\x00\x00\x00", ""),
		text("utf16.csv", "\xff\xfes\x00t\x00e\x00p\x00", ""),
		text("nul-bytes.csv", "step,loss\n1\x00,3.5\n2,3.4\n", "binary"),
		text("invalid-utf8.csv", "step,loss\n1,\xff\xfe\n", "line 2"),
		text("header-only.csv", "step,loss\n", "no data"),
		text("header-only-crlf.csv", "step,loss\r\n", "no data"),
		text("bom-header-only.csv", "\ufeffstep,loss\n", "no data"),
		text("no-header.csv", "1,3.5\n2,3.4\n", "line 1"),
		{Name: "no-loss-column.csv", Data: []byte("step,accuracy\n1,0.5\n"), Want: "line 1", Asks: true},
		text("no-step-column.csv", "time,loss\n1,3.5\n", "line 1"),
		text("ragged.csv", "step,loss\n1,3.5\n2,3.4,7\n", "line 3"),
		text("short-row.csv", "step,loss,lr\n1,3.5,1e-4\n2,3.4\n", "line 3"),
		text("nan-loss.csv", "step,loss\n1,3.5\n2,NaN\n", "line 3"),
		text("inf-loss.csv", "step,loss\n1,3.5\n2,Inf\n", "line 3"),
		text("negative-loss.csv", "step,loss\n1,3.5\n2,-3.4\n", "line 3"),
		text("zero-loss.csv", "step,loss\n1,3.5\n2,0\n", "line 3"),
		text("text-loss.csv", "step,loss\n1,3.5\n2,three\n", "line 3"),
		text("crlf-text-loss.csv", "step,loss\r\n1,3.5\r\n2,oops\r\n", "line 3"),
		text("huge-number.csv", "step,loss\n1,3.5\n2,1e999\n", "line 3"),
		text("unsorted.csv", "step,loss\n1,3.5\n3,3.4\n2,3.3\n", "line 4"),
		text("duplicate.csv", "step,loss\n1,3.5\n2,3.4\n2,3.3\n", "line 4"),
		text("fractional-step.csv", "step,loss\n1,3.5\n2.5,3.4\n", "line 3"),
		text("negative-step.csv", "step,loss\n-1,3.5\n", "line 2"),
		text("text-step.csv", "step,loss\none,3.5\ntwo,3.4\n", "line 2"),
		text("step-too-large.csv", "step,loss\n1e300,3.5\n", "line 2"),
		text("step-overflow.csv", "step,loss\n1e400,3.5\n2,3.4\n", "line 2"),
		{Name: "step-zero-only.csv", Data: []byte("step,loss\n0,3.5\n"), NothingToFit: true},
		text("decimal-comma.csv", "step;loss\n1;3,5\n2;3,4\n", "line 2"),
		text("negative-lr.csv", "step,loss,lr\n1,3.5,1e-4\n2,3.4,-1e-4\n", "line 3"),
		text("nan-lr.csv", "step,loss,lr\n1,3.5,NaN\n", "line 2"),
		text("unclosed-quote.csv", "step,loss\n1,\"3.5\n2,3.4\n", "line"),
		text("html.csv", "<html><body><script>alert(1)</script></body></html>", ""),
		text("page.html", "<!doctype html><html><body><script>alert(1)</script><img src=x onerror=alert(2)></body></html>", "line 1"),
		text("html-run-name.csv", "Step,<img src=x onerror=alert(1)> - loss\n1,-3\n", ""),
		text("json-array-garbage.json", "[1, 2, 3]", ""),
		text("json-truncated.json", `{"log_history": [{"step": 1, "loss": 3.5}`, ""),
		text("json-truncated-in-key.json", `{"log_history": [{"step": 1, "loss": 3.5}, {"step": 2, "lo`, "line 1"),
		text("json-wrong-types.json", `{"log_history": [{"step": "one", "loss": "3.5"}]}`, ""),
		text("json-bomb.json", strings.Repeat("[", jsonNesting)+strings.Repeat("]", jsonNesting), ""),
		text("json-deep-object.json", strings.Repeat(`{"a":`, jsonNesting)+"1"+strings.Repeat("}", jsonNesting), "line 1"),
		text("json-negative-loss.json", `{"log_history": [{"step": 1, "loss": -3.5}]}`, ""),
		text("trainer-state-empty.json", `{"log_history": []}`, ""),
		text("trainer-state-no-loss.json", `{"log_history": [{"step": 1, "eval_accuracy": 0.5}]}`, "no loss"),
		text("tensorboard-bad.csv", "Wall time,Step,Value\n1.0,1,3.5\n2.0,x,3.4\n", "line 3"),
		text("wandb-no-step.csv", "Time,run - loss\n1,3.5\n", ""),
		text("megatron-no-loss.log", " iteration      100/  10000 | consumed samples: 3200 | elapsed time per iteration (ms): 950.1 |\n", ""),
		text("log-nonsense.log", "hello world\nthis is not a training log\n", ""),
		text("only-comments.csv", "# a comment\n# another\n", ""),
		{Name: "too-many-rows.csv", Data: tooManyRows(maxRows)},
	}, rawLogs()...)
}

// text is a File whose content is s.
func text(name, s, want string) File {
	return File{Name: name, Data: []byte(s), Want: want}
}

// tooManyRows is a valid CSV of loss against step but for its length: maxRows+1 data rows.
func tooManyRows(maxRows int) []byte {
	var b bytes.Buffer
	b.WriteString("step,loss\n")
	for i := 1; i <= maxRows+1; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteString(",3\n")
	}
	return b.Bytes()
}
