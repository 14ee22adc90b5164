// Package importer reads loss curves (and learning rates) from the files researchers have:
// CSV or TSV tables with named columns, Weights & Biases panel exports, TensorBoard scalar
// downloads (CSV and JSON), TensorBoard event files (events.out.tfevents.*, as TensorFlow,
// PyTorch's SummaryWriter, tensorboardX and JAX/Flax write them), Hugging Face
// trainer_state.json, JSON records and JSON lines, MLflow metric files
// (mlruns/<experiment>/<run>/metrics/<key>), PyTorch Lightning's CSVLogger metrics.csv,
// Megatron-LM, nanoGPT and modded-nanogpt logs; any of them gzip-compressed, or several in a
// zip archive. [Read] recognises a file's format by its content, not its name, and returns
// the [Curve]s it holds: steps with their loss and, where the file has them, learning rates.
// When a file holds several candidate loss columns (or tags, or metrics) or several runs, the
// [Result] carries an [Ambiguity] instead, and a [Choice] settles it.
//
// [ReadFiles] reads a whole folder of runs (a directory dropped on the page, or several files
// given together; a zip archive is read the same way): TensorBoard event files grouped by
// directory, an MLflow run's metric files together, a Lightning version_N directory, and any
// other log, each run's loss paired with its learning rates; curves are named
// "<run> <metric>" and say which files they came from, and the notes list the files skipped
// and why.
//
// A learning-rate file logged apart from the loss (TensorBoard writes each tag to its own
// download) is read with [Choice.AsLR] and joined to its loss curve by [PairLR] and
// [MergeLR].
//
// Compressed files and archives are bounded as plain files are: what one call decompresses
// is at most [MaxBytes], measured as it is decompressed (never read whole first), and the rows
// of what it expands to at most [MaxRows]. A TensorBoard event file's records are checked
// against their CRC-32C; one cut short at its end (a log copied while its run was writing it)
// keeps its complete records, with a note.
//
// The package knows nothing of fitting. Every error is a *input.Error that names the
// file and, where the fault is on a line or in a record, the line or record (and the column
// or field); the corpus of bad files every reader must refuse that way is the badinput
// package.
package importer
