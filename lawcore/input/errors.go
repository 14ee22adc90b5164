package input

import (
	"fmt"
	"strconv"
	"strings"
)

// Error reports bad input: where it is (a curve, a file and line), which field, and
// what is wrong with it.
type Error struct {
	// Where names the object at fault, such as `curve "cosine"` or `schedule`.
	Where string
	// Field is the field at fault, such as "loss[3]" or "schedule.decayFraction".
	Field string
	// Msg says what is wrong.
	Msg string
}

// Error formats the error as "where: field: message", leaving out empty parts.
func (e *Error) Error() string {
	s := e.Msg
	if e.Field != "" {
		s = e.Field + ": " + s
	}
	if e.Where != "" {
		s = e.Where + ": " + s
	}
	return s
}

// Errorf builds an *Error: where and field name the place at fault, and the message is
// formatted as by fmt.Sprintf.
func Errorf(where, field, format string, args ...any) *Error {
	return &Error{Where: where, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Within returns err with its Where prefixed by where (for nested descriptions), or err
// unchanged if it is not an *Error.
func Within(where string, err error) error {
	ie, ok := err.(*Error)
	if !ok {
		return err
	}
	out := *ie
	switch {
	case out.Where == "":
		out.Where = where
	case out.Where == where || strings.HasPrefix(out.Where, where+": "):
		// a law that names the curve itself (the size law's sizes): said once
	default:
		out.Where = where + ": " + out.Where
	}
	return &out
}

// maxQuotedRunes bounds how much of a cell or name an error message repeats: a message must stay
// readable when a file holds a ten-megabyte cell.
const maxQuotedRunes = 60

// Quote quotes a cell or name for a message, cut to its first maxQuotedRunes characters: a
// message must stay readable when a file holds a ten-megabyte cell.
func Quote(s string) string {
	if n := 0; len(s) > maxQuotedRunes {
		for i := range s {
			if n == maxQuotedRunes {
				return strconv.Quote(s[:i]) + "…"
			}
			n++
		}
	}
	return strconv.Quote(s)
}

// Listed joins names as a sentence does: "B", "B and C", "B, C and γ".
func Listed(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
