package badinput

// File is one bad input file and what every message about it must say.
type File struct {
	// Name is the file's name, a plain base name (its extension picks no reader: the
	// content does).
	Name string
	// Data is the file's content.
	Data []byte
	// Want is a part every message about the file must contain besides the file's name,
	// such as "line 3"; "" when only the name is required.
	Want string
	// NothingToFit marks a file the importer reads without error whose curves hold no step
	// of 1 or more: the fit has nothing to use, and the page leaves the file out with a
	// message naming it.
	NothingToFit bool
	// Asks marks a file the importer reads without error but cannot use without a choice of
	// the user's (which column holds the loss): it asks, naming the file, rather than failing.
	Asks bool
}
