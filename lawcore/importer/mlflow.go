package importer

import (
	"bytes"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lawcalc/annealing/lawcore/input"
)

// MLflow's file store keeps a run in mlruns/<experiment>/<run id>/: each metric in its own
// file metrics/<key> (a key with slashes makes directories: metrics/train/loss), one line a
// value, `<timestamp in ms> <value> <step>`, such as `1700000000000 3.4567 100`; the run's
// name in tags/mlflow.runName; parameters in params/, one file each. A metric file is
// recognised by its content. Read alone, its metric is named after the file; read with its run
// folder (ReadFiles), after its key, and the run's loss and learning-rate files make one
// curve.

// mlflowRunNameTag is the path, inside a run directory, of the file holding the run's name.
const mlflowRunNameTag = "tags/mlflow.runName"

// maxRunNameBytes bounds a run name read from a file.
const maxRunNameBytes = 200

// looksLikeMLflow reports whether the first line of data that is not blank is an MLflow metric
// line: a whole number of at least 10 digits (the time, in milliseconds), a number, a whole
// number.
func looksLikeMLflow(data []byte) bool {
	line := firstContentLine(data)
	f := strings.Fields(string(line[:min(len(line), 200)]))
	if len(f) != 3 || len(f[0]) < 10 || !isWholeNumber(f[0]) || !isWholeNumber(f[2]) {
		return false
	}
	_, err := strconv.ParseFloat(f[1], 64)
	return err == nil || strings.Contains(err.Error(), "range")
}

// isWholeNumber reports whether s is digits, after an optional minus sign.
func isWholeNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readMLflow reads an MLflow metric file whose key is metric.
func readMLflow(set *fileReader, metric string, data []byte) error {
	set.format = FormatMLflow
	set.stepSource, set.stepField = "step", "step"
	if set.noLoss == nil {
		set.noLoss = input.Errorf(set.where, "", "the metric %s is not named like a loss (loss, val_loss, train/loss, ...)", input.Quote(metric))
	}
	want := set.wants(metric)
	if want {
		set.declare(metric)
	} else {
		set.offer(metric)
	}
	var s *valueSeries
	rows := 0
	err := eachLine(data, func(n int, line []byte) error {
		f := strings.Fields(string(line))
		if len(f) == 0 {
			return nil
		}
		if len(f) != 3 || !isWholeNumber(f[0]) {
			return input.Errorf(set.where, set.at(n, ""), "expected an MLflow metric line, `timestamp value step`, got %s", input.Quote(string(line)))
		}
		if err := set.row(n); err != nil {
			return err
		}
		rows++
		step, err := set.parseStep(n, f[2])
		if err != nil || !want {
			return err
		}
		if s == nil {
			if s, err = set.seriesFor("", metric, metric, ""); err != nil {
				return err
			}
		}
		return set.addText(s, n, step, f[1])
	})
	if err != nil {
		return err
	}
	if rows == 0 {
		return input.Errorf(set.where, "", "the metric file holds no values")
	}
	return nil
}

// mlflowFileMetric names the metric of an MLflow file read alone: its file name.
func mlflowFileMetric(name string) string {
	if base := path.Base(strings.ReplaceAll(name, `\`, "/")); name != "" && base != "." && base != "/" {
		return base
	}
	return "value"
}

// mlflowMetricKey splits the path of a file under an MLflow run's metrics directory into the
// run's directory and the metric's key: "mlruns/0/abc/metrics/train/loss" gives
// "mlruns/0/abc" and "train/loss". ok is false for a path with no metrics directory.
func mlflowMetricKey(p string) (runDir, key string, ok bool) {
	parts := strings.Split(p, "/")
	for i := 0; i < len(parts)-1; i++ {
		if parts[i] == "metrics" {
			return strings.Join(parts[:i], "/"), strings.Join(parts[i+1:], "/"), true
		}
	}
	return "", "", false
}

// mlflowMetadata reports whether a path is MLflow bookkeeping rather than a metric: a run's
// or an experiment's meta.yaml, a run's params/ or tags/.
func mlflowMetadata(p string) bool {
	if path.Base(p) == "meta.yaml" {
		return true
	}
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts)-1; i++ {
		if parts[i] == "params" || parts[i] == "tags" {
			return true
		}
	}
	return false
}

// mlflowRunName reads a run's name from the content of its tags/mlflow.runName ("" if it
// holds none that can name a curve).
func mlflowRunName(data []byte) string {
	name := string(bytes.TrimSpace(data))
	if name == "" || len(name) > maxRunNameBytes || !utf8.ValidString(name) || strings.ContainsAny(name, "\n\r\x00") {
		return ""
	}
	return name
}
