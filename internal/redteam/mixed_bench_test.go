package redteam

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// mixedCommand is one command of the mixed benchmark, with its shell.
type mixedCommand struct {
	shell   sysinfo.ShellKind
	command string
}

// mixedCommands are 10,000 commands as `nb policy check` meets them: the
// project's corpora (adversarial, read-only, unsafe, the policy's own
// adversarial list) in bash and the labelled and held-out Windows sets
// in cmd.exe and PowerShell, repeated in order until there are n.
func mixedCommands(b *testing.B, n int) []mixedCommand {
	b.Helper()
	var all []mixedCommand
	for _, c := range loadCorpus(b) {
		all = append(all, mixedCommand{sysinfo.ShellBash, c.command})
	}
	for _, name := range []string{"readonly.txt", "unsafe.txt"} {
		f, err := os.Open(filepath.Join("testdata", name))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if l := sc.Text(); strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
				all = append(all, mixedCommand{sysinfo.ShellBash, l})
			}
		}
		f.Close()
	}
	for _, name := range []string{"windows_commands.txt", "windows_heldout.txt"} {
		f, err := os.Open(filepath.Join("..", "policy", "testdata", name))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			l := sc.Text()
			if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
				continue
			}
			sh, rest, _ := strings.Cut(l, " ")
			_, cmd, _ := strings.Cut(rest, " ")
			k := sysinfo.ShellCmd
			if sh == "ps" {
				k = sysinfo.ShellPowerShell
			}
			all = append(all, mixedCommand{k, cmd})
		}
		f.Close()
	}
	out := make([]mixedCommand, 0, n)
	for len(out) < n {
		out = append(out, all[:min(len(all), n-len(out))]...)
	}
	return out
}

// BenchmarkPolicyCheck10k decides 10,000 mixed commands (bash, cmd.exe,
// PowerShell) with the engine `nb policy check` builds from the default
// configuration, as one run: the README's row for the cost of the
// decision pipeline as a whole. Facts are NoFacts so the figure is the
// policy's own, not the disk's or git's.
func BenchmarkPolicyCheck10k(b *testing.B) {
	cmds := mixedCommands(b, 10000)
	e, err := policy.New(policy.OptionsFromConfig(config.Default()))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, c := range cmds {
			e.Decide(policy.Action{Kind: policy.RunCommand, Command: c.command,
				Where: policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}, Shell: c.shell}})
		}
	}
}
