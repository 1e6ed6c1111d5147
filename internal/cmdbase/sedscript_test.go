package cmdbase

import "testing"

// The scripts of the red-team finding: a label ends at whitespace or ';'
// in GNU sed, so what follows it is a command.
var sedHiddenCommands = []string{
	":x e", ":x w /tmp/nb-canary", ":x r /home/u/.aws/credentials", ":x\te", ":x\ne", "bx e", ":x;e",
	"tx w /tmp/f", "Tx R /etc/shadow", "v 4.2 e", "v;W /tmp/f", ":a#b\ne", "$a foo\\\\\nw x", "1!e",
	"/x/I e", "\\%x%e", "0,/x/ e", "1~2e", "s/a/b/ w x", "s/a/b/ge", "{:a\nw x\n}", "s/[/]/x/;e",
	"y/a/b/;r x", "p # c\nw x", "q5;e", "s/a/b/\ne",
}

var sedHarmless = []string{
	"s/a/b/g", "1,5p", "/^#/d", "s/[[:space:]]*$//", "$!N;s/\\n/ /", ":a;N;$!ba;s/\\n/ /g", "y/abc/xyz/",
	"1~2p", "/start/,/end/{/x/d;p}", "s|/usr|/opt|g", "$a hello", "l 40", "q", "10q", "=", "s/e/w/2",
	"s/x/y/I", "/re/!d", "0,/re/s//X/", "$p", "2,+3p", "s/a\\/b/c/", "\\,x,p", "{p}", "n;d", "s/a/b/;#e w",
}

func TestSedScanFindsHiddenCommands(t *testing.T) {
	for _, s := range sedHiddenCommands {
		if e := sedScan(s); e.harmless() {
			t.Errorf("%q judged harmless", s)
		}
	}
	for _, s := range sedHarmless {
		if e := sedScan(s); !e.harmless() {
			t.Errorf("%q not judged harmless: %+v", s, e)
		}
	}
	// sed joins its -e expressions with newlines: text continued across
	// them, and a w hidden by nothing in either alone
	for _, scripts := range [][]string{{"a foo\\\\", "w x"}, {":x", "e"}} {
		if why := sedScriptWhy(scripts); why == "" {
			t.Errorf("%q judged harmless", scripts)
		}
	}
}

// FuzzSedScan: any script is read without a panic, and a script the
// parser calls harmless stays harmless read on its own when joined with
// a harmless one (what sed -e A -e B does).
func FuzzSedScan(f *testing.F) {
	for _, s := range append(append([]string{}, sedHiddenCommands...), sedHarmless...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := sedScan(s)
		if e.harmless() && !sedScan(s+"\np").harmless() && !sedParse(s+"\np", true).bad && !sedParse(s+"\np", false).bad {
			// appending a print after a complete harmless script can only
			// end a text or label, never reveal e, w or r
			if j := sedScan(s + "\np"); j.exec || j.write || j.read {
				t.Errorf("%q harmless, %q is not: %+v", s, s+"\np", j)
			}
		}
	})
}
