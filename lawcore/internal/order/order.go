// Package order sorts slices through sort.Sort and sort.Stable, with a less function on
// indices as sort.Slice and sort.SliceStable take, in the same order as those (the same
// pdqsort and insertion-sort-and-merge, comparison for comparison).
//
// sort.Slice and sort.SliceStable swap through reflection (internal/reflectlite's Swapper) and
// carry their own copy of the sort algorithms, and slices.SortFunc compiles its algorithms again
// for every element type: each is kilobytes of the first view's download (lawcore-core.wasm),
// while sort.Sort and sort.Stable are linked in anyway (gonum's optimize uses them) and this
// adapter costs three small methods per element type.
package order

import "sort"

type slice[T any] struct {
	s    []T
	less func(i, j int) bool
}

// Pointer receivers: with value receivers every element type also gets the pointer type's
// wrappers, a kilobyte more of the download each.
func (x *slice[T]) Len() int           { return len(x.s) }
func (x *slice[T]) Less(i, j int) bool { return x.less(i, j) }
func (x *slice[T]) Swap(i, j int)      { x.s[i], x.s[j] = x.s[j], x.s[i] }

// Sort sorts s by less, as sort.Slice(s, less): not stable.
func Sort[T any](s []T, less func(i, j int) bool) { sort.Sort(&slice[T]{s, less}) }

// Stable sorts s by less keeping equal elements in their order, as sort.SliceStable(s, less).
func Stable[T any](s []T, less func(i, j int) bool) { sort.Stable(&slice[T]{s, less}) }
