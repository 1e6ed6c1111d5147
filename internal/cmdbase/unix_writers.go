package cmdbase

import (
	"slices"
	"strings"
)

// Programs whose arguments name files they write, beside what they are
// known for: each says how (Prog.Writes), so that the write is shown
// with ⚠️ and a system file's danger is seen.

// splitWrites: split writes files named after its second operand, the
// prefix (x in the current directory without one).
func splitWrites(ws []Word) (string, []Word) {
	if versionOnly(ws) {
		return "", nil
	}
	pos := Positionals(ws, "abClnt", "suffix-length", "bytes", "line-bytes", "lines", "number", "separator", "additional-suffix", "filter")
	if len(pos) > 1 {
		return "split writes files named " + pos[1].Raw + "…", pos[1:2]
	}
	return "split writes files named x…", []Word{{Text: "x", Raw: "x"}}
}

// csplitWrites: csplit writes files named after -f's prefix (xx in the
// current directory without one).
func csplitWrites(ws []Word) (string, []Word) {
	if versionOnly(ws) {
		return "", nil
	}
	if p := OptionWords(ws, 'f', "bfn", "prefix"); len(p) > 0 {
		return "csplit writes files named " + p[len(p)-1].Raw + "…", p
	}
	return "csplit writes files named xx…", []Word{{Text: "xx", Raw: "xx"}}
}

// perlWrites: perl -i (alone, with a backup extension, or in a cluster
// such as -pi) edits the files it is given in place.
func perlWrites(ws []Word) (string, []Word) {
	inPlace, script := false, false
	var files []Word
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		switch {
		case t == "--":
			files = append(files, ws[i+1:]...)
			i = len(ws)
		case strings.HasPrefix(t, "-") && len(t) > 1 && !strings.HasPrefix(t, "--"):
			for j := 1; j < len(t); j++ {
				c := t[j]
				if c == 'i' {
					inPlace = true
					break // the rest is the backup extension
				}
				if c == 'e' || c == 'E' {
					script = true
					if j == len(t)-1 {
						i++ // the program is the next word
					}
					break
				}
				if c == 'l' || c == '0' {
					// an optional number (-l015, -0777, -0x1F): the
					// options after it are read on (-lpi)
					for j+1 < len(t) && strings.IndexByte("0123456789abcdefABCDEFx", t[j+1]) >= 0 && !(c == 'l' && t[j+1] > '7') {
						j++
					}
					continue
				}
				if strings.IndexByte("IMmxC", c) >= 0 {
					break // the rest is this option's value
				}
			}
		case !script:
			script = true // the program's file
		default:
			files = append(files, ws[i])
		}
	}
	if !inPlace || len(files) == 0 {
		return "", nil
	}
	return "perl -i edits files", files
}

// openSSLWrites: openssl's -out and -keyout name the files it writes,
// spelt as OpenSSL reads its options: one or two dashes, the value after
// = or in the next word.
func openSSLWrites(ws []Word) (string, []Word) {
	var out []Word
	for i := 0; i < len(ws); i++ {
		t := ws[i].Text
		if !strings.HasPrefix(t, "-") {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimPrefix(t[1:], "-"), "=")
		if name != "out" && name != "keyout" {
			continue
		}
		switch {
		case eq:
			out = append(out, Word{Text: val, Raw: val, Dynamic: ws[i].Dynamic, Glob: ws[i].Glob})
		case i+1 < len(ws):
			i++
			out = append(out, ws[i])
		}
	}
	if len(out) == 0 {
		return "", nil
	}
	return "openssl writes " + out[0].Raw, out
}

// scriptWrites: script records the session in its operand (typescript
// without one) and in the logs its options name.
func scriptWrites(ws []Word) (string, []Word) {
	var out []Word
	for _, o := range []struct {
		short byte
		long  string
	}{{'B', "log-io"}, {'I', "log-in"}, {'O', "log-out"}, {'T', "log-timing"}} {
		out = append(out, OptionWords(ws, o.short, "BcEIOTm", o.long)...)
	}
	pos := Positionals(ws, "BcEIOTm", "log-io", "log-in", "log-out", "log-timing", "command", "echo", "logging-format", "output-limit")
	if len(pos) > 0 {
		out = append(out, pos[0])
	} else {
		out = append(out, Word{Text: "typescript", Raw: "typescript"})
	}
	return "script records the session in " + out[len(out)-1].Raw, out
}

// unzipWrites: unzip extracts into -d's directory (the current one
// without it), unless it only lists, tests or prints.
func unzipWrites(ws []Word) (string, []Word) {
	f := ShortFlags(ws, "dxP")
	if f['l'] || f['t'] || f['p'] || f['v'] || f['Z'] || f['z'] {
		return "", nil
	}
	if d := OptionWords(ws, 'd', "dxP", ""); len(d) > 0 {
		return "unzip extracts into " + d[len(d)-1].Raw, d
	}
	return "unzip extracts here", []Word{{Text: ".", Raw: "."}}
}

// versionOnly reports arguments that only ask for the version or the
// help (--version, --help), which GNU programs print before anything.
func versionOnly(ws []Word) bool {
	for _, w := range ws {
		if w.Text != "--version" && w.Text != "--help" {
			return false
		}
	}
	return len(ws) > 0
}

// yqWrites: yq -i (--inplace) writes back the files it reads.
func yqWrites(ws []Word) (string, []Word) {
	if !ShortFlags(ws, "wopI")['i'] && !HasLong(ws, "inplace") {
		return "", nil
	}
	pos := Positionals(ws, "wopI", "width", "output-format", "input-format", "indent", "yaml-output-grammar-version",
		"yml-out-ver", "xml-attribute-prefix", "xml-content-name", "csv-separator", "expression", "front-matter")
	if len(pos) > 0 && slices.Contains([]string{"e", "eval", "ea", "eval-all"}, pos[0].Text) {
		pos = pos[1:] // the command, then the expression
	}
	if len(pos) < 2 {
		return "", nil
	}
	return "yq -i edits files", pos[1:]
}
