package policy

import (
	"fmt"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// Step 3 of the pipeline, for the command as a whole: each leaf's facts
// (judge.go, judgewin.go), each redirection's, what the leaves do together
// (a download then run, a secret expanded anywhere, a pipeline whose last
// stage deletes what the first lists), the user's dangerousCommands and
// warnPatterns; then the command's safety, warning and display line.

// tally is what the parts of a command add up to.
type tally struct {
	dangerous, unsafe, warns, warnHit bool
}

// assess is step 3.
func (e *Engine) assess(s *script) *assessment {
	as := &assessment{}
	if n := len(s.Leaves); n <= 16 {
		as.info.list = make([]leafFact, 0, n)
	}
	if s.Err != nil {
		return e.unparsed(s, as)
	}
	var t tally
	for _, r := range s.Unknown {
		t.unsafe = true
		if s.Dialect == shellparse.Bash {
			as.reason("cannot analyse: " + r)
		} else {
			as.reason("outside the plain " + s.Dialect.String() + " subset: " + r)
		}
	}
	if len(s.Unknown) > 0 && s.Dialect != shellparse.Bash {
		if why := builtDanger(s); why != "" {
			t.dangerous = true
			as.reason("dangerous: " + why)
		}
	}
	for _, name := range s.Recursive {
		as.reason("function " + name + " calls itself (fork bomb)")
		t.dangerous = true
	}
	sec := newWinSecrets(e, s.cc)
	for _, l := range s.Leaves {
		as.info.set(l, e.leafFacts(l, s.cc, sec))
	}
	if s.Dialect != shellparse.Bash {
		e.winTogether(s, sec, as)
	}
	for _, l := range s.Leaves {
		e.addLeaf(l, as.info.of(l), as, &t)
	}
	if s.Dialect == shellparse.Bash {
		if why := secretExpansion(s.Analysis); why != "" {
			as.secretEnv, t.unsafe = why, true
			as.reason("sensitive: " + why)
		}
	}
	for _, r := range s.Redirs {
		if r.Leaf != nil && r.Leaf.Dialect != shellparse.Bash {
			e.winRedir(r, s.cc, sec, as, &t)
		} else {
			e.assessRedir(r, s.cc, as, &t)
		}
	}
	if s.Dialect == shellparse.Bash {
		if what := fetchThenRun(s.Analysis, s.cc); what != "" {
			t.dangerous = true
			as.reason("dangerous: " + what)
		}
	}
	e.assessPatterns(s, as, &t)
	e.conclude(s, as, t)
	return as
}

// unparsed judges text that does not parse: unknown, and warned when it
// holds a dangerous word (a guess can only make the answer more careful,
// never allow).
func (e *Engine) unparsed(s *script, as *assessment) *assessment {
	as.safety = Unknown
	as.reason("cannot parse the command: " + s.Err.Error())
	if w := dangerToken(s.Source); w != "" {
		as.warn = true
		as.reason("the text contains " + w)
	}
	as.display, as.warnAt = displayRun(s.Source), markAt(as.warn, len("run"))
	return as
}

// leafFacts is one leaf's facts (judge.go for bash, judgewin.go for
// cmd.exe and PowerShell).
func (e *Engine) leafFacts(l *shellparse.Leaf, cc CommandContext, sec *winSecrets) *leafInfo {
	if l.Dialect == shellparse.Bash {
		return e.leafInfo(l, cc)
	}
	return e.winLeafInfo(l, cc, sec)
}

// addLeaf adds a judged leaf to the tally and the reasons.
func (e *Engine) addLeaf(l *shellparse.Leaf, info *leafInfo, as *assessment, t *tally) {
	if info.danger != "" {
		t.dangerous = true
		as.reason("dangerous: " + info.danger)
	}
	if info.sensitive != "" {
		as.reason("sensitive: " + info.sensitive)
	}
	if info.optWrite != "" && info.danger == "" {
		as.reason("writes: " + info.optWrite)
	}
	t.warns = t.warns || info.warns
	if !info.safe {
		t.unsafe = true
		if info.why != "" && info.danger == "" && info.sensitive == "" {
			as.reason(info.why)
		}
	}
	if !info.harmlessWrapper && !(info.safe && e.opts.Approval.AutoApproveSafe) {
		as.needRule = append(as.needRule, l)
	}
}

// assessPatterns applies the user's dangerousCommands and warnPatterns,
// each leaf seen in its own shell's language (dialect.go).
func (e *Engine) assessPatterns(s *script, as *assessment, t *tally) {
	for _, f := range e.danger {
		if what, ok := f.matchScript(s, as); ok {
			t.dangerous = true
			as.reason(fmt.Sprintf("dangerous: %q matches dangerousCommands %q", what, f.src))
		}
	}
	for _, f := range e.warn {
		if what, ok := f.matchScript(s, as); ok {
			t.warnHit = true
			if !t.dangerous {
				as.reason(fmt.Sprintf("warning: %q matches warnPatterns %q", what, f.src))
			}
		}
	}
}

// conclude sets the safety, the warning (dangerous, or writing, deleting
// or moving files: seed 000) and the display line.
func (e *Engine) conclude(s *script, as *assessment, t tally) {
	switch {
	case t.dangerous:
		as.safety = Dangerous
	case t.unsafe:
		as.safety = Unknown
	default:
		as.safety = Safe
	}
	cat, subject := category(s, as)
	as.category = cat
	as.warnPattern = t.warnHit
	as.warn = t.dangerous || t.warnHit || as.writes || t.warns || cat == CatWrite || cat == CatAppend || cat == CatDelete || cat == CatMove
	if cat != "" {
		as.display, as.warnAt = string(cat)+": "+sanitize(subject, false), markAt(as.warn, len(cat))
	} else {
		as.display, as.warnAt = displayRun(s.Source), markAt(as.warn, len("run"))
	}
}

// dirFree reports a command whose outcome does not depend on the
// directory it runs in (beyond its redirections, judged on their own).
func dirFree(base string) bool { return cmdbase.Unix(base).Has(cmdbase.NoDir) }

// harmless reports a wrapper that only runs its inner command.
func harmless(base string) bool { return cmdbase.Unix(base).Has(cmdbase.Harmless) }
