package hosttest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
)

// Canaries are environment variables a host under test is started with
// (in its own environment, or the remote login environment), each value
// unique so a test can look for it in `env` output.
var Canaries = []string{
	"NBT_API_KEY=canary-name-key",
	"GITHUB_TOKEN=canary-github-token",
	"NBT_DB_PASSWORD=canary-db-password",
	"DATABASE_URL=postgres://app:canary-url-pw@db/app",
	"HTTPS_PROXY=http://u:canary-proxy-pw@proxy:3128",
	"OPENAI_API_KEY=canary-provider-openai",
	"ANTHROPIC_API_KEY=canary-provider-anthropic",
	"NBT_MY_LLM=canary-configured-provider",
	"NBT_EXCLUDED_VALUE=canary-excluded",
	"NBT_PASSED_TOKEN=passed-by-config",
	"NBT_PLAIN=plain-kept",
	"NBT_PROXY_URL=http://proxy:3128",
}

// CanaryPolicy is the policy hosts under test get: it passes
// NBT_PASSED_TOKEN (and tries to pass the provider keys, which must fail),
// excludes NBT_EXCLUDED_*, and names NBT_MY_LLM as a configured provider
// key.
var CanaryPolicy = host.EnvPolicy{
	Pass:    []string{"NBT_PASSED_*", "OPENAI_API_KEY", "anthropic_api_key", "NBT_MY_*"},
	Exclude: []string{"nbt_excluded_*"},
	Always:  []string{"NBT_MY_LLM"},
}

// CheckScrubbed fails t unless out (the output of `env` on a host started
// with Canaries and CanaryPolicy) lacks every secret canary and has the
// variables that must pass.
func CheckScrubbed(t *testing.T, what, out string) {
	t.Helper()
	for _, kv := range Canaries {
		_, v, _ := strings.Cut(kv, "=")
		keep := v == "passed-by-config" || v == "plain-kept" || v == "http://proxy:3128"
		if got := strings.Contains(out, v); got != keep {
			if keep {
				t.Errorf("%s: %s was removed; env:\n%s", what, kv, out)
			} else {
				t.Errorf("%s: secret %s reached the command; env:\n%s", what, kv, out)
			}
		}
	}
	if !strings.Contains(out, "PATH=") {
		t.Errorf("%s: PATH missing; env:\n%s", what, out)
	}
}

// EnvScrubbed runs `env` through h, as a command and (when pty) in a
// terminal session, and checks the canaries.
func EnvScrubbed(t *testing.T, h host.Host, dir string, pty bool) {
	t.Helper()
	r := Exec(t, context.Background(), h, host.Command{Script: "env", Dir: dir, Timeout: 20 * time.Second})
	if r.Exit.Code != 0 {
		t.Fatalf("env: exit %d: %s", r.Exit.Code, r.Stderr)
	}
	CheckScrubbed(t, h.Name()+" run", r.Stdout)
	if !pty {
		return
	}
	_, rd := startPTY(t, h, dir, "env; echo env-done")
	rd.expect(t, "env-done")
	CheckScrubbed(t, h.Name()+" pty", rd.String())
}
