package policy

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/shellparse"
)

// FuzzDecide checks that deciding never panics and that "safe" is never
// given to a command with a write redirection, an unknown construct or a
// leaf the analyser could not resolve.
func FuzzDecide(f *testing.F) {
	for _, s := range dangerousPayloads {
		f.Add(s)
	}
	for _, s := range templates {
		f.Add(strings.ReplaceAll(s, "P", "ls"))
	}
	e := newEngine(f, func(o *Options) { o.Approve = []string{"git log *", "make"} })
	f.Fuzz(func(t *testing.T, src string) {
		d := decideCmd(e, src, testCC)
		_ = decideInput(e, "term-1", "bash", true, src, testCC)
		if d.Decision == "" || d.Safety == "" || d.Display == "" {
			t.Fatalf("%q: incomplete decision %+v", src, d)
		}
		if d.Safety != Safe {
			if d.Decision == Allow && d.DecidedBy == "safe-list" {
				t.Fatalf("%q: allowed by the safe list but not safe", src)
			}
			return
		}
		a := shellparse.Analyse(src, shellparse.Options{Home: testCC.Home})
		if a.Err != nil || len(a.Unknown) > 0 {
			t.Fatalf("%q: safe despite parse error or unknown %q", src, a.Unknown)
		}
		for _, r := range a.Redirs {
			if r.Write && !(r.Target.Static() && harmlessDevices[absPath(r.Target.Text, testCC.Cwd)]) {
				t.Fatalf("%q: safe with a write redirection to %q", src, r.Target.Raw)
			}
		}
		for _, l := range a.Leaves {
			if l.Name() == "" || len(l.Unknown) > 0 {
				t.Fatalf("%q: safe with unknown leaf %q", src, l.Text())
			}
			if shellparse.IsNetworkTool(l.Base()) {
				t.Fatalf("%q: safe with network tool %q", src, l.Base())
			}
		}
	})
}

func BenchmarkDecideOneLine(b *testing.B) {
	e := newEngine(b, func(o *Options) { o.Approve = []string{"git log *"} })
	cmds := []string{"ls -la", "git log --oneline -10 | head", "grep -rn TODO src && echo done", "timeout 5 make test > /dev/null 2>&1"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		decideCmd(e, cmds[i%len(cmds)], testCC)
	}
}

func BenchmarkDecide1000Lines(b *testing.B) {
	e := newEngine(b, nil)
	lines := []string{"cd /tmp/build", "grep -rn \"$pattern\" src | sort | uniq -c", "if [ -f x ]; then cat x; fi",
		"for f in *.go; do wc -l \"$f\"; done", "echo $(date +%s) >> /tmp/log", "make -j4 && ./run --fast"}
	var sb strings.Builder
	for i := 0; i < 1000; i++ {
		sb.WriteString(lines[i%len(lines)])
		sb.WriteByte('\n')
	}
	script := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		decideCmd(e, script, testCC)
	}
}
