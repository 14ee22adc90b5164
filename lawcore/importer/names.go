package importer

import "strings"

// The importers recognise columns (and JSON keys, and log fields) by name, lower-cased.

// stepNamesAll are the names of step columns, in order of preference: those of
// the table reader's and a few more. W&B's own _step comes last: it counts calls to wandb.log,
// not training steps, wherever the run logged its global step beside it.
var stepNamesAll = append(append([]string(nil), stepNames...),
	"trainer/global_step", "global step", "train/step", "iters", "iterations", "_step")

// runNames are the names of a column naming the run of each row, in order of preference.
var runNames = []string{"run", "run_name", "run name", "runname", "run_id", "run id", "experiment", "name"}

// isLossName reports whether a column name looks like a loss: one of the table reader's
// loss names, or a name containing "loss" that is not a loss scale, a perplexity, or a W&B
// minimum or maximum.
func isLossName(name string) bool {
	l := strings.ToLower(strings.TrimSpace(name))
	if strings.HasSuffix(l, "__min") || strings.HasSuffix(l, "__max") {
		return false
	}
	for _, n := range lossNames {
		if l == n {
			return true
		}
	}
	return strings.Contains(l, "loss") && !strings.Contains(l, "scale") &&
		!strings.Contains(l, "ppl") && !strings.Contains(l, "perplexity")
}

// isLRName reports whether a column name looks like a learning rate: lr,
// learning_rate, train/learning_rate, lr-AdamW and lr-SGD/pg1 (PyTorch Lightning), learning
// rate (Megatron); not the momentum or weight decay Lightning logs beside it
// (lr-AdamW-momentum, lr-AdamW-weight_decay).
func isLRName(name string) bool {
	l := strings.ToLower(strings.TrimSpace(name))
	if strings.HasSuffix(l, "__min") || strings.HasSuffix(l, "__max") {
		return false
	}
	for _, s := range []string{"momentum", "weight_decay", "weight-decay", "beta"} {
		if strings.Contains(l, s) {
			return false
		}
	}
	for _, n := range lrNames {
		if l == n {
			return true
		}
	}
	for _, s := range []string{"/lr", "_lr", " lr"} {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	for _, p := range []string{"lr-", "lr_", "lr/", "lr "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return strings.Contains(l, "learning_rate") || strings.Contains(l, "learning rate") || strings.Contains(l, "learning-rate")
}

// lrPreference ranks learning-rate names: the table reader's names first, in their order.
func lrPreference(name string) int {
	l := strings.ToLower(strings.TrimSpace(name))
	for i, n := range lrNames {
		if l == n {
			return i
		}
	}
	return len(lrNames)
}

// isIgnoredName reports whether a column holds something that is certainly not a
// loss (times, epochs, counters), so that it is not offered as one.
func isIgnoredName(name string) bool {
	l := strings.ToLower(strings.TrimSpace(name))
	if l == "" || strings.HasSuffix(l, "__min") || strings.HasSuffix(l, "__max") {
		return true
	}
	for _, s := range []string{"time", "wall", "epoch", "runtime", "timestamp", "tokens", "samples", "flos", "step", "iteration"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// columnKind guesses whether a loss column is a validation loss or a training loss.
func columnKind(name string) string {
	l := strings.ToLower(name)
	for _, s := range []string{"val", "eval", "test", "valid"} {
		if strings.Contains(l, s) {
			return "validation"
		}
	}
	return "train"
}
