package cmdbase

import (
	"strings"

	"github.com/nb-cli/nb/internal/shellparse"
)

// Word is a word of a parsed command line.
type Word = shellparse.Word

// digits reports a word of decimal digits only (a count, a line number).
var digits = shellparse.Digits

type word = Word

// ShortFlags collects the letters of every short-option cluster before
// "--", anywhere among the arguments (GNU tools permute options). A letter
// in valueLetters ends its cluster (the rest is its value).
func ShortFlags(ws []word, valueLetters string) map[byte]bool {
	m := map[byte]bool{}
	skipNext := false
	for _, w := range ws {
		if skipNext {
			skipNext = false
			continue
		}
		t := w.Text
		if t == "--" {
			break
		}
		if len(t) < 2 || t[0] != '-' || t[1] == '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			m[t[j]] = true
			if strings.IndexByte(valueLetters, t[j]) >= 0 {
				if j == len(t)-1 {
					skipNext = true
				}
				break
			}
		}
	}
	return m
}

// HasLong reports a long option --name (or any abbreviation of it, as GNU
// getopt accepts, or --name=value) before "--".
func HasLong(ws []word, names ...string) bool {
	for _, w := range ws {
		t := w.Text
		if t == "--" {
			return false
		}
		if !strings.HasPrefix(t, "--") || len(t) < 3 {
			continue
		}
		n, _, _ := strings.Cut(t[2:], "=")
		for _, name := range names {
			if n == name || (n != "" && strings.HasPrefix(name, n)) {
				return true
			}
		}
	}
	return false
}

// Positionals returns non-option words; valueShort and valueLong name
// options whose separate value is skipped.
func Positionals(ws []word, valueShort string, valueLong ...string) []word {
	var out []word
	dashdash := false
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		t := w.Text
		if dashdash || !w.Static() {
			out = append(out, w)
			continue
		}
		if t == "--" {
			dashdash = true
			continue
		}
		if strings.HasPrefix(t, "--") {
			n, _, eq := strings.Cut(t[2:], "=")
			if !eq {
				for _, l := range valueLong {
					if n == l {
						i++
						break
					}
				}
			}
			continue
		}
		if len(t) > 1 && t[0] == '-' {
			for j := 1; j < len(t); j++ {
				if strings.IndexByte(valueShort, t[j]) >= 0 {
					if j == len(t)-1 {
						i++
					}
					break
				}
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// AnyWord reports whether a static word equals one of values.
func AnyWord(ws []word, values ...string) bool {
	for _, w := range ws {
		if w.Text == "--" {
			return false
		}
		for _, v := range values {
			if w.Text == v {
				return true
			}
		}
	}
	return false
}

// OptionValues returns every value given to the option -letter (as -lV or
// -l V, also inside a cluster) or --long (as --long=V, --long V, or an
// abbreviation of long), before "--". valueShort lists every short option
// that takes a value.
func OptionValues(ws []word, letter byte, valueShort, long string) []string {
	return Texts(OptionWords(ws, letter, valueShort, long))
}

// OptionWords is OptionValues as words: a value attached to its option
// (-lV, --long=V) is known only at run time when that word is.
func OptionWords(ws []word, letter byte, valueShort, long string) []word {
	var out []word
	attached := func(w word, v string) word {
		return word{Text: v, Raw: v, Dynamic: w.Dynamic, Glob: w.Glob}
	}
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		if t == "--" {
			break
		}
		if strings.HasPrefix(t, "--") && len(t) > 2 {
			n, v, eq := strings.Cut(t[2:], "=")
			if long == "" || !strings.HasPrefix(long, n) {
				continue
			}
			if !eq {
				if i+1 >= len(ws) {
					break
				}
				i++
				out = append(out, ws[i])
				continue
			}
			out = append(out, attached(ws[i], v))
			continue
		}
		if len(t) < 2 || t[0] != '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(valueShort, t[j]) < 0 {
				continue
			}
			v, w := t[j+1:], attached(ws[i], t[j+1:])
			if v == "" && i+1 < len(ws) {
				i++
				w = ws[i]
			}
			if t[j] == letter {
				out = append(out, w)
			}
			break
		}
	}
	return out
}

// Texts returns the words' Texts.
func Texts(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}
