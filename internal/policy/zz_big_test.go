package policy

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/sysinfo"
)

func TestZZBig(t *testing.T) {
	e := newEngine(t, nil)
	n, _ := strconv.Atoi(os.Getenv("ZZN"))
	name := os.Getenv("ZZC")
	c := map[string]string{
		"and":     strings.Repeat("cat a.txt && ", n) + "cat",
		"assign":  "F=a.txt && " + strings.Repeat("cat $F && ", n) + "cat",
		"assign2": "F=a.txt; " + strings.Repeat("cat $F; ", n),
		"if":      strings.Repeat("if true; then ", n/10) + "ls" + strings.Repeat("; fi", n/10),
		"sub":     strings.Repeat("(", n/10) + "ls" + strings.Repeat(")", n/10),
		"cd":      strings.Repeat("cd a && ", n) + "ls",
		"funcs":   strings.Repeat("f() { ls; }; ", n) + "f",
		"heredoc": "cat <<EOF\n" + strings.Repeat("line $x\n", n*10) + "EOF",
		"cmdpipe": strings.Repeat("type a.txt | ", n) + "findstr x",
		"cmdand":  strings.Repeat("dir && ", n) + "dir",
		"pspipe":  strings.Repeat("Get-Content a.txt | ", n) + "Select-String x",
	}[name]
	cc := testCC
	if strings.HasPrefix(name, "cmd") {
		cc = winCC(sysinfo.ShellCmd)
	} else if strings.HasPrefix(name, "ps") {
		cc = winCC(sysinfo.ShellPowerShell)
	}
	start := time.Now()
	d := decideCmd(e, c, cc)
	t.Logf("%s %d: %s in %v", name, n, d.Decision, time.Since(start))
}
