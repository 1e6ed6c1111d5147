package jsonstr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// check fails unless s is written, and counted, as encoding/json writes
// it with the escaping e.
func check(t testing.TB, s string, e Escaping) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(e == HTML)
	enc.Encode(s)
	var got bytes.Buffer
	Write(&got, s, e)
	if got.String() != strings.TrimSuffix(want.String(), "\n") {
		t.Fatalf("%q (escaping %d):\n got %s\nwant %s", s, e, got.String(), want.String())
	}
	if n := Len(s, e); n != got.Len() {
		t.Fatalf("%q (escaping %d): Len %d, written %d bytes", s, e, n, got.Len())
	}
}

// Every string is written byte for byte as encoding/json writes it, with
// and without HTML escaping.
func TestWriteMatchesEncodingJSON(t *testing.T) {
	alphabet := []string{"a", "é", "🙂", "\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f", "<", ">", "&", "\u2028", "\u2029", "\xff", "\xe2\x80", "\xc3", " "}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, e := range []Escaping{Plain, HTML} {
		check(t, "", e)
		for range 20000 {
			var b strings.Builder
			for range rng.IntN(30) {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			check(t, b.String(), e)
		}
		for c := range 256 {
			check(t, string([]byte{byte(c)}), e)
			check(t, "x"+string([]byte{byte(c)})+"y", e)
			check(t, "abcdefg"+string([]byte{byte(c)})+"ijklmnopq", e)
		}
	}
}

// Verbatim says eight bytes are verbatim exactly when each of them is.
func TestVerbatim8(t *testing.T) {
	base := []byte("abcdefgh")
	for _, e := range []Escaping{Plain, HTML} {
		for pos := range 8 {
			for c := range 256 {
				w := append([]byte(nil), base...)
				w[pos] = byte(c)
				want := c < 0x80 && verbatim[e][c]
				if got := Verbatim(load(string(w), 0), e); got != want {
					t.Fatalf("%q (escaping %d): verbatim8 %v, want %v", w, e, got, want)
				}
			}
		}
	}
}

// discard counts what is written.
type discard int

func (d *discard) WriteByte(byte) error { *d++; return nil }
func (d *discard) WriteString(s string) (int, error) {
	*d += discard(len(s))
	return len(s), nil
}

func BenchmarkWrite(b *testing.B) {
	out := fmt.Sprintf(`{"stdout":%q,"stderr":"","exitCode":0}`, strings.Repeat("src/pkg1/file.go:12: TODO tidy this\n", 60))
	for _, s := range []string{out, strings.Repeat("the cache is cold. ", 100)} {
		b.Run("", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			var d discard
			for b.Loop() {
				Write(&d, s, Plain)
			}
		})
	}
}

// FuzzWrite: any string is written as encoding/json writes it, in both
// escapings, and counted exactly.
func FuzzWrite(f *testing.F) {
	f.Add("a <b> & \"q\" \\ \n\u2028 é \xff")
	f.Fuzz(func(t *testing.T, s string) {
		check(t, s, Plain)
		check(t, s, HTML)
	})
}
