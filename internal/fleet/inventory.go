// Package fleet runs one approved command on many hosts over SSH (SPEC
// §14): the inventory is the user's own (the hosts of the OpenSSH client
// configuration, resolved with OpenSSH's rules, and Ansible inventories in
// INI or YAML), a selection names hosts, globs and @groups, the runs go in
// parallel under a concurrency limit over one reused connection per host
// (package host/ssh: strict host keys, ProxyJump, ssh-agent), and the
// result groups hosts whose outputs are identical, each group shaped like
// run_cmd's output (package sandwich), with every host's full output saved
// to a directory to grep.
package fleet

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/nb-cli/nb/internal/spelling"
)

// Host is one machine of the inventory and how to reach it.
type Host struct {
	// Name is the inventory name: the ssh alias, or the Ansible host.
	Name string
	// Groups are the Ansible groups holding it (through children too).
	Groups []string
	// Source is where it was found ("ssh config", or an inventory path).
	Source string
	// SSH is the resolved connection: address, user, keys, known_hosts,
	// ProxyJump, StrictHostKeyChecking.
	SSH Resolved
}

// Addr is user@hostname:port.
func (h *Host) Addr() string {
	return h.SSH.User + "@" + h.SSH.HostName + ":" + strconv.Itoa(h.SSH.Port)
}

// Inventory is every host nb knows, by name, and the groups.
type Inventory struct {
	hosts  []*Host // sorted by name
	byName map[string]*Host
	groups map[string][]string // group → host names (sorted)
	ssh    *SSHConfig
	// Warnings are inventories that could not be read (the others still
	// count).
	Warnings []string
}

// Sources names what the inventory is read from.
type Sources struct {
	// SSH is the OpenSSH client configuration (files, home, local user).
	SSH SSHConfigFiles
	// Ansible are Ansible inventory files (fleet.inventory).
	Ansible []string
}

// Load reads the inventory. A missing ssh config is an empty one; an
// Ansible inventory that cannot be read is an error.
func Load(src Sources) (*Inventory, error) {
	sc, err := LoadSSHConfig(src.SSH)
	if err != nil {
		return nil, err
	}
	inv := &Inventory{byName: map[string]*Host{}, groups: map[string][]string{}, ssh: sc}
	for _, a := range sc.Aliases() {
		inv.add(&Host{Name: a, Source: "ssh config", SSH: sc.Resolve(a)})
	}
	for _, p := range src.Ansible {
		a, err := loadAnsible(p)
		if err != nil {
			return nil, fmt.Errorf("fleet inventory: %w", err)
		}
		for _, name := range a.order {
			vars := a.vars(name)
			// The names before Ansible 2.0 still appear in inventories.
			for _, k := range []string{"host", "port", "user"} {
				if vars["ansible_"+k] == "" {
					vars["ansible_"+k] = vars["ansible_ssh_"+k]
				}
			}
			target := name
			if v := vars["ansible_host"]; v != "" {
				target = v
			}
			r := sc.Resolve(target)
			if v := vars["ansible_port"]; v != "" {
				port, err := strconv.Atoi(v)
				if err != nil || port < 1 || port > 65535 {
					return nil, fmt.Errorf("fleet inventory %s: host %s: ansible_port %q is not a port", p, name, v)
				}
				r.Port = port
			}
			if v := vars["ansible_user"]; v != "" {
				r.User = v
			}
			if v := vars["ansible_ssh_private_key_file"]; v != "" {
				r.IdentityFiles = append([]string{sc.path(v)}, r.IdentityFiles...)
			}
			h := &Host{Name: name, Source: p, SSH: r, Groups: a.groupsOf(name)}
			if old := inv.byName[name]; old != nil && old.Source == "ssh config" {
				// The Ansible entry wins; the alias still resolves
				// through ~/.ssh/config when ansible_host is unset.
				inv.remove(name)
			}
			inv.add(h)
		}
	}
	sort.Slice(inv.hosts, func(i, j int) bool { return inv.hosts[i].Name < inv.hosts[j].Name })
	for _, h := range inv.hosts {
		for _, g := range h.Groups {
			inv.groups[g] = append(inv.groups[g], h.Name)
		}
	}
	return inv, nil
}

func (inv *Inventory) add(h *Host) {
	if old := inv.byName[h.Name]; old != nil {
		// A host in several inventories: the groups add up.
		for _, g := range h.Groups {
			if !contains(old.Groups, g) {
				old.Groups = append(old.Groups, g)
			}
		}
		return
	}
	inv.byName[h.Name] = h
	inv.hosts = append(inv.hosts, h)
}

func (inv *Inventory) remove(name string) {
	delete(inv.byName, name)
	for i, h := range inv.hosts {
		if h.Name == name {
			inv.hosts = append(inv.hosts[:i], inv.hosts[i+1:]...)
			return
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Hosts lists every host, sorted by name.
func (inv *Inventory) Hosts() []*Host { return inv.hosts }

// Len is the number of hosts.
func (inv *Inventory) Len() int { return len(inv.hosts) }

// Host returns the named host.
func (inv *Inventory) Host(name string) (*Host, bool) {
	h, ok := inv.byName[name]
	return h, ok
}

// GroupSize is a group name and its size.
type GroupSize struct {
	Name  string
	Hosts int
}

// Groups lists the groups with their sizes, "all" first.
func (inv *Inventory) Groups() []GroupSize {
	out := []GroupSize{{Name: "all", Hosts: len(inv.hosts)}}
	names := make([]string, 0, len(inv.groups))
	for g := range inv.groups {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		out = append(out, GroupSize{Name: g, Hosts: len(inv.groups[g])})
	}
	return out
}

// ErrNoHosts is returned for a selection that names no host.
var ErrNoHosts = errors.New("the selection matches no host")

// Select resolves a selection: comma-separated host names, globs over
// host names (web-0*, db-?, web-[12]*) and @group (@all for every host);
// an item starting with ! takes its hosts out again (@web,!web-03). The
// hosts come back in inventory order, once each. A name, group or glob
// that matches nothing is an error naming it (with a suggestion), and so
// is a selection left with no host.
func (inv *Inventory) Select(sel string) ([]*Host, error) {
	picked, dropped := map[string]bool{}, map[string]bool{}
	any := false
	for _, item := range strings.Split(sel, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		into := picked
		if rest, ok := strings.CutPrefix(item, "!"); ok {
			into, item = dropped, strings.TrimSpace(rest)
		} else {
			any = true
		}
		names, err := inv.match(item)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			into[n] = true
		}
	}
	if !any {
		return nil, fmt.Errorf("%w: empty selection", ErrNoHosts)
	}
	var out []*Host
	for _, h := range inv.hosts {
		if picked[h.Name] && !dropped[h.Name] {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %q leaves none", ErrNoHosts, sel)
	}
	return out, nil
}

// match is the hosts one selection item names.
func (inv *Inventory) match(item string) ([]string, error) {
	switch {
	case item == "@all":
		return inv.names(), nil
	case strings.HasPrefix(item, "@"):
		g := item[1:]
		members, ok := inv.groups[g]
		if !ok {
			return nil, fmt.Errorf("no group %q in the inventory%s", g, suggest(g, inv.groupNames(), "@"))
		}
		return members, nil
	case strings.ContainsAny(item, "*?["):
		if _, err := path.Match(item, ""); err != nil {
			return nil, fmt.Errorf("bad host pattern %q: %w", item, err)
		}
		var out []string
		for _, h := range inv.hosts {
			if ok, _ := path.Match(item, h.Name); ok {
				out = append(out, h.Name)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: %q", ErrNoHosts, item)
		}
		return out, nil
	case item == "":
		return nil, fmt.Errorf("%w: an empty item", ErrNoHosts)
	}
	if _, ok := inv.byName[item]; !ok {
		return nil, fmt.Errorf("no host %q in the inventory%s", item, suggest(item, inv.names(), ""))
	}
	return []string{item}, nil
}

func (inv *Inventory) names() []string {
	out := make([]string, len(inv.hosts))
	for i, h := range inv.hosts {
		out[i] = h.Name
	}
	return out
}

func (inv *Inventory) groupNames() []string {
	out := []string{"all"}
	for g := range inv.groups {
		out = append(out, g)
	}
	return out
}

func suggest(s string, candidates []string, prefix string) string {
	if m := spelling.Suggest(s, candidates); m != "" {
		return " (did you mean " + prefix + m + "?)"
	}
	return ""
}

// PromptSection is what the model learns about the fleet: how many
// hosts, the groups and their sizes, never the host names of a large
// inventory (a few are named when there are at most maxNamed).
func (inv *Inventory) PromptSection() string {
	if inv == nil || len(inv.hosts) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Fleet\n%d hosts in the inventory; run one command on several with run_cmd's `hosts` (a host, a glob such as web-0*, @group, or a comma-separated list).\n", len(inv.hosts))
	gs := inv.Groups()
	if len(gs) > 1 {
		b.WriteString("Groups:")
		for i, g := range gs[1:] {
			if i == maxGroups {
				fmt.Fprintf(&b, " … and %d more", len(gs)-1-maxGroups)
				break
			}
			fmt.Fprintf(&b, " @%s (%d)", g.Name, g.Hosts)
		}
		b.WriteString("\n")
	}
	if len(inv.hosts) <= maxNamed {
		b.WriteString("Hosts: " + strings.Join(inv.names(), ", ") + "\n")
	}
	return b.String()
}

const (
	maxNamed  = 12
	maxGroups = 40
)

// Listing is the inventory for the user (/hosts): the groups with their
// sizes, then one line per host (name, user@hostname:port, ProxyJump,
// groups, source), at most max hosts (0: all). The hosts a selection
// picked are headed by their count and the selection.
func (inv *Inventory) Listing(hosts []*Host, max int, selection string) string {
	var b strings.Builder
	if selection != "" {
		// A selection's header counts what it picked.
		fmt.Fprintf(&b, "%d of %d hosts: %s\n", len(hosts), len(inv.hosts), selection)
		return b.String() + inv.rows(hosts, max)
	}
	fmt.Fprintf(&b, "%d hosts", len(inv.hosts))
	if gs := inv.Groups(); len(gs) > 1 {
		b.WriteString(" · groups:")
		for _, g := range gs[1:] {
			fmt.Fprintf(&b, " @%s (%d)", g.Name, g.Hosts)
		}
	}
	b.WriteString("\n")
	return b.String() + inv.rows(hosts, max)
}

// rows lists hosts, one a line, the first max of them (0: all).
func (inv *Inventory) rows(hosts []*Host, max int) string {
	var b strings.Builder
	nameW, addrW := 4, 7
	for _, h := range hosts {
		nameW, addrW = maxInt(nameW, len(h.Name)), maxInt(addrW, len(h.Addr()))
	}
	for i, h := range hosts {
		if max > 0 && i == max {
			fmt.Fprintf(&b, "… and %d more (/hosts SELECTION filters: web-0*, @group)\n", len(hosts)-max)
			break
		}
		extra := []string{}
		if h.SSH.ProxyJump != "" {
			extra = append(extra, "via "+h.SSH.ProxyJump)
		}
		if len(h.Groups) > 0 {
			extra = append(extra, "@"+strings.Join(h.Groups, " @"))
		}
		extra = append(extra, h.Source)
		fmt.Fprintf(&b, "  %-*s  %-*s  %s\n", nameW, h.Name, addrW, h.Addr(), strings.Join(extra, " · "))
	}
	return strings.TrimRight(b.String(), "\n")
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}
