// Package input is how lawcore and its packages report bad input: an [*Error] names where the
// fault is (a curve, a file and line, a schedule), which field, and what is wrong, so that a
// user can mend it; [DecodeStrict] reads a request's JSON the same way, naming the field of a
// value of the wrong type and the place of a null in a list.
//
// It is the bottom of lawcore's imports: every other package may use it, and it uses none.
package input
