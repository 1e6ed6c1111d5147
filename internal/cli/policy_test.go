package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/iostreams"
)

// policyIO returns test streams with a private HOME and a function
// returning what was written to stdout and stderr.
func policyIO(t *testing.T) (*iostreams.IO, func() (string, string)) {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"), "XDG_STATE_HOME": filepath.Join(dir, "state")}
	io, _, out, errOut := iostreams.Test(env)
	return io, func() (string, string) { return out.String(), errOut.String() }
}

func TestPolicyCheckJSON(t *testing.T) {
	cases := []struct {
		args                []string
		decision, safety    string
		warn, always        bool
		display, defaultAns string
	}{
		{[]string{"check", "--json", "--", "ls", "-la"}, "allow", "safe", false, false, "run: ls -la", "yes"},
		{[]string{"check", "--json", "--", "rm -rf /tmp/x"}, "ask", "dangerous", true, false, "delete ⚠️: /tmp/x", "no"},
		{[]string{"check", "--json", "--approve", "git log *", "--", "git log; rm -rf ~"}, "ask", "dangerous", true, false, "run ⚠️: git log; rm -rf ~", "no"},
		{[]string{"check", "--json", "--approve=git log *", "--", "git log --oneline"}, "allow", "safe", false, false, "run: git log --oneline", "yes"},
		{[]string{"check", "--json", "--approve", "make *", "--", "make test"}, "allow", "unknown", false, true, "run: make test", "yes"},
		{[]string{"check", "--json", "--", "git push origin main"}, "ask", "unknown", false, true, "run: git push origin main", "yes"},
		{[]string{"check", "--json", "--", "echo 'oops"}, "ask", "unknown", false, false, "run: echo 'oops", "yes"},
	}
	for _, c := range cases {
		io, output := policyIO(t)
		if code := finish(io, runPolicy(c.args, io, &Options{})); code != 0 {
			_, e := output()
			t.Fatalf("%q: exit %d (%s)", c.args, code, e)
		}
		out, _ := output()
		var got map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%q: %v in %q", c.args, err, out)
		}
		if strings.Count(strings.TrimSpace(out), "\n") != 0 {
			t.Errorf("%q: more than one line: %q", c.args, out)
		}
		for _, k := range []string{"decision", "safety", "display", "warn", "defaultAnswer", "offerAlways", "reasons"} {
			if _, ok := got[k]; !ok {
				t.Errorf("%q: missing %q in %s", c.args, k, out)
			}
		}
		if len(got) != 7 {
			t.Errorf("%q: extra keys in %s", c.args, out)
		}
		if got["decision"] != c.decision || got["safety"] != c.safety || got["warn"] != c.warn || got["offerAlways"] != c.always || got["display"] != c.display || got["defaultAnswer"] != c.defaultAns {
			t.Errorf("%q: got %s", c.args, out)
		}
		if _, ok := got["reasons"].([]any); !ok {
			t.Errorf("%q: reasons is not a list: %s", c.args, out)
		}
	}
}

func TestPolicyCheckUsage(t *testing.T) {
	for _, args := range [][]string{
		{}, {"check"}, {"check", "ls"}, {"check", "--json"}, {"check", "--"}, {"check", "--bogus", "--", "ls"},
		{"check", "--approve"}, {"frobnicate"}, {"check", "--", "  "},
		{"check", "--approve", "ls; rm x", "--", "ls"}, {"check", "--approve", "*", "--", "ls"},
		{"check", "--approve", "'unterminated", "--", "ls"}, {"check", "--approve=", "--", "ls"},
	} {
		io, output := policyIO(t)
		if code := finish(io, runPolicy(args, io, &Options{})); code != ExitUsage {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
		if out, e := output(); out != "" || !strings.HasPrefix(e, "nb: ") || strings.Count(e, "\n") != 1 {
			t.Errorf("%q: stdout %q, stderr %q: want nothing on stdout, one nb: line on stderr", args, out, e)
		}
	}
}

func TestPolicyCheckConfig(t *testing.T) {
	io, output := policyIO(t)
	cfg := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(cfg, []byte(`{"approval": {"deny": ["make *"]}}`), 0o600)
	if code := finish(io, runPolicy([]string{"check", "--json", "--config", cfg, "--", "make"}, io, &Options{})); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if out, _ := output(); !strings.Contains(out, `"decision":"deny"`) {
		t.Errorf("deny rule not applied: %s", out)
	}
	io, output = policyIO(t)
	if code := finish(io, runPolicy([]string{"check", "--config", filepath.Join(t.TempDir(), "missing.json"), "--", "ls"}, io, &Options{})); code != ExitError {
		t.Errorf("missing --config: exit %d", code)
	}
	if _, e := output(); !strings.Contains(e, "missing.json") {
		t.Errorf("error does not name the file: %q", e)
	}
	os.WriteFile(cfg, []byte(`{"approval": {"alow": []}}`), 0o600)
	io, output = policyIO(t)
	if code := finish(io, runPolicy([]string{"check", "--config", cfg, "--", "ls"}, io, &Options{})); code != ExitError {
		t.Errorf("bad config: exit %d", code)
	}
	if _, e := output(); !strings.Contains(e, "approval.alow") {
		t.Errorf("error does not name the key: %q", e)
	}
}

func TestPolicyCheckHuman(t *testing.T) {
	io, output := policyIO(t)
	if code := finish(io, runPolicy([]string{"check", "--", "git status"}, io, &Options{})); code != 0 {
		t.Fatalf("exit %d", code)
	}
	out, _ := output()
	if !strings.Contains(out, "decision: allow") || !strings.Contains(out, "display:  run: git status") {
		t.Errorf("human output %q", out)
	}
}

// TestPolicyCheckSaysWhoDecided: the text form says in words who allowed
// or denied a command, keeping the audit log's short name beside it.
func TestPolicyCheckSaysWhoDecided(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--", "ls"}, "by:       the safe list: every part only reads (safe-list)\n"},
		{[]string{"check", "--approve", "make *", "--", "make test"}, "by:       an --approve pattern of this run (flag)\n"},
		{[]string{"check", "--", "make test"}, "by:       the user, at a prompt\n"},
	} {
		io, output := policyIO(t)
		if code := finish(io, runPolicy(c.args, io, &Options{})); code != 0 {
			t.Fatalf("%q: exit %d", c.args, code)
		}
		if out, _ := output(); !strings.Contains(out, c.want) {
			t.Errorf("%q: %q, want %q", c.args, out, c.want)
		}
	}
}
