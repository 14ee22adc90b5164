package order

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

type item struct {
	key   int
	index int
}

// TestAsSortSlice: Sort and Stable leave a slice as sort.Slice and sort.SliceStable do,
// element for element, ties (which Sort may reorder) included.
func TestAsSortSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 500; trial++ {
		n := rng.IntN(200)
		s := make([]item, n)
		for i := range s {
			s[i] = item{key: rng.IntN(1 + n/4), index: i}
		}
		for _, c := range []struct {
			name string
			ours func([]item, func(i, j int) bool)
			std  func(any, func(i, j int) bool)
		}{{"Sort", Sort[item], sort.Slice}, {"Stable", Stable[item], sort.SliceStable}} {
			got, want := slices.Clone(s), slices.Clone(s)
			c.ours(got, func(i, j int) bool { return got[i].key < got[j].key })
			c.std(want, func(i, j int) bool { return want[i].key < want[j].key })
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d: %s = %v, sort's %v", trial, c.name, got, want)
			}
		}
	}
}
