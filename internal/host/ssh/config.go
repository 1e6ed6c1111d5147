package ssh

import (
	"bufio"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// configEntry is what ~/.ssh/config says about one host.
type configEntry struct {
	HostName       string
	User           string
	Port           int
	IdentityFiles  []string
	KnownHosts     []string
	IdentitiesOnly bool
}

// parseSSHConfig reads the keys nb honours (HostName, User, Port,
// IdentityFile, UserKnownHostsFile, IdentitiesOnly) for alias from an
// OpenSSH client configuration. As in OpenSSH, the first value obtained
// for a key wins, and IdentityFile accumulates. Match blocks are skipped.
func parseSSHConfig(r io.Reader, alias, home string) configEntry {
	var e configEntry
	active := true
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val := splitKV(line)
		if key == "" {
			continue
		}
		switch key {
		case "host":
			active = hostMatches(strings.Fields(val), alias)
			continue
		case "match":
			active = false
			continue
		}
		if !active {
			continue
		}
		val = unquote(val)
		switch key {
		case "hostname":
			if e.HostName == "" {
				e.HostName = strings.ReplaceAll(val, "%h", alias)
			}
		case "user":
			if e.User == "" {
				e.User = val
			}
		case "port":
			if e.Port == 0 {
				if p, err := strconv.Atoi(val); err == nil {
					e.Port = p
				}
			}
		case "identityfile":
			e.IdentityFiles = append(e.IdentityFiles, expandTilde(val, home))
		case "userknownhostsfile":
			if e.KnownHosts == nil {
				for _, f := range strings.Fields(val) {
					e.KnownHosts = append(e.KnownHosts, expandTilde(f, home))
				}
			}
		case "identitiesonly":
			e.IdentitiesOnly = strings.EqualFold(val, "yes")
		}
	}
	return e
}

func splitKV(line string) (string, string) {
	i := strings.IndexAny(line, " \t=")
	if i < 0 {
		return strings.ToLower(line), ""
	}
	key := strings.ToLower(line[:i])
	val := strings.TrimLeft(line[i:], " \t")
	val = strings.TrimPrefix(val, "=")
	return key, strings.TrimSpace(val)
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// hostMatches applies OpenSSH Host patterns: any positive match and no
// negated match.
func hostMatches(patterns []string, alias string) bool {
	matched := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		ok, err := path.Match(p, alias)
		if err != nil || !ok {
			continue
		}
		if neg {
			return false
		}
		matched = true
	}
	return matched
}

func expandTilde(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}
