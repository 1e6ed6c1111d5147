package wiring

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/redact"
)

// TestDetectorKnowsEnvAndFiles: the composition root's detector withholds
// the values of the environment's secret variables (removed from commands,
// or passed to them by the configuration but secret by name), of the
// configured providers' key variables, and of the token lines of the
// secret files in HOME and in the launch directory; other variables are
// left alone.
func TestDetectorKnowsEnvAndFiles(t *testing.T) {
	home, launch := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(home, ".config", "gh"), 0o700)
	os.WriteFile(filepath.Join(home, ".config", "gh", "hosts.yml"), []byte("github.com:\n    oauth_token: gho_Zq81xW4mNp07LrTs2VbYc6Hd9Ek3Fj5Ua1Qo\n"), 0o600)
	os.WriteFile(filepath.Join(launch, ".env"), []byte("STRIPE_SECRET=rk9-Lw2q-Xm83-Tp4z\n"), 0o600)
	cfg := config.Default()
	cfg.Terminal.Env.Pass = []string{"DEPLOY_TOKEN"}
	cfg.Providers = map[string]config.Provider{"work": {Type: "openai", APIKeyEnv: "WORK_LLM_KEY"}}
	app, err := Build(Options{
		Config: cfg, LaunchDir: launch, Getenv: func(k string) string { return map[string]string{"HOME": home}[k] },
		Environ: []string{"HOME=" + home, "GITHUB_TOKEN=ghtok-8Hc2-Qw7e-Lp1x", "DEPLOY_TOKEN=dpl-4Ks9-Vn2b-Xc6m",
			"WORK_LLM_KEY=wk-3Jd8-Rt5y-Bn1q", "EDITOR=vim-tiny-9000x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	text := "a ghtok-8Hc2-Qw7e-Lp1x b dpl-4Ks9-Vn2b-Xc6m c wk-3Jd8-Rt5y-Bn1q d gho_Zq81xW4mNp07LrTs2VbYc6Hd9Ek3Fj5Ua1Qo e rk9-Lw2q-Xm83-Tp4z f vim-tiny-9000x"
	res := app.Redact.Redact(text, nil)
	for _, want := range []string{"$GITHUB_TOKEN", "$DEPLOY_TOKEN", "$WORK_LLM_KEY", "~/.config/gh/hosts.yml", filepath.ToSlash(filepath.Join(launch, ".env"))} {
		if !strings.Contains(res.Text, redact.Marker(want)) {
			t.Errorf("no %s marker: %s", want, res.Text)
		}
	}
	if !strings.Contains(res.Text, "vim-tiny-9000x") {
		t.Errorf("a plain variable was withheld: %s", res.Text)
	}
}
