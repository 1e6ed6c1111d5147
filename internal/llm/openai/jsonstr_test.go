package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// appendJSONString writes every string byte for byte as encoding/json
// does with HTML escaping off.
func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	alphabet := []string{"a", "é", "🙂", "\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f", "<", ">", "&", "\u2028", "\u2029", "\xff", "\xe2\x80", "\xc3", " "}
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		var got bytes.Buffer
		appendJSONString(&got, s)
		if got.String() != strings.TrimSuffix(want.String(), "\n") {
			t.Fatalf("%q:\n got %s\nwant %s", s, got.String(), want.String())
		}
		if n := jsonStringLen(s); n != got.Len() {
			t.Fatalf("%q: jsonStringLen %d, written %d bytes", s, n, got.Len())
		}
	}
	check("")
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		check(b.String())
	}
	for c := range 256 {
		check(string([]byte{byte(c)}))
		check("x" + string([]byte{byte(c)}) + "y")
	}
}

// plain8 says a word is plain exactly when each of its bytes is.
func TestPlain8(t *testing.T) {
	base := []byte("abcdefgh")
	for pos := range 8 {
		for c := range 256 {
			w := append([]byte(nil), base...)
			w[pos] = byte(c)
			want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
			if got := plain8(word(string(w), 0)); got != want {
				t.Fatalf("%q: plain8 %v, want %v", w, got, want)
			}
		}
	}
}

func BenchmarkAppendJSONString(b *testing.B) {
	out := fmt.Sprintf(`{"stdout":%q,"stderr":"","exitCode":0}`, strings.Repeat("src/pkg1/file.go:12: TODO tidy this\n", 60))
	for _, s := range []string{out, strings.Repeat("the cache is cold. ", 100)} {
		b.Run("", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			var c counter
			for b.Loop() {
				appendJSONString(&c, s)
			}
		})
	}
}

// FuzzAppendJSONString: any string is written as encoding/json writes it
// (HTML escaping off), and counted exactly.
func FuzzAppendJSONString(f *testing.F) {
	f.Add("a <b> & \"q\" \\ \n\u2028 é \xff")
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		var got bytes.Buffer
		appendJSONString(&got, s)
		if got.String() != strings.TrimSuffix(want.String(), "\n") || jsonStringLen(s) != got.Len() {
			t.Fatalf("%q: got %s (counted %d)\nwant %s", s, got.String(), jsonStringLen(s), want.String())
		}
	})
}
