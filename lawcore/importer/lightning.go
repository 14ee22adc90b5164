package importer

import "strings"

// PyTorch Lightning's CSVLogger writes lightning_logs/version_<N>/metrics.csv: a header of
// every metric logged (`epoch`, `step`, `train_loss`, `val_loss`, `lr-AdamW`, ...) and a row
// each time metrics were logged, with empty cells for the metrics not logged then, so that
// training losses, validation losses and learning rates logged at different steps interleave.
// Its LearningRateMonitor names learning rates `lr-<optimizer>` (`lr-AdamW`, and
// `lr-SGD/pg1` for a parameter group), and momentum and weight decay `lr-<optimizer>-momentum`
// and `lr-<optimizer>-weight_decay` (not learning rates). The file is a CSV read as the others
// are, except that, being written by a program, a value that is not finite is skipped and a
// step logged again (a run resumed into the same file) keeps its last value, with a note.

// lightningHeader reports whether a header is that of a Lightning CSVLogger: a step and an
// epoch column, and at least one metric.
func lightningHeader(header []string) bool {
	hasStep, hasEpoch := false, false
	for _, h := range header {
		switch strings.TrimSpace(h) {
		case "step":
			hasStep = true
		case "epoch":
			hasEpoch = true
		}
	}
	return hasStep && hasEpoch && len(header) > 2
}
