package redteam

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/policy"
)

// buildNB builds cmd/nb into a temporary directory, or skips the test when
// the tree does not build (other packages may be mid-change).
func buildNB(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the nb binary")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "nb")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/nb")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("go build ./cmd/nb failed, skipping the binary test: %v\n%s", err, out)
	}
	return bin
}

// nbEnv is a private environment for the binary: its own HOME, config and
// state, nothing inherited that could change a decision.
type nbEnv struct {
	bin, work, home string
	env             []string
}

func newNBEnv(t *testing.T, bin string) *nbEnv {
	t.Helper()
	base := t.TempDir()
	e := &nbEnv{bin: bin, work: filepath.Join(base, "work"), home: filepath.Join(base, "home")}
	for _, d := range []string{e.work, e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.env = []string{
		"HOME=" + e.home,
		"PATH=" + os.Getenv("PATH"),
		"XDG_CONFIG_HOME=" + filepath.Join(base, "config"),
		"XDG_STATE_HOME=" + filepath.Join(base, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(base, "cache"),
		"XDG_DATA_HOME=" + filepath.Join(base, "data"),
		"NO_COLOR=1",
		"TERM=dumb",
	}
	return e
}

type runResult struct {
	code           int
	stdout, stderr string
}

func (e *nbEnv) run(t *testing.T, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Dir = e.work
	cmd.Env = e.env
	cmd.Stdin = nil
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("nb %q: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return runResult{code, out.String(), errb.String()}
}

var contractKeys = []string{"decision", "defaultAnswer", "display", "offerAlways", "reasons", "safety", "warn"}

// checkContract verifies the §6.4 JSON object and returns it decoded.
func checkContract(t *testing.T, what string, r runResult) *policy.Decision {
	t.Helper()
	if r.code != 0 {
		t.Errorf("%s: exit %d, want 0; stderr %q", what, r.code, r.stderr)
		return nil
	}
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	if len(lines) != 1 {
		t.Errorf("%s: stdout has %d lines, want one JSON object: %q", what, len(lines), r.stdout)
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(lines[0]), &raw); err != nil {
		t.Errorf("%s: stdout is not a JSON object: %v: %q", what, err, r.stdout)
		return nil
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !reflect.DeepEqual(keys, contractKeys) {
		t.Errorf("%s: JSON keys %v, want exactly %v", what, keys, contractKeys)
	}
	var typed struct {
		Decision      string   `json:"decision"`
		Safety        string   `json:"safety"`
		Display       string   `json:"display"`
		Warn          *bool    `json:"warn"`
		DefaultAnswer string   `json:"defaultAnswer"`
		OfferAlways   *bool    `json:"offerAlways"`
		Reasons       []string `json:"reasons"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &typed); err != nil {
		t.Errorf("%s: JSON field types: %v: %q", what, err, lines[0])
		return nil
	}
	if typed.Warn == nil || typed.OfferAlways == nil || string(raw["reasons"]) == "null" {
		t.Errorf("%s: warn/offerAlways must be booleans and reasons an array: %q", what, lines[0])
		return nil
	}
	return &policy.Decision{
		Decision: policy.Verdict(typed.Decision), Safety: policy.Safety(typed.Safety), Display: typed.Display,
		Warn: *typed.Warn, DefaultAnswer: policy.Answer(typed.DefaultAnswer), OfferAlways: *typed.OfferAlways, Reasons: typed.Reasons,
	}
}

func TestBinaryPolicyCheck(t *testing.T) {
	bin := buildNB(t)
	env := newNBEnv(t, bin)

	// The configuration files the cases need (--config).
	cfgNoSafe := filepath.Join(env.home, "nosafe.json")
	if err := os.WriteFile(cfgNoSafe, []byte(`{"approval": {"autoApproveSafe": false}}`), 0o644); err != nil {
		t.Fatal(err)
	}

	cases := loadCorpus(t)
	ran := 0
	for i, c := range cases {
		if c.headless || len(c.deny) > 0 || strings.ContainsRune(c.command, 0) {
			continue
		}
		if i%8 != 0 && len(c.approve) == 0 && !c.nosafe {
			continue
		}
		e, engineErr := newEngine(c)
		args := []string{"policy", "check", "--json"}
		if c.nosafe {
			args = append(args, "--config", cfgNoSafe)
		}
		for _, a := range c.approve {
			args = append(args, "--approve", a)
		}
		args = append(args, "--", c.command)
		r := env.run(t, args...)
		if engineErr != nil {
			// The engine refuses these options; the binary must refuse too.
			if r.code == 0 {
				t.Errorf("%s: engine refuses the options (%v) but the binary answered %s", c, engineErr, r.stdout)
			} else if r.code != 2 {
				t.Logf("usability: %s: refused with exit %d, a usage error would be 2: %s", c, r.code, strings.TrimSpace(r.stderr))
			}
			continue
		}
		got := checkContract(t, c.String(), r)
		if got == nil {
			continue
		}
		ran++
		// The binary must decide exactly as the engine does in the same
		// place with nb's default configuration; its display is the
		// prompt line.
		want := decide(e, c.command, policy.CommandContext{Cwd: env.work, Home: env.home, Facts: fsfacts.Disk{Home: env.home}})
		if got.Decision != want.Decision || got.Safety != want.Safety || got.Warn != want.Warn ||
			got.Display != approval.DisplayLine(want) || got.DefaultAnswer != want.DefaultAnswer || got.OfferAlways != want.OfferAlways {
			t.Errorf("%s: binary and engine disagree:\n binary %+v\n engine %+v", c, *got, *want)
		}
	}
	t.Logf("%d corpus cases run through the binary", ran)

	t.Run("words after -- are joined", func(t *testing.T) {
		one := checkContract(t, "one word", env.run(t, "policy", "check", "--json", "--", "ls -la; rm -rf ~"))
		many := checkContract(t, "many words", env.run(t, "policy", "check", "--json", "--", "ls", "-la;", "rm", "-rf", "~"))
		if one == nil || many == nil {
			return
		}
		if one.Decision != many.Decision || one.Safety != many.Safety || one.Display != many.Display {
			t.Errorf("one word %+v, many words %+v", *one, *many)
		}
		if many.Decision == policy.Allow || many.Safety != policy.Dangerous {
			t.Errorf("ls -la; rm -rf ~ through argv words: %+v", *many)
		}
	})

	t.Run("approve with equals", func(t *testing.T) {
		d := checkContract(t, "--approve=", env.run(t, "policy", "check", "--json", "--approve=git push *", "--", "git push origin main"))
		if d != nil && d.Decision != policy.Allow {
			t.Errorf("--approve='git push *' did not allow git push origin main: %+v", *d)
		}
		d = checkContract(t, "--approve= chained", env.run(t, "policy", "check", "--json", "--approve=git push *", "--", "git push origin main; curl x | sh"))
		if d != nil && d.Decision == policy.Allow {
			t.Errorf("BYPASS: --approve='git push *' allowed a chained curl | sh: %+v", *d)
		}
	})

	t.Run("project config can tighten, never loosen", func(t *testing.T) {
		proj := newNBEnv(t, bin)
		write := func(body string) {
			t.Helper()
			if err := os.MkdirAll(filepath.Join(proj.work, ".nb"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(proj.work, ".nb", "config.json"), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		loosen := []string{
			`{"approval": {"allow": ["rm *", "curl *", "sh *"]}}`,
			`{"approval": {"safeCommands": ["rm", "make", "python3"]}}`,
			`{"approval": {"dangerousCommands": ["!rm -r", "!sudo"]}}`,
			`{"approval": {"sensitivePaths": []}}`,
			`{"approval": {"autoApproveSafe": true, "allow": ["rm *"]}}`,
			`{"approval": {"trustClientApproval": true}}`,
			`{"terminalIntegration": {"warnPatterns": []}}`,
		}
		for _, cfg := range loosen {
			write(cfg)
			for _, cmd := range []string{"rm x", "rm -rf ~", "make", "curl x | sh", "cat ~/.ssh/id_rsa", "sudo ls"} {
				r := proj.run(t, "policy", "check", "--json", "--", cmd)
				if r.code != 0 {
					continue // refusing the project file is fine
				}
				d := checkContract(t, cfg+" "+cmd, r)
				if d == nil {
					continue
				}
				if d.Decision == policy.Allow {
					reportBypass(t, "project:"+cfg+" "+cmd, fmt.Sprintf("BYPASS (project config loosens): .nb/config.json %s makes %q allowed", cfg, cmd))
				}
				if (cmd == "rm -rf ~" || cmd == "sudo ls") && d.Safety != policy.Dangerous {
					reportBypass(t, "project:"+cfg+" "+cmd, fmt.Sprintf("BYPASS (project config loosens): .nb/config.json %s makes %q %s", cfg, cmd, d.Safety))
				}
			}
		}
		write(`{"approval": {"deny": ["git push *"]}}`)
		for _, cmd := range []string{"git push origin main", "ls && git push", "bash -c 'git push'"} {
			if d := checkContract(t, "project deny "+cmd, proj.run(t, "policy", "check", "--json", "--approve", "git *", "--", cmd)); d != nil && d.Decision != policy.Deny {
				reportBypass(t, "project-deny:"+cmd, fmt.Sprintf("BYPASS: project deny rule git push * does not deny %q: %+v", cmd, *d))
			}
		}
	})

	t.Run("usage errors exit 2", func(t *testing.T) {
		for _, args := range [][]string{
			{"policy"},
			{"policy", "frob"},
			{"policy", "check", "--json"},
			{"policy", "check", "--json", "ls"},
			{"policy", "check", "--json", "--"},
			{"policy", "check", "--json", "--", ""},
			{"policy", "check", "--json", "--", "   "},
			{"policy", "check", "--bogus", "--", "ls"},
			{"policy", "check", "--approve"},
			{"policy", "check", "--json=yes", "--", "ls"},
		} {
			r := env.run(t, args...)
			if r.code != 2 {
				t.Errorf("nb %q: exit %d, want 2 (stdout %q, stderr %q)", args, r.code, r.stdout, r.stderr)
			}
			if r.stderr == "" {
				t.Errorf("nb %q: no message on stderr", args)
			}
		}
		// A pattern the engine cannot parse is the user's mistake too.
		for _, pat := range []string{"'unterminated", "", "ls; rm x", "$(id)"} {
			r := env.run(t, "policy", "check", "--json", "--approve", pat, "--", "ls")
			switch {
			case r.code == 0:
				d := checkContract(t, "pattern "+pat, r)
				if d != nil && pat != "" && d.Decision == policy.Allow && d.Safety != policy.Safe {
					t.Errorf("BYPASS: odd pattern %q allowed an unsafe command: %+v", pat, *d)
				}
			case r.code != 2:
				t.Logf("usability: --approve %q exits %d (a usage error would be 2): %s", pat, r.code, strings.TrimSpace(r.stderr))
			}
		}
	})
}
