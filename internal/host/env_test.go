//go:build unix

package host

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/testenv"
)

func TestEnvPolicyKeep(t *testing.T) {
	p := EnvPolicy{Pass: []string{"GITHUB_TOKEN", "ci_*"}, Exclude: []string{"*_SESSION_ID", "CI_SECRET?"}, Always: []string{"work_llm_key"}}
	for _, c := range []struct {
		name, value string
		want        bool
	}{
		{"PATH", "/usr/bin", true},
		{"GITHUB_TOKEN", "x", true},    // passed
		{"github_token", "x", true},    // case-insensitive
		{"GITLAB_TOKEN", "x", false},   // secret by name
		{"CI_JOB_TOKEN", "x", true},    // passed by glob
		{"CI_SECRET1", "x", false},     // exclude wins over pass
		{"APP_SESSION_ID", "x", false}, // excluded though not secret
		{"OPENAI_API_KEY", "x", false}, // provider key
		{"WORK_LLM_KEY", "x", false},   // configured provider key
		{"DATABASE_URL", "pg://u:p@h/", false},
		{"PROXY_URL", "http://proxy:1/", true},
		{"SSH_AUTH_SOCK", "/tmp/a", true},
	} {
		if got := p.Keep(c.name, c.value); got != c.want {
			t.Errorf("Keep(%s=%s) = %v, want %v", c.name, c.value, got, c.want)
		}
	}
	if p := (EnvPolicy{Pass: []string{"OPENAI_*"}}); p.Keep("OPENAI_API_KEY", "x") {
		t.Error("a pass pattern let a provider key through")
	}
}

// envCorpus is environment entries for the differential test: secret and
// plain names, odd cases, URL values of every shape.
var envCorpus = []string{
	"PATH=/usr/bin:/bin", "HOME=/root", "LANG=C.UTF-8",
	"GITHUB_TOKEN=a", "github_token=b", "MYAPITOKEN=c", "AWS_SECRET_ACCESS_KEY=d", "AWS_ACCESS_KEY_ID=e",
	"DB_PASSWORD=f", "PGPASSWD=g", "GOOGLE_APPLICATION_CREDENTIALS=/x", "NPM_AUTH=h", "SESSION_COOKIE=i",
	"SENTRY_DSN=j", "MONKEY=k", "KEYBOARD=l", "KEYTIMEOUT=1", "SSH_AUTH_SOCK=/s", "GIT_ASKPASS=/a",
	"PASSWORD_STORE_DIR=/p", "XAUTHORITY=/x", "PWD=/w", "OLDPWD=/o", "SESSION_ID=m", "PRIVATE=n",
	"DATABASE_URL=postgres://app:pw@db/app", "REDIS_URL=redis://:pw@c:6379", "HTTPS_PROXY=http://u:p@proxy:1",
	"HTTP_PROXY=http://proxy:1", "NO_PROXY=localhost", "X_URL=https://@host", "Y_URL=x y://u@h",
	"Z_URL=https://h/a@b", "Q_URL=https://h?x=a@b", "F_URL=https://h#a@b", "M_URL=mailto:a@b",
	"E_URL=://u@h", "ML=line1\nhttps://u:p@h\nline3", "NL=a\nB_TOKEN=x", "OPENAI_API_KEY=o",
	"ANTHROPIC_API_KEY=a", "GEMINI_API_KEY=g", "GOOGLE_API_KEY=g", "AZURE_OPENAI_API_KEY=z",
	"OPENAI_BASE_URL=http://localhost:1/v1", "WORK_LLM_KEY=w", "CI_JOB_TOKEN=c", "CI_SECRET1=s",
	"APP_SESSION_ID=s", "lower_case_secret=x", "A=1", "_=x",
	"MYSQL_PWD=p", "mysql_pwd=p", "_PWD=p", "PWD_DIR=d", "GITHUB_PAT=t", "API_JWT=j", "JWT_ALGORITHM=HS256", "WIFI_PSK=w",
}

// TestRemoteScrubAgreesWithKeep runs RemoteScrub in real shells with every
// awk present and compares what survives with Keep's decisions.
func TestRemoteScrubAgreesWithKeep(t *testing.T) {
	policies := []EnvPolicy{
		{},
		{Pass: []string{"GITHUB_TOKEN", "ci_*", "OPENAI_*"}, Exclude: []string{"*_SESSION_ID", "CI_SECRET?", "LANG"}, Always: []string{"work_llm_key"}},
	}
	var awks []string
	for _, a := range []string{"mawk", "gawk", "busybox", "original-awk"} {
		if p, err := exec.LookPath(a); err == nil {
			awks = append(awks, p)
		}
	}
	if len(awks) == 0 {
		testenv.Missing(t, "no awk (mawk, gawk, busybox)")
	}
	shells := []string{"/bin/sh"}
	if p, err := exec.LookPath("bash"); err == nil {
		shells = append(shells, p)
	}
	for _, pol := range policies {
		var want []string
		for _, kv := range envCorpus {
			k, v, _ := strings.Cut(kv, "=")
			if pol.Keep(k, v) {
				want = append(want, k)
			}
		}
		slices.Sort(want)
		for _, awk := range awks {
			dir := t.TempDir()
			// busybox runs awk when called by that name.
			if err := os.Symlink(awk, dir+"/awk"); err != nil {
				t.Fatal(err)
			}
			for _, sh := range shells {
				env := append([]string{}, envCorpus...)
				env[0] = "PATH=" + dir + ":/usr/bin:/bin"
				// The awk found first is the one under test; the survivors
				// are listed with NUL separators so multi-line values cannot
				// forge names.
				cmd := exec.Command(sh, "-c", pol.RemoteScrub()+"env -0")
				cmd.Env = env
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s with %s: %v\n%s", sh, awk, err, out)
				}
				var got []string
				for _, kv := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
					k, _, _ := strings.Cut(kv, "=")
					got = append(got, k)
				}
				slices.Sort(got)
				// Shells manage PWD, OLDPWD, SHLVL and _ themselves.
				w := slices.DeleteFunc(slices.Clone(want), func(k string) bool { return k == "PWD" || k == "OLDPWD" || k == "_" })
				g := slices.DeleteFunc(got, func(k string) bool { return k == "PWD" || k == "OLDPWD" || k == "_" || k == "SHLVL" })
				if !slices.Equal(w, g) {
					t.Errorf("%s with %s, policy %+v:\n kept %v\n want %v", sh, awk, pol, g, w)
				}
			}
		}
	}
}

func TestRemoteScrubRefusesWithoutAwk(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", (EnvPolicy{}).RemoteScrub()+"echo ran")
	cmd.Env = []string{"PATH=" + t.TempDir(), "GITHUB_TOKEN=x"}
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(out), "ran") || !strings.Contains(string(out), "awk is missing") {
		t.Fatalf("no awk: err %v, out %q", err, out)
	}
}
