package importer

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// Training logs are read line by line; lines that are not log lines of the recognised kind
// (configuration dumps, warnings, the source code modded-nanogpt prints first) are skipped.
// Lines may carry a prefix (a timestamp, a rank). Steps logged again after a restart from a
// checkpoint keep their last value.
//
//	Megatron-LM, GPT-NeoX:
//	 iteration      100/  10000 | consumed samples: 51200 | ... | learning rate: 1.000E-04 | ... | lm loss: 3.456E+00 | loss scale: 1.0 |
//	 validation loss at iteration 100 | lm loss value: 3.4E+00 | lm loss PPL: 3.0E+01 |
//	nanoGPT:
//	 step 250: train loss 3.1, val loss 3.2
//	 iter 10: loss 4.2, time 50.00ms, mfu 30.00%
//	modded-nanogpt:
//	 step:125/1750 val_loss:4.2 train_time:30000ms step_avg:240.00ms
//
// The candidate columns are the log's loss fields: Megatron's "lm loss" (and any other
// "<name> loss" field) and "validation lm loss"; nanoGPT's "train loss" and "val loss" (the
// estimates of the evaluation lines) and "loss" (of the iteration lines); modded-nanogpt's
// "val_loss" and "train_loss".

var (
	megatronIterationRe  = regexp.MustCompile(`\biteration\s+(\d+)\s*/\s*\d+\s*\|`)
	megatronValidationRe = regexp.MustCompile(`\bvalidation (?:loss|results) at iteration\s+(\d+)([^|]*)\|`)
	nanoGPTEvalRe        = regexp.MustCompile(`\bstep (\d+): train loss ([^\s,]+), val loss ([^\s,]+)`)
	nanoGPTIterRe        = regexp.MustCompile(`\biter (\d+): loss ([^\s,]+)(.*)`)
	nanoGPTLRRe          = regexp.MustCompile(`\blr[:=]?\s*([-+0-9.eE]+)`)
	moddedNanoGPTRe      = regexp.MustCompile(`\bstep:(\d+)/\d+(.*)`)
)

// logKinds are the log formats, in the order that breaks ties.
var logKinds = []struct {
	format string
	match  func(line []byte) bool
}{
	{FormatMegatron, func(l []byte) bool {
		return bytes.Contains(l, []byte("iteration")) && (megatronIterationRe.Match(l) || megatronValidationRe.Match(l))
	}},
	{FormatModdedNanoGPT, func(l []byte) bool {
		return bytes.Contains(l, []byte("step:")) && moddedNanoGPTRe.Match(l)
	}},
	{FormatNanoGPT, func(l []byte) bool {
		return (bytes.Contains(l, []byte("step ")) && nanoGPTEvalRe.Match(l)) ||
			(bytes.Contains(l, []byte("iter ")) && nanoGPTIterRe.Match(l))
	}},
}

// detectLog returns the format of the log whose lines match most often, or "" when no line
// matches.
func detectLog(data []byte) string {
	counts := make([]int, len(logKinds))
	eachLine(data, func(_ int, line []byte) error {
		for i, k := range logKinds {
			if k.match(line) {
				counts[i]++
				break
			}
		}
		return nil
	})
	best := -1
	for i, c := range counts {
		if c > 0 && (best < 0 || c > counts[best]) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return logKinds[best].format
}

// eachLine calls fn with every line of data (without its line ending) and its number from 1.
func eachLine(data []byte, fn func(n int, line []byte) error) error {
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if err := fn(n, bytes.TrimSuffix(line, []byte{'\r'})); err != nil {
			return err
		}
	}
	return nil
}

// readLog reads a training log of the given format.
func readLog(set *fileReader, format string, data []byte) error {
	set.format = format
	set.noLoss = input.Errorf(set.where, "", "the log lines hold no loss")
	var read func(n int, line []byte) error
	switch format {
	case FormatMegatron:
		set.stepSource = "iteration"
		read = set.megatronLine
	case FormatModdedNanoGPT:
		set.stepSource = "step"
		read = set.moddedNanoGPTLine
	default:
		set.stepSource = "step"
		read = set.nanoGPTLine
	}
	return eachLine(data, read)
}

// logValue adds the value of a log field, if the field is wanted.
func (set *fileReader) logValue(n int, step float64, metric, source, text string) error {
	if !set.wants(metric) {
		return nil
	}
	s, err := set.seriesFor("", metric, source, "")
	if err != nil {
		return err
	}
	return set.addText(s, n, step, text)
}

// megatronLine reads a Megatron-LM iteration or validation line.
func (set *fileReader) megatronLine(n int, line []byte) error {
	if !bytes.Contains(line, []byte("iteration")) {
		return nil
	}
	if m := megatronIterationRe.FindSubmatchIndex(line); m != nil {
		if err := set.row(n); err != nil {
			return err
		}
		step, err := set.parseStep(n, string(line[m[2]:m[3]]))
		if err != nil {
			return err
		}
		for _, f := range strings.Split(string(line[m[1]:]), "|") {
			key, val, ok := strings.Cut(f, ":")
			key, val = strings.TrimSpace(key), strings.TrimSpace(val)
			if !ok || key == "" || val == "" {
				continue
			}
			if err := set.logValue(n, step, key, key, val); err != nil {
				return err
			}
		}
		return nil
	}
	m := megatronValidationRe.FindSubmatchIndex(line)
	if m == nil {
		return nil
	}
	if err := set.row(n); err != nil {
		return err
	}
	step, err := set.parseStep(n, string(line[m[2]:m[3]]))
	if err != nil {
		return err
	}
	prefix := "validation "
	if bytes.Contains(bytes.ToLower(line[m[4]:m[5]]), []byte("test")) {
		prefix = "test "
	}
	for _, f := range strings.Split(string(line[m[1]:]), "|") {
		key, val, ok := strings.Cut(f, ":")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || val == "" || !strings.HasSuffix(key, " value") || strings.Contains(strings.ToLower(key), "ppl") {
			continue
		}
		key = strings.TrimSuffix(key, " value")
		if err := set.logValue(n, step, prefix+key, key+" value", val); err != nil {
			return err
		}
	}
	return nil
}

// nanoGPTLine reads a nanoGPT evaluation or iteration line.
func (set *fileReader) nanoGPTLine(n int, line []byte) error {
	if bytes.Contains(line, []byte("step ")) {
		if m := nanoGPTEvalRe.FindSubmatch(line); m != nil {
			if err := set.row(n); err != nil {
				return err
			}
			step, err := set.parseStep(n, string(m[1]))
			if err != nil {
				return err
			}
			if err := set.logValue(n, step, "train loss", "train loss", string(m[2])); err != nil {
				return err
			}
			return set.logValue(n, step, "val loss", "val loss", string(m[3]))
		}
	}
	if !bytes.Contains(line, []byte("iter ")) {
		return nil
	}
	m := nanoGPTIterRe.FindSubmatch(line)
	if m == nil {
		return nil
	}
	if err := set.row(n); err != nil {
		return err
	}
	step, err := set.parseStep(n, string(m[1]))
	if err != nil {
		return err
	}
	if err := set.logValue(n, step, "loss", "loss", string(m[2])); err != nil {
		return err
	}
	if lr := nanoGPTLRRe.FindSubmatch(m[3]); lr != nil {
		return set.logValue(n, step, "lr", "lr", string(lr[1]))
	}
	return nil
}

// moddedNanoGPTLine reads a modded-nanogpt line: step:N/M followed by key:value fields.
func (set *fileReader) moddedNanoGPTLine(n int, line []byte) error {
	if !bytes.Contains(line, []byte("step:")) {
		return nil
	}
	m := moddedNanoGPTRe.FindSubmatch(line)
	if m == nil {
		return nil
	}
	if err := set.row(n); err != nil {
		return err
	}
	step, err := set.parseStep(n, string(m[1]))
	if err != nil {
		return err
	}
	for _, f := range strings.Fields(string(m[2])) {
		key, val, ok := strings.Cut(f, ":")
		if !ok || key == "" || val == "" {
			continue
		}
		if err := set.logValue(n, step, key, key, val); err != nil {
			return err
		}
	}
	return nil
}
