package hosttest

import (
	"os"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/host"
)

func TestLocal(t *testing.T) {
	Run(t, func(t *testing.T, dir string) host.Host { return &host.Local{} })
}

func TestLocalSh(t *testing.T) {
	Run(t, func(t *testing.T, dir string) host.Host { return &host.Local{Shell: "/bin/sh"} })
}

func TestLocalEnvScrubbed(t *testing.T) {
	for _, shell := range []string{"", "/bin/sh"} {
		l := &host.Local{Shell: shell, Env: append(os.Environ(), Canaries...), EnvPolicy: CanaryPolicy}
		EnvScrubbed(t, l, workdir(t), true)
		l.Close()
	}
	// With no environment given, nb's own is scrubbed the same way.
	t.Setenv("NBT_OWN_SECRET_TOKEN", "canary-own")
	l := &host.Local{}
	defer l.Close()
	r := sh(t, l, workdir(t), "env")
	if strings.Contains(r.Stdout, "canary-own") || !strings.Contains(r.Stdout, "PATH=") {
		t.Errorf("default policy: %s", r.Stdout)
	}
}
