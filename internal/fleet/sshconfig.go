package fleet

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// SSHConfig is an OpenSSH client configuration read with OpenSSH's rules
// (checked against `ssh -G` by the tests): lines split as ssh splits
// them (keyword, "=" or space, quoted arguments, # comments), Include
// expanded in place (glob order, relative paths below ~/.ssh or /etc/ssh),
// and a host's settings are resolved here as ssh(1) resolves them: blocks
// in file order, the first value obtained for a key wins, IdentityFile
// accumulates, Host patterns with * and ? and negation, Match with the
// criteria all, host, originalhost, user and localuser, each negatable
// with ! (a block with any other criterion never matches).
type SSHConfig struct {
	entries []entry
	aliases []string
	seen    map[string]bool
	home    string
	user    string // local user
}

// entry is one key of the configuration under the conditions of the
// blocks enclosing it (a Host or Match line, and those of the files that
// included it).
type entry struct {
	key   string
	args  []string
	conds []cond
	file  string
}

type cond struct {
	host  []string // Host patterns
	match []string // Match criteria, when set
}

// SSHConfigFiles names the configuration files of a user: the user's own
// (~/.ssh/config) then the system's (/etc/ssh/ssh_config), as ssh reads
// them; a missing file is skipped.
type SSHConfigFiles struct {
	User, System string
	// Home and LocalUser are the local user's, for ~ and %d, %u.
	Home, LocalUser string
}

// LoadSSHConfig reads the files (either may be "" or missing).
func LoadSSHConfig(f SSHConfigFiles) (*SSHConfig, error) {
	c := &SSHConfig{home: f.Home, user: f.LocalUser, seen: map[string]bool{}}
	for _, p := range []struct {
		path   string
		system bool
	}{{f.User, false}, {f.System, true}} {
		if p.path == "" {
			continue
		}
		if err := c.readFile(p.path, p.system, nil, 0); err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, err
		}
	}
	return c, nil
}

const maxIncludeDepth = 16

func (c *SSHConfig) readFile(path string, system bool, outer []cond, depth int) error {
	if depth > maxIncludeDepth {
		return fmt.Errorf("ssh config %s: Include nested too deeply", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	conds := outer
	for n, line := range strings.Split(string(b), "\n") {
		key, args, err := splitLine(line)
		if err != nil {
			return fmt.Errorf("ssh config %s:%d: %w", path, n+1, err)
		}
		switch key {
		case "":
			continue
		case "host":
			conds = append(append([]cond{}, outer...), cond{host: args})
			for _, a := range args {
				// Hosts are the user's aliases; the system file only
				// adds settings.
				if !system && !strings.ContainsAny(a, "*?!") && !c.seen[a] {
					c.seen[a] = true
					c.aliases = append(c.aliases, a)
				}
			}
		case "match":
			conds = append(append([]cond{}, outer...), cond{match: args})
		case "include":
			if err := c.include(args, system, conds, depth); err != nil {
				return fmt.Errorf("ssh config %s:%d: %w", path, n+1, err)
			}
		default:
			if len(args) == 0 {
				return fmt.Errorf("ssh config %s:%d: %s has no value", path, n+1, key)
			}
			c.entries = append(c.entries, entry{key: key, args: args, conds: conds, file: path})
		}
	}
	return nil
}

// splitLine splits a configuration line as ssh does: the keyword
// (lower-cased), separated by white space or one "=", then arguments
// separated by white space, with "double" or 'single' quotes and
// backslash escapes, up to a # comment.
func splitLine(line string) (string, []string, error) {
	line = strings.TrimLeft(strings.TrimRight(line, " \t\r"), " \t")
	if line == "" || line[0] == '#' {
		return "", nil, nil
	}
	i := strings.IndexAny(line, " \t=")
	if i < 0 {
		return strings.ToLower(line), nil, nil
	}
	key := strings.ToLower(line[:i])
	rest := strings.TrimLeft(line[i:], " \t")
	if strings.HasPrefix(rest, "=") {
		rest = strings.TrimLeft(rest[1:], " \t")
	}
	var args []string
	for rest != "" {
		if rest[0] == '#' {
			break
		}
		var b strings.Builder
		var quote byte
		j := 0
		for ; j < len(rest); j++ {
			ch := rest[j]
			switch {
			case ch == '\\' && j+1 < len(rest) && strings.IndexByte("\\\"' \t", rest[j+1]) >= 0 && (quote == 0 || rest[j+1] == quote || rest[j+1] == '\\'):
				j++
				b.WriteByte(rest[j])
			case quote != 0 && ch == quote:
				quote = 0
			case quote == 0 && (ch == '"' || ch == '\''):
				quote = ch
			case quote == 0 && (ch == ' ' || ch == '\t'):
				goto done
			default:
				b.WriteByte(ch)
			}
		}
	done:
		if quote != 0 {
			return "", nil, fmt.Errorf("unterminated quote")
		}
		args = append(args, b.String())
		rest = strings.TrimLeft(rest[j:], " \t")
	}
	return key, args, nil
}

func (c *SSHConfig) include(dirs []string, system bool, conds []cond, depth int) error {
	for _, d := range dirs {
		var pat string
		switch {
		case strings.HasPrefix(d, "~/"):
			pat = filepath.Join(c.home, d[2:])
		case filepath.IsAbs(d):
			pat = d
		case system:
			pat = filepath.Join("/etc/ssh", d)
		default:
			pat = filepath.Join(c.home, ".ssh", d)
		}
		files, err := filepath.Glob(pat)
		if err != nil {
			return fmt.Errorf("include %s: %w", d, err)
		}
		for _, f := range files {
			if fi, err := os.Stat(f); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if err := c.readFile(f, system, conds, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// Aliases are the names of Host lines without wildcards or negation, in
// file order, once each: the hosts the configuration names.
func (c *SSHConfig) Aliases() []string { return append([]string(nil), c.aliases...) }

// Resolved is what ssh would use to connect to an alias.
type Resolved struct {
	Alias                 string
	HostName              string
	Port                  int
	User                  string
	IdentityFiles         []string
	IdentitiesOnly        bool
	ProxyJump             string // "" when none
	KnownHostsFiles       []string
	StrictHostKeyChecking string // yes, no, accept-new, ask (default)
}

// Resolve applies the configuration to alias as ssh(1) does for
// `ssh alias`.
func (c *SSHConfig) Resolve(alias string) Resolved {
	// Patterns see the name as typed; the host name is lower-cased.
	lower := strings.ToLower(alias)
	vals := map[string]string{}
	var ids []string
	multi := map[string][]string{}
	for _, e := range c.entries {
		if !c.applies(e.conds, alias, vals) {
			continue
		}
		if e.key == "identityfile" {
			ids = append(ids, e.args[0])
			continue
		}
		if _, ok := vals[e.key]; !ok {
			vals[e.key] = e.args[0]
			if e.key == "userknownhostsfile" {
				multi["userknownhostsfile"] = e.args
			}
		}
	}
	r := Resolved{Alias: alias, HostName: lower, Port: 22, User: c.user, StrictHostKeyChecking: "ask"}
	if v, ok := vals["hostname"]; ok {
		r.HostName = strings.ToLower(expandTokens(v, map[byte]string{'h': lower}))
	}
	if v, ok := vals["port"]; ok {
		if p, err := strconv.Atoi(v); err == nil && p > 0 && p < 65536 {
			r.Port = p
		}
	}
	if v, ok := vals["user"]; ok {
		r.User = v
	}
	if v := strings.ToLower(vals["stricthostkeychecking"]); v != "" {
		switch v {
		case "yes", "true":
			r.StrictHostKeyChecking = "yes"
		case "no", "off", "false":
			r.StrictHostKeyChecking = "no"
		case "accept-new":
			r.StrictHostKeyChecking = "accept-new"
		default:
			r.StrictHostKeyChecking = "ask"
		}
	}
	r.IdentitiesOnly = strings.EqualFold(vals["identitiesonly"], "yes")
	if v, ok := vals["proxyjump"]; ok && !strings.EqualFold(v, "none") {
		r.ProxyJump = v
	}
	tok := map[byte]string{
		'd': c.home, 'u': c.user, 'h': r.HostName, 'r': r.User,
		'p': strconv.Itoa(r.Port), 'n': alias,
	}
	for _, f := range ids {
		r.IdentityFiles = append(r.IdentityFiles, c.path(expandTokens(f, tok)))
	}
	if v, ok := vals["userknownhostsfile"]; ok && !strings.EqualFold(v, "none") {
		for _, f := range multi["userknownhostsfile"] {
			r.KnownHostsFiles = append(r.KnownHostsFiles, c.path(expandTokens(f, tok)))
		}
	} else if !ok {
		r.KnownHostsFiles = []string{filepath.Join(c.home, ".ssh", "known_hosts"), filepath.Join(c.home, ".ssh", "known_hosts2")}
	}
	return r
}

// applies evaluates a stack of block conditions for alias; vals holds
// what is resolved so far (Match host looks at the HostName).
func (c *SSHConfig) applies(conds []cond, alias string, vals map[string]string) bool {
	for _, cd := range conds {
		if cd.match != nil {
			if !c.matchBlock(cd.match, alias, vals) {
				return false
			}
			continue
		}
		if !hostPatterns(cd.host, alias) {
			return false
		}
	}
	return true
}

// hostPatterns is a Host line: any pattern matches and no negated one does.
func hostPatterns(pats []string, name string) bool {
	found := false
	for _, p := range pats {
		neg := strings.HasPrefix(p, "!")
		if Match(strings.TrimPrefix(p, "!"), name) {
			if neg {
				return false
			}
			found = true
		}
	}
	return found
}

// patternList is an OpenSSH comma-separated pattern list.
func patternList(list, name string) bool {
	return hostPatterns(strings.Split(list, ","), name)
}

func (c *SSHConfig) matchBlock(crit []string, alias string, vals map[string]string) bool {
	for i := 0; i < len(crit); i++ {
		k := strings.ToLower(crit[i])
		if k == "all" {
			continue
		}
		neg := strings.HasPrefix(k, "!")
		k = strings.TrimPrefix(k, "!")
		if i+1 >= len(crit) {
			return false
		}
		arg := crit[i+1]
		i++
		var ok bool
		switch k {
		case "host":
			h := strings.ToLower(alias)
			if v, set := vals["hostname"]; set {
				h = strings.ToLower(expandTokens(v, map[byte]string{'h': h}))
			}
			ok = patternList(arg, h)
		case "originalhost":
			ok = patternList(arg, alias)
		case "user":
			u := c.user
			if v, set := vals["user"]; set {
				u = v
			}
			ok = patternList(arg, u)
		case "localuser":
			ok = patternList(arg, c.user)
		default:
			return false
		}
		if ok == neg {
			return false
		}
	}
	return true
}

// Match is OpenSSH's pattern match: * any run of characters, ? exactly
// one.
func Match(pattern, s string) bool {
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			for len(pattern) > 0 && pattern[0] == '*' {
				pattern = pattern[1:]
			}
			if pattern == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if Match(pattern, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			pattern, s = pattern[1:], s[1:]
		default:
			if s == "" || s[0] != pattern[0] {
				return false
			}
			pattern, s = pattern[1:], s[1:]
		}
	}
	return s == ""
}

// expandTokens replaces %x tokens of ssh_config(5) known in tok (and %%).
func expandTokens(s string, tok map[byte]string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		if s[i] == '%' {
			b.WriteByte('%')
		} else if v, ok := tok[s[i]]; ok {
			b.WriteString(v)
		} else {
			b.WriteByte('%')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// path expands ~ and makes a relative path relative to home, as ssh does
// for files named in the configuration.
func (c *SSHConfig) path(p string) string {
	switch {
	case p == "~":
		return c.home
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(c.home, p[2:])
	case !filepath.IsAbs(p):
		return filepath.Join(c.home, p)
	}
	return p
}
