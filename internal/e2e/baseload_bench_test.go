package e2e

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/testenv"
)

// initLine is a package's line of the runtime's initialisation trace
// (GODEBUG=inittrace=1): "init PKG @T ms, CLOCK ms clock, …".
var initLine = regexp.MustCompile(`(?m)^init (\S+) @[0-9.]+ ms, ([0-9.]+) ms clock`)

// BenchmarkBaseLoad measures what nb's command knowledge costs at
// start-up: the initialisation of the packages the policy engine is made
// of (its tables, the Windows base, the parsers, the secret lists: the
// engine's dependency closure within nb, and the bash parser), read from
// the runtime's own trace of a fresh `nb --version`, and building the
// engine from the default configuration (policy.New).
func BenchmarkBaseLoad(b *testing.B) {
	exe, err := exec.LookPath("nb")
	if err != nil {
		b.Fatal(err)
	}
	goBin := testenv.Tool(b, "go")
	out, err := exec.Command(goBin, "list", "-deps", "github.com/nb-cli/nb/internal/policy").Output()
	if err != nil {
		b.Fatalf("go list -deps: %v", err)
	}
	base := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/nb-cli/nb/") || strings.HasPrefix(p, "mvdan.cc/sh/") {
			base[p] = true
		}
	}
	if !base["github.com/nb-cli/nb/internal/cmdbase"] || !base["github.com/nb-cli/nb/internal/shellparse"] {
		b.Fatalf("the policy's dependencies lack the base: %v", base)
	}
	opts := policy.OptionsFromConfig(config.Default())
	var initMs, newMs float64
	n := 0
	for b.Loop() {
		cmd := exec.Command(exe, "--version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		trace, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("nb --version: %v\n%s", err, trace)
		}
		seen := 0
		for _, m := range initLine.FindAllStringSubmatch(string(trace), -1) {
			if base[m[1]] {
				ms, err := strconv.ParseFloat(m[2], 64)
				if err != nil {
					b.Fatal(err)
				}
				initMs += ms
				seen++
			}
		}
		if seen == 0 {
			b.Fatalf("no initialisation of the base in the trace:\n%s", trace)
		}
		start := time.Now()
		if _, err := policy.New(opts); err != nil {
			b.Fatal(err)
		}
		newMs += float64(time.Since(start)) / float64(time.Millisecond)
		n++
	}
	b.ReportMetric(initMs/float64(n), "init-ms")
	b.ReportMetric(newMs/float64(n), "new-ms")
	b.ReportMetric((initMs+newMs)/float64(n), "base-load-ms")
}
