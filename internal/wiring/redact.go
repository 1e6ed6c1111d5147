package wiring

import (
	"path/filepath"
	"strings"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/secrets"
	"github.com/nb-cli/nb/internal/store"
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
			files := make([]redact.File, 0, len(paths))
			for _, p := range paths {
				if own(p, home, o.Getenv) {
					continue
				}
				files = append(files, redact.File{Path: p, Label: secrets.Shown(p, home)})
			}
			return files
		},
	})
}

// own reports a file of nb's own configuration or state directory (the
// one of this run, or the default one below home): they are secret to
// commands (the audit log, conversations, grants), but what they hold is
// nb's record of outputs, not credentials to look for.
func own(p, home string, getenv func(string) string) bool {
	state, _ := store.StateDir(getenv)
	dirs := []string{state, filepath.Dir(config.DefaultPath(getenv))}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".local", "state", "nb"), filepath.Join(home, ".config", "nb"))
	}
	for _, dir := range dirs {
		if dir != "" && dir != "." && (p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))) {
			return true
		}
	}
	return false
}
