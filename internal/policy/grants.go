package policy

import (
	"errors"
	"fmt"
	"strings"
)

// Scope says how long a grant lasts.
type Scope int

const (
	// ScopeSession lasts until nb exits.
	ScopeSession Scope = iota
	// ScopeProject is saved in nb's state directory for the launch directory.
	ScopeProject
)

// String names the scope.
func (s Scope) String() string {
	if s == ScopeProject {
		return "project"
	}
	return "session"
}

// Grant is one user approval rule.
type Grant struct {
	Rule  string `json:"rule"`
	Scope Scope  `json:"-"`
}

// GrantStore keeps the "always" grants of one project outside the
// project tree (package store keeps them in nb's state directory).
type GrantStore interface {
	// Load returns the saved rules.
	Load() ([]string, error)
	// Save replaces the saved rules.
	Save(rules []string) error
}

// Grant saves d.Rule (one rule per line) for scope. Warned decisions and
// decisions without a rule cannot be granted.
func (e *Engine) Grant(d *Decision, scope Scope) error {
	if d == nil || strings.TrimSpace(d.Rule) == "" {
		return errors.New("grant: nothing to grant")
	}
	if d.Warn {
		return errors.New("grant: warned commands are approved one at a time")
	}
	var rules []string
	compiled := map[string]*Pattern{}
	for _, r := range strings.Split(d.Rule, "\n") {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if !strings.HasPrefix(r, "input → ") {
			p, err := ParsePattern(r)
			if err != nil {
				return fmt.Errorf("grant: %w", err)
			}
			compiled[r] = p
		}
		rules = append(rules, r)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.grantRules == nil {
		e.grantRules = map[string]*Pattern{}
	}
	for r, p := range compiled {
		e.grantRules[r] = p
	}
	if scope == ScopeSession {
		for _, r := range rules {
			if !contains(e.session, r) {
				e.session = append(e.session, r)
			}
		}
		e.grantsChanged()
		return nil
	}
	next := append([]string(nil), e.project...)
	for _, r := range rules {
		if !contains(next, r) {
			next = append(next, r)
		}
	}
	if err := e.saveProject(next); err != nil {
		return err
	}
	e.project = next
	e.grantsChanged()
	return nil
}

// saveProject writes the project grants; e.mu is held.
func (e *Engine) saveProject(rules []string) error {
	if e.opts.Grants == nil {
		return nil
	}
	return e.opts.Grants.Save(rules)
}

// Grants lists session and project grants.
func (e *Engine) Grants() []Grant {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Grant
	for _, r := range e.session {
		out = append(out, Grant{Rule: r, Scope: ScopeSession})
	}
	for _, r := range e.project {
		out = append(out, Grant{Rule: r, Scope: ScopeProject})
	}
	return out
}

// Revoke removes a grant.
func (e *Engine) Revoke(g Grant) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	remove := func(list []string) ([]string, bool) {
		var out []string
		found := false
		for _, r := range list {
			if r == g.Rule {
				found = true
				continue
			}
			out = append(out, r)
		}
		return out, found
	}
	if g.Scope == ScopeSession {
		next, ok := remove(e.session)
		if !ok {
			return fmt.Errorf("revoke: no session grant %q", g.Rule)
		}
		e.session = next
		e.grantsChanged()
		return nil
	}
	next, ok := remove(e.project)
	if !ok {
		return fmt.Errorf("revoke: no project grant %q", g.Rule)
	}
	if err := e.saveProject(next); err != nil {
		return err
	}
	e.project = next
	e.grantsChanged()
	return nil
}
