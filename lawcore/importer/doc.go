// Package importer reads loss curves (and learning rates) from the files researchers have:
// CSV or TSV tables with named columns, Weights & Biases panel exports, TensorBoard scalar
// downloads (CSV and JSON), Hugging Face trainer_state.json, JSON records and JSON lines,
// Megatron-LM, nanoGPT and modded-nanogpt logs. [Read] recognises a file's format by its
// content, not its name, and returns the [Curve]s it holds: steps with their loss and, where
// the file has them, learning rates. When a file holds several candidate loss columns or
// several runs, the [Result] carries an [Ambiguity] instead, and a [Choice] settles it.
//
// A learning-rate file logged apart from the loss (TensorBoard writes each tag to its own
// download) is read with [Choice.AsLR] and joined to its loss curve by [PairLR] and
// [MergeLR].
//
// The package knows nothing of fitting. Every error is a *lawcore.InputError that names the
// file and, where the fault is on a line, the line (and the column or field); the corpus of
// bad files every reader must refuse that way is the badinput package.
package importer
