package redact

import (
	"math/rand"
	"slices"
	"testing"
)

// randomAnchors are n pieces whose keys share some bytes (as text does)
// and repeat, each numbered by its place.
func randomAnchors(n int, seed int64) []anchor {
	rng := rand.New(rand.NewSource(seed))
	out := make([]anchor, n)
	for i := range out {
		k := uint64(rng.Intn(64)) | uint64('a'+rng.Intn(3))<<8 | 0x2d<<16 | uint64(rng.Int63())<<24&^(0xff<<40)
		if rng.Intn(4) == 0 && i > 0 {
			k = out[rng.Intn(i)].key
		}
		out[i] = anchor{key: k, form: int32(i), off: int32(rng.Intn(100))}
	}
	return out
}

// TestSortAnchors: the radix sort orders as a stable comparison sort does.
func TestSortAnchors(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 255, 256, 1000, 50000} {
		a := randomAnchors(n, int64(n))
		want := slices.Clone(a)
		slices.SortStableFunc(want, func(x, y anchor) int {
			switch {
			case x.key < y.key:
				return -1
			case x.key > y.key:
				return 1
			}
			return 0
		})
		sortAnchors(a)
		if !slices.Equal(a, want) {
			t.Fatalf("n=%d: the radix sort's order differs from a stable sort's", n)
		}
	}
}

// BenchmarkSortAnchors: the index of a machine's secrets (some hundred
// thousand pieces) sorted at the detector's start.
func BenchmarkSortAnchors(b *testing.B) {
	src := randomAnchors(100000, 1)
	a := make([]anchor, len(src))
	for b.Loop() {
		copy(a, src)
		sortAnchors(a)
	}
}
