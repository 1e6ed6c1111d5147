package redteam

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/policy"
)

// TestHugeInputs: very long, very deep or very wide commands must be
// decided (not crash nb) and never allowed when they hide a payload.
func TestHugeInputs(t *testing.T) {
	e, err := newEngine(&corpusCase{})
	if err != nil {
		t.Fatal(err)
	}
	cc := policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}}
	inputs := map[string]string{
		"deep subshells":      strings.Repeat("(", 5000) + "rm -rf ~" + strings.Repeat(")", 5000),
		"deep substitutions":  strings.Repeat("echo $(", 2000) + "rm -rf ~" + strings.Repeat(")", 2000),
		"deep braces":         strings.Repeat("{ ", 3000) + "rm -rf ~" + strings.Repeat("; }", 3000),
		"long list":           strings.Repeat("ls; ", 50000) + "rm -rf ~",
		"long pipeline":       strings.Repeat("cat | ", 20000) + "sh",
		"long word":           "echo " + strings.Repeat("a", 1<<20) + "; rm -rf ~",
		"many lines":          strings.Repeat("ls\n", 100000) + "rm -rf ~",
		"deep bash -c":        nestBashC(12, "rm -rf ~"),
		"deep eval":           strings.Repeat("eval ", 500) + "'rm -rf ~'",
		"many heredocs":       strings.Repeat("cat <<E\n$(rm -rf ~)\nE\n", 2000),
		"deep arithmetic":     "echo $((" + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + ")); rm -rf ~",
		"deep parameter":      "echo " + strings.Repeat("${x:-", 2000) + "$(rm -rf ~)" + strings.Repeat("}", 2000),
		"deep process subst":  strings.Repeat("cat <(", 1000) + "rm -rf ~" + strings.Repeat(")", 1000),
		"deep function chain": deepFunctions(500),
	}
	for name, cmd := range inputs {
		start := time.Now()
		d := decide(e, cmd, cc)
		t.Logf("%s: %d bytes decided in %v", name, len(cmd), time.Since(start).Round(time.Millisecond))
		if d.Decision == policy.Allow {
			reportBypass(t, "huge:"+name, "BYPASS (huge input): "+name+" allowed")
		}
		if len(d.Display) > 4*len(cmd)+1024 {
			reportBypass(t, "huge:"+name, fmt.Sprintf("DEFECT: %s: display is %d bytes for a %d-byte command", name, len(d.Display), len(cmd)))
		}
	}
}

func nestBashC(n int, inner string) string {
	s := inner
	for i := 0; i < n; i++ {
		s = "bash -c " + shellQuoteSingle(s)
	}
	return s
}

func shellQuoteSingle(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func deepFunctions(n int) string {
	var b strings.Builder
	b.WriteString("f0(){ rm -rf ~; }\n")
	for i := 1; i < n; i++ {
		b.WriteString("f")
		b.WriteString(itoa(i))
		b.WriteString("(){ f")
		b.WriteString(itoa(i - 1))
		b.WriteString("; }\n")
	}
	b.WriteString("f" + itoa(n-1))
	return b.String()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for i > 0 {
		d = append([]byte{byte('0' + i%10)}, d...)
		i /= 10
	}
	return string(d)
}
