package redact

import (
	"math/rand"
	"strings"
	"testing"
)

// TestKnownIndex: every piece the index holds is found by its key, in
// the order the spellings were added, and a lookup yields nothing else,
// whatever the number of pieces (the groups grow with it).
func TestKnownIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/"
	for _, values := range []int{1, 2, 7, 100, 3000} {
		ks := &knownSet{}
		for v := range values {
			var b strings.Builder
			for range 12 + rng.Intn(60) {
				b.WriteByte(alphabet[rng.Intn(len(alphabet))])
			}
			if v > 0 && rng.Intn(5) == 0 {
				// a value sharing pieces with another: keys repeat
				b.WriteString(ks.forms[rng.Intn(len(ks.forms))].text)
			}
			ks.addForms(b.String(), "k", false)
		}
		ks.build()
		// what the index should hold, by key, in the order added
		want := map[uint64][]anchor{}
		n := 0
		for i := range ks.forms {
			f := &ks.forms[i]
			eachPiece(f, func(off int) {
				key := load8(f.text[off:])
				want[key] = append(want[key], anchor{key: key, form: int32(i), off: int32(off)})
				n++
			})
		}
		if len(ks.anchors) != n {
			t.Fatalf("%d values: the index holds %d pieces, want %d", values, len(ks.anchors), n)
		}
		for key, w := range want {
			g := ks.group(key)
			var got []anchor
			for _, a := range ks.anchors[ks.starts[g]:ks.starts[g+1]] {
				if a.key == key {
					got = append(got, a)
				}
			}
			if len(got) != len(w) {
				t.Fatalf("%d values: key %x: %d pieces found, want %d", values, key, len(got), len(w))
			}
			for i := range w {
				if got[i] != w[i] {
					t.Fatalf("%d values: key %x: piece %d is %+v, want %+v", values, key, i, got[i], w[i])
				}
			}
		}
		if ks.starts[0] != 0 || int(ks.starts[len(ks.starts)-1]) != n {
			t.Fatalf("%d values: the groups span %d..%d, want 0..%d", values, ks.starts[0], ks.starts[len(ks.starts)-1], n)
		}
	}
}

// BenchmarkKnownIndex: the index of a machine's secrets (some ten
// thousand spellings) built at the detector's start.
func BenchmarkKnownIndex(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	src := &knownSet{}
	for range 200 {
		v := make([]byte, 64)
		for i := range v {
			v[i] = byte('A' + rng.Intn(58))
		}
		src.addForms(string(v), "k", false)
	}
	for b.Loop() {
		ks := &knownSet{forms: src.forms}
		ks.build()
	}
}
