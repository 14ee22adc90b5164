package importer

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// Compressed files and archives are opened in memory: a gzip file (a .csv.gz, a gzipped event
// file) is decompressed and read as the file it holds; a zip or tar archive (a .tar.gz too) is
// read as a folder of files (see ReadFiles), named <archive>/<member>. What one call to Read or ReadFiles
// decompresses is bounded as a plain file is, by MaxBytes over all its files, and the rows of
// what it expands to by MaxRows: a gzip file is decompressed once without keeping its bytes to
// measure it, so that a gzip bomb is refused without taking its size in memory, and a zip
// member is refused by its declared size, and read through a limit that stops where that size
// is passed (a member that lies about its size is corrupt). A gzip file inside a gzip file,
// and an archive inside an archive, are not opened.

// maxArchiveFiles bounds the members of a zip archive.
const maxArchiveFiles = 10_000

// isGzip reports whether data starts with gzip's magic bytes.
func isGzip(data []byte) bool {
	return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
}

// isZip reports whether data starts as a zip archive does (a local file header, or the end
// of the central directory of an empty archive).
func isZip(data []byte) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06"))
}

// isTar reports whether data is a tar archive (ustar magic at byte 257).
func isTar(data []byte) bool {
	return len(data) >= 262 && string(data[257:262]) == "ustar"
}

// isArchive reports whether data is an archive read as a folder: zip or tar.
func isArchive(data []byte) bool {
	return isZip(data) || isTar(data)
}

// expander decompresses within one budget: the bytes that one call may still expand to.
type expander struct {
	left int64
}

func newExpander() *expander {
	return &expander{left: MaxBytes}
}

// pastLimit says that what (a file, a member) expands past the budget left, and what to do:
// verb it (decompress it, extract it) and thin the curve.
func (ex *expander) pastLimit(what, verb string) string {
	if ex.left < MaxBytes {
		return fmt.Sprintf("%s expands past %d MB, with the files decompressed before it: give fewer files at a time", what, MaxBytes>>20)
	}
	return fmt.Sprintf("%s expands past %d MB: %s it and thin the curve first", what, MaxBytes>>20, verb)
}

// gunzip decompresses a gzip file (of one or more members) within the budget.
func (ex *expander) gunzip(where string, data []byte) ([]byte, error) {
	n, err := gunzipTo(io.Discard, data, ex.left+1)
	if err != nil {
		return nil, gzipError(where, err)
	}
	if n > ex.left {
		return nil, &input.Error{Where: where, Msg: ex.pastLimit("the gzip file", "decompress")}
	}
	out := bytes.NewBuffer(make([]byte, 0, n))
	if _, err := gunzipTo(out, data, n); err != nil {
		return nil, gzipError(where, err)
	}
	ex.left -= n
	return out.Bytes(), nil
}

// gunzipTo decompresses data into w, up to limit bytes: each of its members in turn (gzip files
// may be concatenated), so that bytes after the last that are not gzip are told apart from a
// member cut short.
func gunzipTo(w io.Writer, data []byte, limit int64) (int64, error) {
	br := bytes.NewReader(data)
	zr, err := gzip.NewReader(br)
	if err != nil {
		return 0, err
	}
	var written int64
	for {
		zr.Multistream(false)
		n, err := io.Copy(w, io.LimitReader(zr, limit-written))
		written += n
		if err != nil || written >= limit || br.Len() == 0 {
			return written, err
		}
		// gzip reads its input a byte at a time from a bytes.Reader: what is left follows the member
		if rest := data[len(data)-br.Len():]; len(rest) < 2 || rest[0] != 0x1f || rest[1] != 0x8b {
			return written, trailingBytesError{end: int64(len(data) - len(rest)), n: len(rest)}
		}
		if err := zr.Reset(br); err != nil {
			return written, err
		}
	}
}

// trailingBytesError is a gzip file followed by bytes that are not gzip.
type trailingBytesError struct {
	end int64 // the byte where the gzip data ends
	n   int   // the bytes after it
}

func (e trailingBytesError) Error() string {
	return fmt.Sprintf("the gzip data ends at byte %d, and the %d bytes after it are not gzip: the file is damaged, or something was appended to it", e.end, e.n)
}

// gzipError says what is wrong with a gzip file.
func gzipError(where string, err error) error {
	var corrupt flate.CorruptInputError
	var trailing trailingBytesError
	switch {
	case errors.As(err, &trailing):
		return input.Errorf(where, "", "%s", trailing.Error())
	case errors.Is(err, gzip.ErrHeader):
		return input.Errorf(where, "", "not a valid gzip file: its header is damaged")
	case errors.Is(err, gzip.ErrChecksum):
		return input.Errorf(where, "", "the gzip file is corrupt: its checksum does not match")
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return input.Errorf(where, "", "the gzip file is cut short")
	case errors.As(err, &corrupt):
		return input.Errorf(where, "", "the gzip file is corrupt at byte %d of its compressed data", int64(corrupt))
	}
	return input.Errorf(where, "", "the gzip file cannot be read: %v", err)
}

// gunzippedName is the name of the file a gzip file holds: its name without .gz.
func gunzippedName(name string) string {
	for _, ext := range []string{".gz", ".gzip", ".GZ"} {
		if strings.HasSuffix(name, ext) && len(name) > len(ext) {
			return strings.TrimSuffix(name, ext)
		}
	}
	return name
}

// skip is a file (or archive member) not read, and why.
type skip struct {
	path, reason string
}

// unzip returns the members of a zip archive as files named prefix/<member>, and the members
// not read with the reason: directories are left out silently; macOS metadata, encrypted
// members, members that expand past the budget or are corrupt are skipped.
func (ex *expander) unzip(where, prefix string, data []byte) ([]File, []skip, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	switch {
	case errors.Is(err, zip.ErrFormat):
		return nil, nil, input.Errorf(where, "", "not a valid zip archive: its directory is missing or damaged")
	case err != nil && !errors.Is(err, zip.ErrInsecurePath):
		return nil, nil, input.Errorf(where, "", "not a valid zip archive: %s", strings.TrimPrefix(err.Error(), "zip: "))
	}
	if len(zr.File) > maxArchiveFiles {
		return nil, nil, input.Errorf(where, "", "the archive holds %d files, more than %d: give the logs that matter", len(zr.File), maxArchiveFiles)
	}
	var files []File
	var skipped []skip
	members := 0
	for _, f := range zr.File {
		name := memberName(f.Name)
		if name == "" || strings.HasSuffix(f.Name, "/") || f.FileInfo().IsDir() {
			continue
		}
		members++
		p := prefix + "/" + name
		switch {
		case isMacMetadata(name):
			skipped = append(skipped, skip{p, "macOS metadata"})
			continue
		case f.Flags&1 != 0:
			skipped = append(skipped, skip{p, "encrypted: extract it first"})
			continue
		case f.UncompressedSize64 > uint64(ex.left):
			skipped = append(skipped, skip{p, ex.pastLimit("the member", "extract")})
			continue
		}
		b, err := readMember(f)
		if err != nil {
			skipped = append(skipped, skip{p, err.Error()})
			continue
		}
		ex.left -= int64(len(b))
		files = append(files, File{Path: p, Data: b})
	}
	if members == 0 {
		return nil, nil, input.Errorf(where, "", "the zip archive is empty")
	}
	return files, skipped, nil
}

// unpack returns the members of a zip or tar archive, as unzip and untar do.
func (ex *expander) unpack(where, prefix string, data []byte) ([]File, []skip, error) {
	if isTar(data) {
		return ex.untar(where, prefix, data)
	}
	return ex.unzip(where, prefix, data)
}

// untar returns the regular files of a tar archive as files named prefix/<member>, and the
// members not read with the reason, as unzip does. Its members are not charged to the budget:
// they are no larger than the archive, which was (decompressed, or read as a file).
func (ex *expander) untar(where, prefix string, data []byte) ([]File, []skip, error) {
	tr := tar.NewReader(bytes.NewReader(data))
	var files []File
	var skipped []skip
	members := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if members == 0 {
				return nil, nil, input.Errorf(where, "", "not a valid tar archive: %s", strings.TrimPrefix(err.Error(), "archive/tar: "))
			}
			// what came before the damage is kept, and the damage said
			skipped = append(skipped, skip{prefix, fmt.Sprintf("the tar archive is damaged after its member %d (%s): what follows is not read", members, strings.TrimPrefix(err.Error(), "archive/tar: "))})
			break
		}
		name := memberName(h.Name)
		if name == "" || (h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeRegA) {
			continue // directories, links and devices hold no log
		}
		members++
		if members > maxArchiveFiles {
			return nil, nil, input.Errorf(where, "", "the archive holds more than %d files: give the logs that matter", maxArchiveFiles)
		}
		p := prefix + "/" + name
		if isMacMetadata(name) {
			skipped = append(skipped, skip{p, "macOS metadata"})
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			skipped = append(skipped, skip{p, "corrupt: it is cut short"})
			break
		}
		files = append(files, File{Path: p, Data: b})
	}
	if members == 0 {
		return nil, nil, input.Errorf(where, "", "the tar archive is empty")
	}
	return files, skipped, nil
}

// readMember reads a zip member, which expands to at most its declared size.
func readMember(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		if errors.Is(err, zip.ErrAlgorithm) {
			return nil, fmt.Errorf("compressed with a method zip readers rarely support (%d): extract it first", f.Method)
		}
		return nil, fmt.Errorf("cannot be opened: %s", strings.TrimPrefix(err.Error(), "zip: "))
	}
	defer rc.Close()
	size := f.UncompressedSize64
	var buf bytes.Buffer
	buf.Grow(int(min(size, 16<<20)))
	if _, err := io.Copy(&buf, io.LimitReader(rc, int64(size)+1)); err != nil {
		switch {
		case errors.Is(err, zip.ErrChecksum):
			return nil, errors.New("corrupt: its checksum does not match")
		case errors.Is(err, zip.ErrFormat):
			return nil, errors.New("corrupt: it expands past the size the archive declares for it")
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, errors.New("corrupt: it is cut short")
		}
		return nil, fmt.Errorf("corrupt: %s", strings.TrimPrefix(err.Error(), "zip: "))
	}
	return buf.Bytes(), nil
}

// isMacMetadata reports whether an archive member is macOS's bookkeeping (__MACOSX/, .DS_Store,
// the ._ resource forks), which an archive made on a Mac holds beside every file.
func isMacMetadata(name string) bool {
	base := path.Base(name)
	return strings.HasPrefix(name, "__MACOSX/") || base == ".DS_Store" || strings.HasPrefix(base, "._")
}

// memberName cleans a member's name into a relative path with / separators ("" for none).
func memberName(name string) string {
	name = path.Clean("/" + strings.ReplaceAll(name, `\`, "/"))
	return strings.TrimPrefix(name, "/")
}
