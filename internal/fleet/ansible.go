package fleet

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ansibleInventory is an Ansible inventory: hosts with their variables,
// groups with their hosts, children and variables.
type ansibleInventory struct {
	hosts  map[string]map[string]string // host → its own vars
	order  []string
	groups map[string]*ansibleGroup
	// memberOf caches groupsOf once the inventory is read.
	memberOf map[string][]string
}

type ansibleGroup struct {
	hosts    []string
	children []string
	vars     map[string]string
}

func newAnsible() *ansibleInventory {
	return &ansibleInventory{hosts: map[string]map[string]string{}, groups: map[string]*ansibleGroup{}}
}

func (a *ansibleInventory) group(name string) *ansibleGroup {
	g := a.groups[name]
	if g == nil {
		g = &ansibleGroup{vars: map[string]string{}}
		a.groups[name] = g
	}
	return g
}

func (a *ansibleInventory) addHost(group, name string, vars map[string]string) {
	hv, ok := a.hosts[name]
	if !ok {
		hv = map[string]string{}
		a.hosts[name] = hv
		a.order = append(a.order, name)
	}
	for k, v := range vars {
		hv[k] = v
	}
	if group != "" {
		g := a.group(group)
		for _, h := range g.hosts {
			if h == name {
				return
			}
		}
		g.hosts = append(g.hosts, name)
	}
}

// LoadAnsible reads an Ansible inventory file, YAML (by its .yml/.yaml
// name or its content) or INI.
func loadAnsible(path string) (*ansibleInventory, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lower := strings.ToLower(path)
	if strings.HasSuffix(lower, ".yml") || strings.HasSuffix(lower, ".yaml") || looksYAML(b) {
		a, err := parseAnsibleYAML(b)
		if err != nil {
			return nil, fmt.Errorf("ansible inventory %s: %w", path, err)
		}
		return a, nil
	}
	a, err := parseAnsibleINI(b)
	if err != nil {
		return nil, fmt.Errorf("ansible inventory %s: %w", path, err)
	}
	return a, nil
}

// looksYAML: the first meaningful line is a YAML mapping key ("all:").
func looksYAML(b []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		return l == "---" || strings.HasSuffix(l, ":") && !strings.HasPrefix(l, "[")
	}
	return false
}

// parseAnsibleINI reads the INI form: [group], [group:children],
// [group:vars], host lines with key=value variables, and host ranges
// (web-[01:10], db-[a:c]).
func parseAnsibleINI(b []byte) (*ansibleInventory, error) {
	a := newAnsible()
	section, kind := "ungrouped", ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated section %q", n, line)
			}
			section, kind, _ = strings.Cut(line[1:end], ":")
			switch kind {
			case "", "children", "vars":
			default:
				return nil, fmt.Errorf("line %d: unknown section kind %q", n, kind)
			}
			a.group(section)
			continue
		}
		words, err := shellWords(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if len(words) == 0 {
			continue
		}
		switch kind {
		case "children":
			a.group(words[0])
			g := a.group(section)
			g.children = append(g.children, words[0])
		case "vars":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				return nil, fmt.Errorf("line %d: expected key=value", n)
			}
			a.group(section).vars[strings.TrimSpace(k)] = unquoteINI(strings.TrimSpace(v))
		default:
			vars := map[string]string{}
			for _, w := range words[1:] {
				if strings.HasPrefix(w, "#") {
					break
				}
				k, v, ok := strings.Cut(w, "=")
				if !ok {
					return nil, fmt.Errorf("line %d: expected key=value, got %q", n, w)
				}
				vars[k] = v
			}
			name := words[0]
			// host:port is INI shorthand for ansible_port.
			if h, p, ok := strings.Cut(name, ":"); ok && !strings.Contains(p, ":") && !strings.Contains(name, "[") {
				if _, err := strconv.Atoi(p); err == nil {
					name = h
					if _, set := vars["ansible_port"]; !set {
						vars["ansible_port"] = p
					}
				}
			}
			names, err := expandRange(name)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			for _, h := range names {
				a.addHost(section, h, vars)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return a, nil
}

func unquoteINI(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// shellWords splits a host line: white space separates, quotes group.
func shellWords(s string) ([]string, error) {
	var out []string
	var b strings.Builder
	var quote byte
	in := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0 && ch == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(ch)
		case ch == '"' || ch == '\'':
			quote, in = ch, true
		case ch == ' ' || ch == '\t':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(ch)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote")
	}
	if in {
		out = append(out, b.String())
	}
	return out, nil
}

// maxRange bounds the hosts one range pattern expands to.
const maxRange = 100000

// expandRange expands Ansible host ranges: web-[01:03] is web-01 web-02
// web-03 (leading zeros kept), [a:c] letters, [0:10:2] a step.
func expandRange(name string) ([]string, error) {
	i := strings.IndexByte(name, '[')
	if i < 0 {
		return []string{name}, nil
	}
	j := strings.IndexByte(name[i:], ']')
	if j < 0 {
		return nil, fmt.Errorf("host %q: unterminated range", name)
	}
	j += i
	parts := strings.Split(name[i+1:j], ":")
	if len(parts) < 2 || len(parts) > 3 {
		return nil, fmt.Errorf("host %q: a range is [start:end] or [start:end:step]", name)
	}
	step := 1
	if len(parts) == 3 {
		s, err := strconv.Atoi(parts[2])
		if err != nil || s < 1 {
			return nil, fmt.Errorf("host %q: bad range step", name)
		}
		step = s
	}
	var items []string
	if lo, err1 := strconv.Atoi(parts[0]); err1 == nil {
		hi, err := strconv.Atoi(parts[1])
		if err != nil || hi < lo {
			return nil, fmt.Errorf("host %q: bad range", name)
		}
		if (hi-lo)/step > maxRange {
			return nil, fmt.Errorf("host %q: range too large", name)
		}
		width := 0
		if len(parts[0]) > 1 && parts[0][0] == '0' {
			width = len(parts[0])
		}
		for n := lo; n <= hi; n += step {
			items = append(items, fmt.Sprintf("%0*d", width, n))
		}
	} else if len(parts[0]) == 1 && len(parts[1]) == 1 && parts[0][0] <= parts[1][0] {
		for c := int(parts[0][0]); c <= int(parts[1][0]); c += step {
			items = append(items, string(rune(c)))
		}
	} else {
		return nil, fmt.Errorf("host %q: bad range", name)
	}
	rest, err := expandRange(name[j+1:])
	if err != nil {
		return nil, err
	}
	if len(items)*len(rest) > maxRange {
		return nil, fmt.Errorf("host %q: range too large", name)
	}
	var out []string
	for _, it := range items {
		for _, r := range rest {
			out = append(out, name[:i]+it+r)
		}
	}
	return out, nil
}

// yamlGroup is a group of the YAML form.
type yamlGroup struct {
	Hosts    map[string]map[string]any `yaml:"hosts"`
	Vars     map[string]any            `yaml:"vars"`
	Children map[string]*yamlGroup     `yaml:"children"`
}

// parseAnsibleYAML reads the YAML form: groups (top level, usually all)
// with hosts, vars and children, nested to any depth.
func parseAnsibleYAML(b []byte) (*ansibleInventory, error) {
	var top map[string]*yamlGroup
	if err := yaml.Unmarshal(b, &top); err != nil {
		return nil, err
	}
	a := newAnsible()
	var walk func(name string, g *yamlGroup, depth int) error
	walk = func(name string, g *yamlGroup, depth int) error {
		if depth > 64 {
			return fmt.Errorf("group %s: nested too deeply", name)
		}
		grp := a.group(name)
		if g == nil {
			return nil
		}
		for k, v := range g.Vars {
			grp.vars[k] = scalar(v)
		}
		hosts := make([]string, 0, len(g.Hosts))
		for h := range g.Hosts {
			hosts = append(hosts, h)
		}
		sort.Strings(hosts)
		for _, h := range hosts {
			vars := map[string]string{}
			for k, v := range g.Hosts[h] {
				vars[k] = scalar(v)
			}
			names, err := expandRange(h)
			if err != nil {
				return err
			}
			for _, n := range names {
				a.addHost(name, n, vars)
			}
		}
		children := make([]string, 0, len(g.Children))
		for c := range g.Children {
			children = append(children, c)
		}
		sort.Strings(children)
		for _, c := range children {
			grp.children = append(grp.children, c)
			if err := walk(c, g.Children[c], depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	names := make([]string, 0, len(top))
	for n := range top {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := walk(n, top[n], 0); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func scalar(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// members is every host of group g, its children's included (cycles
// stop), each once.
func (a *ansibleInventory) members(g string) []string {
	if g == "all" {
		return a.order
	}
	if g == "ungrouped" {
		var out []string
		for _, h := range a.order {
			if len(a.groupsOf(h)) == 0 {
				out = append(out, h)
			}
		}
		return out
	}
	seen, visited := map[string]bool{}, map[string]bool{}
	var out []string
	var walk func(string)
	walk = func(name string) {
		if visited[name] {
			return
		}
		visited[name] = true
		grp := a.groups[name]
		if grp == nil {
			return
		}
		for _, h := range grp.hosts {
			if !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
		for _, c := range grp.children {
			walk(c)
		}
	}
	walk(g)
	return out
}

// groupsOf lists the groups holding h directly or through children
// (not all, not ungrouped), parents before children.
func (a *ansibleInventory) groupsOf(h string) []string {
	if a.memberOf == nil {
		a.memberOf = map[string][]string{}
		for name := range a.groups {
			if name == "all" || name == "ungrouped" {
				continue
			}
			for _, m := range a.members(name) {
				a.memberOf[m] = append(a.memberOf[m], name)
			}
		}
		depth := map[string]int{}
		for name := range a.groups {
			depth[name] = a.depth(name)
		}
		for _, gs := range a.memberOf {
			sort.Slice(gs, func(i, j int) bool {
				if depth[gs[i]] != depth[gs[j]] {
					return depth[gs[i]] < depth[gs[j]]
				}
				return gs[i] < gs[j]
			})
		}
	}
	return a.memberOf[h]
}

// depth is how many parents a group has above it (for variable
// precedence: a child group's vars override its parent's).
func (a *ansibleInventory) depth(g string) int {
	best := 0
	var up func(string, int, map[string]bool)
	up = func(name string, d int, seen map[string]bool) {
		if seen[name] {
			return
		}
		seen[name] = true
		if d > best {
			best = d
		}
		for p, grp := range a.groups {
			for _, c := range grp.children {
				if c == name && p != "all" {
					up(p, d+1, seen)
				}
			}
		}
	}
	up(g, 0, map[string]bool{})
	return best
}

// vars are h's effective variables: all's, then its groups' (parents
// first), then its own.
func (a *ansibleInventory) vars(h string) map[string]string {
	out := map[string]string{}
	if g := a.groups["all"]; g != nil {
		for k, v := range g.vars {
			out[k] = v
		}
	}
	for _, g := range a.groupsOf(h) {
		for k, v := range a.groups[g].vars {
			out[k] = v
		}
	}
	for k, v := range a.hosts[h] {
		out[k] = v
	}
	return out
}
