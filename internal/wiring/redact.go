package wiring

import (
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/secrets"
)

// newDetector builds the detector every text bound for a model passes
// (the chat's requests, nb tool's output, nb mcp serve's results). It
// knows the values of the variables of nb's environment that hold secrets
// (those nb keeps from commands, and those the configuration passes but
// whose names or values say they are secret), and the token lines of the
// secret files of this machine and of the launch directory. It reads
// nothing until it first scans.
func newDetector(o Options, c *config.Config) *redact.Detector {
	environ := o.Environ
	policy := EnvPolicy(c)
	home := HomeDir(o.Getenv, c.TerminalIntegration.Shell)
	launch := o.LaunchDir
	return redact.New(redact.Options{
		Values: func() []redact.Value {
			kept := map[string]bool{}
			for _, kv := range host.CommandEnv(environ, policy) {
				kept[kv] = true
			}
			return redact.EnvValues(environ, func(k, v string) bool { return !kept[k+"="+v] || secrets.Env(k, v) })
		},
		Files: func() []redact.File {
			paths, _ := secrets.Inventory(home, launch)
			files := make([]redact.File, len(paths))
			for i, p := range paths {
				files[i] = redact.File{Path: p, Label: label(p, home)}
			}
			return files
		},
	})
}

// label names a secret file for the marker: ~/… below home.
func label(p, home string) string {
	if home != "" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}
