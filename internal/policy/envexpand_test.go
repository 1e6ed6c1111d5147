package policy

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/testenv"
)

// TestSecretEnvAgainstBash runs every command nb allows, built from
// templates that reach a secret variable in each context bash expands one,
// in a real bash holding canary secrets, and asserts that no canary
// reaches the output. Commands nb does not allow are counted: most of
// them must be asked, or the test proves nothing.
func TestSecretEnvAgainstBash(t *testing.T) {
	bash := testenv.Tool(t, "bash")
	refs := []string{
		"$GITHUB_TOKEN", "${GITHUB_TOKEN}", `"$GITHUB_TOKEN"`, "${GITHUB_TOKEN:0:40}", "${GITHUB_TOKEN@Q}",
		"${GITHUB_TOKEN//x/y}", "$((GITHUB_TOKEN))", "${!v}", "$DATABASE_URL", "$https_proxy", "${GITHUB_TOKEN,,}",
		"${GITHUB_TOKEN#x}", "$((1+GITHUB_TOKEN))", "${a[GITHUB_TOKEN]}",
	}
	templates := []string{
		"echo REF", "x=REF; echo $x", "cat <<< REF", "cat <<EOF\nREF\nEOF", "printf '%s\\n' REF",
		"[[ REF == C* ]] && echo t", "echo \"$(echo REF)\"", "a=(REF); echo ${a[0]}", "case REF in *) echo REF;; esac",
		"for x in REF; do echo $x; done", "bash -c 'echo REF'", "read x <<< REF; echo $x", ": ${x:=REF}; echo $x",
		"echo ${x:-REF}", "printf -v y %s REF; echo $y", "echo pre-REF-post | tr a-z A-Z", "base64 <<< REF",
		"v=GITHUB_TOKEN; echo REF", "let y=REF; echo $y", "((y=REF)); echo $y", "echo $[REF]",
	}
	var cmds []string
	for _, tpl := range templates {
		for _, r := range refs {
			cmds = append(cmds, strings.ReplaceAll(tpl, "REF", r))
		}
	}
	cmds = append(cmds, "env", "printenv", "printenv GITHUB_TOKEN", "printenv https_proxy", "export -p", "set", "declare -p GITHUB_TOKEN",
		"declare -n r=GITHUB_TOKEN; echo $r", "eval 'echo $GITHUB_TOKEN'", "cat /proc/self/environ", "ps eww", "compgen -v",
		"echo ${!GITHUB*}", "declare -x", "typeset -p", "trap 'echo $GITHUB_TOKEN' EXIT", "alias a='echo $GITHUB_TOKEN'; a")
	e := newEngine(t, nil)
	cc := CommandContext{Cwd: t.TempDir(), Home: t.TempDir(), Facts: NoFacts{}}
	allowed, asked := 0, 0
	for _, c := range cmds {
		d := decideCmd(e, c, cc)
		if d.Decision != Allow {
			asked++
			if r := strings.Join(d.Reasons, "; "); !strings.Contains(r, "secret") && !strings.Contains(r, "sensitive") {
				t.Errorf("%q asked, but not for the secret it reaches: %s", c, r)
			}
			continue
		}
		allowed++
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", c)
		cmd.Dir = cc.Cwd
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + cc.Home, "LC_ALL=C", "GITHUB_TOKEN=CANARYtok123",
			"DATABASE_URL=postgres://app:CANARYdb@db/app", "https_proxy=http://u:CANARYproxy@proxy:3128"}
		out, _ := cmd.CombinedOutput()
		cancel()
		if strings.Contains(string(out), "CANARY") || strings.Contains(strings.ToUpper(string(out)), "CANARY") {
			t.Errorf("%q allowed (%s) and printed a secret: %s", c, d.DecidedBy, out)
		}
	}
	t.Logf("%d commands: %d allowed ran without a canary, %d asked", len(cmds), allowed, asked)
	if asked < len(cmds)*3/4 {
		t.Errorf("only %d of %d commands asked: the corpus does not reach secrets", asked, len(cmds))
	}
}
