// Package badinput is the corpus of bad input files: every kind of file a public calculator
// should expect to be dropped on it (empty, binary, only a header, ragged rows, NaN, infinite,
// negative or zero losses, unsorted and duplicate steps, numbers too large for float64, a BOM,
// CRLF, decimal commas, HTML, a JSON bomb, too many rows, ...), and of the raw-log formats:
// TensorBoard event files corrupt, cut short or not event files at all, zip and gzip bombs,
// empty archives and archives of nothing readable, MLflow metric files with a bad line.
//
// The importer's tests read every file through importer.Read, and scripts/badcorpus writes the
// files to a directory for the browser test, which feeds each through the page: both check
// the same expectations. The package imports nothing of lawcore (only the importer's fixture
// writer, internal/logwrite, which imports nothing of it either), so that the importer's own
// tests can use it.
package badinput
