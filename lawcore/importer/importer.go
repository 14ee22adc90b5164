package importer

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// Import formats, as named in [Result.Format].
const (
	// FormatCSV is a CSV or TSV file whose header names a step column and loss
	// columns (and optionally a learning-rate column and a run column).
	FormatCSV = "csv"
	// FormatWandB is a Weights & Biases panel export: `Step`, `<run> - <metric>`,
	// `<run> - <metric>__MIN`, `<run> - <metric>__MAX`.
	FormatWandB = "wandb"
	// FormatTensorBoardCSV is TensorBoard's scalar download as CSV: `Wall time,Step,Value`.
	FormatTensorBoardCSV = "tensorboard-csv"
	// FormatTensorBoardJSON is TensorBoard's scalar download as JSON: `[[wall, step, value], ...]`.
	FormatTensorBoardJSON = "tensorboard-json"
	// FormatHFTrainerState is a Hugging Face trainer_state.json (its log_history).
	FormatHFTrainerState = "hf-trainer-state"
	// FormatJSONRecords is a JSON array of objects, or JSON lines, each object holding a
	// step and metrics, such as `{"step": 10, "loss": 3.2, "lr": 1e-4}`.
	FormatJSONRecords = "json-records"
	// FormatMegatron is a Megatron-LM (or GPT-NeoX) training log.
	FormatMegatron = "megatron"
	// FormatNanoGPT is a nanoGPT training log (`step N: train loss ..., val loss ...`,
	// `iter N: loss ...`).
	FormatNanoGPT = "nanogpt"
	// FormatModdedNanoGPT is a modded-nanogpt training log (`step:N/M val_loss:...`).
	FormatModdedNanoGPT = "modded-nanogpt"
	// FormatTensorBoardEvents is a TensorBoard event file (`events.out.tfevents.*`, written by
	// TensorFlow, PyTorch's SummaryWriter, tensorboardX, JAX/Flax): its scalar tags.
	FormatTensorBoardEvents = "tensorboard-events"
	// FormatMLflow is an MLflow metric file (mlruns/<experiment>/<run>/metrics/<key>): lines
	// `timestamp value step`.
	FormatMLflow = "mlflow"
	// FormatLightning is PyTorch Lightning's CSVLogger metrics.csv: `epoch`, `step` and the
	// metrics, with empty cells where a metric was not logged.
	FormatLightning = "lightning-csv"
	// FormatZip is a zip archive of logs, read as a folder (see ReadFiles).
	FormatZip = "zip"
	// FormatTar is a tar archive of logs (a .tar, a .tar.gz), read as a folder.
	FormatTar = "tar"
	// FormatFolder is the result of ReadFiles: the logs of a folder, or of several files.
	FormatFolder = "folder"
)

// MaxBytes bounds the size of an imported file, and what one call to Read or ReadFiles
// decompresses (gzip files and zip archives) over all its files.
const MaxBytes = 512 << 20

// Result is what [Read] read from a file: either the curves, or, when the file holds
// several candidate loss columns or several runs and the choice did not settle which to take,
// an Ambiguity listing them (and no curves). The arrays of each curve are left out of JSON:
// they cross to JavaScript as typed arrays.
type Result struct {
	// Name is the file's name.
	Name string `json:"name"`
	// Format is one of the Format constants.
	Format string `json:"format"`
	// Curves are the curves read, one per chosen run; empty when Ambiguity is set.
	Curves []*Curve `json:"curves" columns:"each"`
	// Ambiguity, when set, lists the columns and runs to choose from.
	Ambiguity *Ambiguity `json:"ambiguity,omitempty"`
	// Loss says which column the loss was read from, why, and the file's other candidates
	// (nil for a file of learning rates, or one whose column is open).
	Loss *LossChoice `json:"loss,omitempty"`
	// Notes say what the reader did that the user may want to know: values skipped, steps
	// logged twice, learning rates interpolated, an event file's last record cut short; and,
	// for a folder or an archive, the files skipped and why.
	Notes []string `json:"notes"`
}

// Curve is one curve read from a file: steps with their loss and, when the file has
// them, learning rates. A curve read from a file holding only learning rates (for [MergeLR])
// has LR and no Loss.
type Curve struct {
	// Name names the curve: the run's name, or else the file's name without its extension.
	Name string `json:"name"`
	// File is the name of the file it was read from.
	File string `json:"file"`
	// Run is the run's name in files holding several runs ("" otherwise).
	Run string `json:"run,omitempty"`
	// Metric is the name of the column or key the values were read from, such as
	// "val_loss", "eval_loss" or "lm loss".
	Metric string `json:"metric"`
	// Points is the number of steps.
	Points int `json:"points"`
	// HasLoss says whether Loss is set; HasLR whether LR is.
	HasLoss bool `json:"hasLoss"`
	HasLR   bool `json:"hasLR"`
	// Source names the columns or fields used.
	Source Source `json:"source"`
	// Files are the paths of the files the curve was read from, its loss's and its learning
	// rates', when it was read from a folder or an archive ([ReadFiles], or [Read] of a zip).
	Files []string `json:"files,omitempty"`

	// Steps are whole numbers in strictly increasing order; Loss (positive) and LR (zero or
	// more) have one value per step. They cross to JavaScript as typed arrays (the column
	// tags name them), not as JSON.
	Steps []float64 `json:"-" column:"steps"`
	Loss  []float64 `json:"-" column:"loss"`
	LR    []float64 `json:"-" column:"lr"`
	// LRSteps and LRLogged are the learning rates as they were logged, when at steps of their
	// own (every 10 steps beside an eval loss every 1,000, say): the schedule is theirs, for LR
	// at the loss's steps alone would miss every drop between two of them. Nil otherwise.
	LRSteps  []float64 `json:"-" column:"lrSteps"`
	LRLogged []float64 `json:"-" column:"lrLogged"`
}

// keepLogged sets the curve's LRSteps and LRLogged to the learning rates as logged, when they
// were logged at other steps than the loss's (LR then holds them at the loss's steps).
func (c *Curve) keepLogged(steps, lr []float64) {
	if slices.Equal(steps, c.Steps) {
		return
	}
	c.LRSteps, c.LRLogged = steps, lr
}

// Source names the columns (or log fields, or JSON keys) a curve was read from; LR is
// empty when the curve has no learning rates.
type Source struct {
	Step string `json:"step"`
	Loss string `json:"loss,omitempty"`
	LR   string `json:"lr,omitempty"`
}

// Ambiguity lists what the user must choose before a file can be read: the column holding the
// loss (Columns, when there are several candidates) and the runs to take (Runs, when there are
// several). A [Choice] naming a column and runs settles it.
type Ambiguity struct {
	// Message asks the question in words.
	Message string `json:"message"`
	// Columns are the candidate loss columns (choose one), nil when settled.
	Columns []Option `json:"columns,omitempty"`
	// Runs are the runs (choose one or more), nil when settled.
	Runs []Option `json:"runs,omitempty"`
	// Default is the column to offer first (see [Agree]): never a summary, a validation loss
	// where there is one; Reason says why in a sentence.
	Default string `json:"default,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// Option is one column or run offered by an [Ambiguity], with a summary of its values
// (all 0 for a column offered only by its name, when no column is named like a loss).
type Option struct {
	// Name is what [Choice] takes to choose it.
	Name string `json:"name"`
	// Kind hints at what a column holds: "train" or "validation" ("" for runs).
	Kind string `json:"kind,omitempty"`
	// Points counts the values; FirstStep and LastStep are the first and last steps.
	Points    int     `json:"points"`
	FirstStep float64 `json:"firstStep"`
	LastStep  float64 `json:"lastStep"`
	// Summary marks a column that is no curve to fit: one point, or named as a run's summary
	// (final_*, best_*, min_*).
	Summary bool `json:"summary,omitempty"`
}

// Choice settles an [Ambiguity]: the column holding the loss and the runs to take. The
// zero value chooses nothing, which is enough for files with one candidate.
type Choice struct {
	// Column names the loss column (or metric, or log field), as in [Option.Name]; any
	// column of the file may be named, even one not named like a loss.
	Column string `json:"column,omitempty"`
	// Runs names the runs to take, one curve each.
	Runs []string `json:"runs,omitempty"`
	// AsLR reads the file as learning rates, for [MergeLR]: the curves have LR and no Loss,
	// taken from the column Column names, else the learning-rate column, else the only value
	// column (such as the Value of a TensorBoard export).
	AsLR bool `json:"asLR,omitempty"`
}

// Read recognises the format of a file by its content (CSV or TSV with named columns, a
// W&B panel export, a TensorBoard scalar export as CSV or JSON, a TensorBoard event file, a
// Hugging Face trainer_state.json, JSON records, a Megatron-LM, nanoGPT or modded-nanogpt
// log, an MLflow metric file, a PyTorch Lightning metrics.csv) and reads its loss curves. A
// gzip file is read as the file it holds; a zip or tar archive as a folder of files, as [ReadFiles]
// reads them. When the file holds several candidate loss columns or several runs and choice
// does not settle which to take, the result has an Ambiguity and no curves. Errors are
// *input.Error naming the file and the line or record (and column or field where there
// is one).
func Read(name string, data []byte, choice Choice) (*Result, error) {
	where := name
	if where == "" {
		where = "pasted data"
	}
	if err := checkSize(where, data); err != nil {
		return nil, err
	}
	ex := newExpander()
	switch {
	case isGzip(data):
		inner, err := ex.gunzip(where, data)
		if err != nil {
			return nil, err
		}
		switch {
		case isGzip(inner):
			return nil, input.Errorf(where, "", "a gzip file inside a gzip file: decompress it first")
		case isArchive(inner): // a .tar.gz, or a zip gzipped
			return readArchive(name, where, inner, choice, ex)
		}
		imp, err := readPlain(gunzippedName(name), where, inner, choice)
		if err != nil {
			return nil, err
		}
		imp.Name = name
		for _, c := range imp.Curves {
			c.File = name
		}
		return imp, nil
	case isArchive(data):
		return readArchive(name, where, data, choice, ex)
	}
	return readPlain(name, where, data, choice)
}

// readPlain reads a file that is neither compressed nor an archive.
func readPlain(name, where string, data []byte, choice Choice) (*Result, error) {
	set, err := readSeries(name, where, data, choice)
	if err != nil {
		return nil, err
	}
	return set.resolve()
}

// readSeries reads the series of a file that is neither compressed nor an archive: an event
// file, JSON, or text.
func readSeries(name, where string, data []byte, choice Choice) (*fileReader, error) {
	if err := checkSize(where, data); err != nil {
		return nil, err
	}
	set := newFileReader(name, where, choice)
	if isTFRecord(data) {
		return set, readEventFile(set, data)
	}
	if err := checkBytes(name, where, data); err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(data, '\n') < 0 && bytes.IndexByte(data, '\r') >= 0 {
		// lines ended by CR alone (classic Mac OS; Excel's "CSV (Macintosh)"): the readers split
		// on LF, and would see one long line
		data = bytes.ReplaceAll(data, []byte{'\r'}, []byte{'\n'})
	}
	var err error
	if looksLikeJSON(data) {
		err = readJSON(set, data)
	} else {
		err = readText(set, data)
	}
	return set, err
}

// The messages for a file that is no log: a folder (ReadFiles) says so in fewer words.
const (
	binaryFileMsg    = "this is a binary file, not a CSV, JSON or log text, nor a TensorBoard event file"
	unknownFormatMsg = "not a format I know: expected a CSV or TSV file whose header names a step and a loss column, a W&B or TensorBoard export, a TensorBoard event file, a trainer_state.json, an MLflow metric file, or a Megatron-LM, nanoGPT or modded-nanogpt log"
)

// checkSize rejects empty and oversized files.
func checkSize(where string, data []byte) error {
	switch {
	case len(data) > MaxBytes:
		return input.Errorf(where, "", "the file is larger than %d MB: thin the curve first", MaxBytes>>20)
	case len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) == 0:
		return &input.Error{Where: where, Msg: "the file is empty"}
	}
	return nil
}

// checkBytes rejects binary, compressed and UTF-16 files that are not read (an event file,
// a gzip file and a zip archive are read before this).
func checkBytes(name, where string, data []byte) error {
	switch {
	case isGzip(data):
		return &input.Error{Where: where, Msg: "this is a gzip-compressed file: decompress it first"}
	case isZip(data):
		return &input.Error{Where: where, Msg: "this is a zip archive: extract the file first"}
	case isTar(data):
		return &input.Error{Where: where, Msg: "this is a tar archive: extract it first"}
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		return &input.Error{Where: where, Msg: "this is UTF-16 text: save it as UTF-8"}
	case len(data) < tfRecordHeader && strings.Contains(path.Base(name), "tfevents"):
		return &input.Error{Where: where, Msg: fmt.Sprintf("named like a TensorBoard event file, but it ends after %d byte(s), inside its first record's %d-byte header: it was cut short (copied while it was being written?)", len(data), tfRecordHeader)}
	case bytes.IndexByte(data, 0) >= 0 && strings.Contains(path.Base(name), "tfevents"):
		return &input.Error{Where: where, Msg: "named like a TensorBoard event file, but the checksum of its first record's length does not match: it is corrupt, or not an event file"}
	case bytes.IndexByte(data, 0) >= 0:
		return &input.Error{Where: where, Msg: binaryFileMsg}
	}
	return nil
}

// readText reads a text file that is not JSON: a table (CSV, TSV, W&B, TensorBoard) when its
// first line is a header naming a step column, else a training log, else a table anyway so
// that the error says what the header lacks.
func readText(set *fileReader, data []byte) error {
	if looksLikeMLflow(data) {
		return readMLflow(set, mlflowFileMetric(set.name), data)
	}
	if header, ok := sniffHeader(data); ok && (tensorBoardHeader(header) || findColumn(header, stepNamesAll) >= 0) {
		return readTable(set, data)
	}
	if format := detectLog(data); format != "" {
		return readLog(set, format, data)
	}
	if first := firstContentLine(data); bytes.ContainsAny(first, ",\t;") {
		return readTable(set, data)
	}
	line := firstContentLineNumber(data)
	return input.Errorf(set.where, lineField(line, ""),
		"%s", unknownFormatMsg)
}

// sniffHeader reads the first record of data as CSV, if it can.
func sniffHeader(data []byte) ([]string, bool) {
	r := csv.NewReader(bytes.NewReader(firstContentLine(data)))
	r.Comma = sniffDelimiter(data)
	r.TrimLeadingSpace = true
	header, err := r.Read()
	return header, err == nil
}

// firstContentLine returns the first line that is neither blank nor a # comment.
func firstContentLine(data []byte) []byte {
	line, _ := firstContentLineAt(data)
	return line
}

// firstContentLineNumber returns the number (from 1) of the first line that is neither blank
// nor a # comment.
func firstContentLineNumber(data []byte) int {
	_, n := firstContentLineAt(data)
	return n
}

func firstContentLineAt(data []byte) ([]byte, int) {
	n := 0
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		n++
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			return line, n
		}
	}
	return nil, 1
}

// firstNonSpace returns the first byte that is not white space, or 0.
func firstNonSpace(data []byte) byte {
	for _, b := range data {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b
	}
	return 0
}

// lineField names a line and, when there is one, a field on it: "line 3, column 2 (loss)".
func lineField(line int, field string) string {
	s := "line " + strconv.Itoa(line)
	if field != "" {
		s += ", " + field
	}
	return s
}

// fileStem is a file's name without its directory and extension.
func fileStem(name string) string {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	if base == "." || base == "/" {
		return name
	}
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}
