package policy

import (
	"fmt"

	"github.com/nb-cli/nb/internal/shellparse"
)

// Step 4 of the pipeline: the rules, in the order of SPEC §6.1.
//
//  1. A deny rule (approval.deny, or a project's .nb/config.json) matching
//     any leaf denies. Deny rules match the command wherever it lives
//     (/tmp/x/rm matches "rm *"), under any name its shell knows it by
//     (rd and rmdir, Remove-Item and rm, any case on Windows), and find
//     their words and options anywhere among the arguments (deny "git
//     push *" denies git -C . push; "rm -rf *" denies rm -f -R x).
//  2. A leaf whose dynamic words might make a deny rule match is never
//     allowed: it is asked.
//  3. Pre-approval: every leaf is matched by a rule (--approve,
//     approval.allow, "always" grants of the project, "this session"
//     grants), is on the safe list (when autoApproveSafe), or is a
//     harmless wrapper whose leaves are covered themselves ("timeout *"
//     never approves timeout 5 rm). Nothing may be unknown, no file may be
//     written by redirection, no secret read by one or expanded. A leaf
//     that is dangerous, touches a secret, writes through its options,
//     reads a file chosen at run time or matches a warn pattern is
//     approved only by an exact rule (no trailing *); one that no rule may
//     approve (leafInfo.noRule) by none.
//  4. Safe (every leaf provably read-only) → allow when autoApproveSafe.
//  5. In a sandbox with autoApproveInSandbox, anything not dangerous →
//     allow.
//  6. Otherwise ask (step 5 makes it a refusal when headless).

// ruling is what step 4 decides.
type ruling struct {
	verdict Verdict
	by      Decider
	// denial is the reason of a deny rule's verdict.
	denial string
	// maybe are the deny rules a dynamic word might match.
	maybe []string
}

// ruling is step 4.
func (e *Engine) ruling(s *script, as *assessment) *ruling {
	r := &ruling{verdict: Ask}
	if s.Err != nil {
		return r
	}
	rules := e.compile(s.cc.Home, s.Dialect)
	for _, l := range s.Leaves {
		for _, p := range rules.deny {
			if denies(p, l, as.info.of(l)) {
				r.verdict, r.by = Deny, ByDenyRule
				r.denial = fmt.Sprintf("denied by rule %q (matches %q)", p.Src, l.RawText())
				return r
			}
		}
	}
	for _, l := range s.Leaves {
		for _, p := range rules.deny {
			if mightDeny(p, l, as.info.of(l)) && !contains(r.maybe, p.Src) {
				r.maybe = append(r.maybe, p.Src)
			}
		}
	}
	r.verdict, r.by = e.approval(s, as, r, rules.allow)
	return r
}

// approval is steps 4.3 to 4.6 with the allow rules given: the remedy
// search calls it again with the rules it proposes.
func (e *Engine) approval(s *script, as *assessment, r *ruling, allow []ruleEntry) (Verdict, Decider) {
	if s.Err != nil {
		return Ask, ""
	}
	if src, ok := e.preApproved(s, as, r, allow); ok {
		return Allow, src
	}
	// A command matching the user's warnPatterns is at least asked: the
	// safe list and the sandbox never wave a configured warning through.
	if e.opts.Approval.AutoApproveSafe && as.safety == Safe && len(r.maybe) == 0 && !as.warnPattern {
		return Allow, BySafeList
	}
	if s.cc.Isolation == IsolationSandbox && e.opts.Approval.AutoApproveInSandbox && as.safety != Dangerous && len(r.maybe) == 0 && !as.warnPattern {
		return Allow, BySandbox
	}
	return Ask, ""
}

// preApproved reports whether every leaf is covered by a rule (or is
// safe, or a harmless wrapper), and returns the source of the rules.
func (e *Engine) preApproved(s *script, as *assessment, r *ruling, allow []ruleEntry) (Decider, bool) {
	if len(s.Unknown) > 0 || as.writes || as.network || as.redirSensitive || as.secretEnv != "" || len(r.maybe) > 0 || len(s.Recursive) > 0 {
		return "", false
	}
	if len(allow) == 0 {
		return "", false
	}
	covered := map[*shellparse.Leaf]bool{}
	source := Decider("")
	for _, l := range s.Leaves {
		if covered[l] {
			continue
		}
		info := as.info.of(l)
		if len(l.Unknown) > 0 || info.noRule != "" {
			return "", false
		}
		hit := ruleFor(l, info, allow, as.warnPattern)
		switch {
		case hit != nil:
			if rank[hit.source] > rank[source] {
				source = hit.source
			}
			if hit.p.Exact() {
				cover(l, covered)
			}
		case info.danger != "":
			return "", false
		case info.harmlessWrapper, e.opts.Approval.AutoApproveSafe && info.safe && !as.warnPattern:
		default:
			return "", false
		}
	}
	return source, source != ""
}

// rank orders the sources of rules: a run's --approve over the
// configuration over grants.
var rank = map[Decider]int{ByFlag: 3, ByRule: 2, ByGrant: 1}

// cover marks the leaves an exact rule on a wrapper or shell covers too
// (sudo apt update, bash -c 'make').
func cover(l *shellparse.Leaf, covered map[*shellparse.Leaf]bool) {
	for _, in := range l.Inner {
		covered[in] = true
		cover(in, covered)
	}
}

// ruleFor is the first allow rule that approves the leaf: one that
// matches it in its shell's language, exact where the leaf is dangerous,
// touches a secret, writes through its options, reads what is chosen at
// run time or the command matches a warn pattern.
func ruleFor(l *shellparse.Leaf, info *leafInfo, allow []ruleEntry, warnPattern bool) *ruleEntry {
	needExact := info.danger != "" || info.sensitive != "" || info.exactOnly || warnPattern
	for i := range allow {
		r := &allow[i]
		if needExact && !r.p.Exact() {
			continue
		}
		if allows(r.p, l, info) {
			return r
		}
	}
	return nil
}
