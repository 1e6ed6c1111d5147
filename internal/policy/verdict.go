package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
)

// Step 5 of the pipeline: the Decision and its explanation, in the
// language of the command's shell — the display line (seed 000: read,
// write, append, copy, move, delete or mkdir for a single simple command,
// else "run: COMMAND" or "run (N lines):" with every line; WarnAt marks
// where the warning sign goes), the reasons, the rule "Always" saves and,
// headless, the remedy.
//
// "Always" (Decision.Rule) is the narrowest rule per leaf that needs one:
// command + subcommand + * for tools with subcommands (git status *,
// docker ps *, npm run build *, sc stop *; later matches are re-checked
// for options that write or run programs); the exact command when
// options precede the subcommand, when the subcommand runs programs or
// writes through its options (docker run, git rebase, git config…), and
// for every tool without a known subcommand structure (make test, cp a
// b, tar -tf x.tar). It is not offered for shells, interpreters,
// wrappers, sudo, what talks to the network or runs code, dynamic
// commands, a tool with subcommands used without one, writes, secrets
// and warned commands. Several leaves give several rules, one per line.
// Words are quoted as the shell reads them (single quotes for bash and
// PowerShell, double quotes for cmd.exe).
//
// A headless Remedy lists --approve rules only when step 4, given them,
// allows the command and every rule is printable text; otherwise it says
// the command must be approved interactively.

// verdict is step 5.
func (e *Engine) verdict(s *script, as *assessment, r *ruling) *Decision {
	d := &Decision{
		Safety:   as.safety,
		Display:  as.display,
		WarnAt:   as.warnAt,
		Category: as.category,
		Warn:     as.warn,
		Reasons:  as.reasons,
		Full:     s.Source,
		Subject:  s.Source,
		DirAfter: s.DirAfter,
		// typed for the preview (SPEC §16): the policy's judgement of
		// what the command may do, whatever the verdict
		OnlyWrites: s.Dialect == shellparse.Bash && onlyWrites(s.Analysis, as),
	}
	if d.OnlyWrites {
		d.Paths = namedPaths(s.Analysis, as)
	}
	if d.Reasons == nil {
		d.Reasons = []string{}
	}
	for _, m := range r.maybe {
		d.reason(fmt.Sprintf("might match deny rule %q", m))
	}
	if r.verdict != Allow {
		for _, n := range linkNotes(s.cc.Facts) {
			d.reason(n)
		}
	}
	d.DefaultAnswer = Yes
	if d.Warn {
		d.DefaultAnswer = No
	}
	d.Rule, d.OfferAlways = e.alwaysRule(s, as)
	switch r.verdict {
	case Deny:
		d.Decision, d.DecidedBy, d.OfferAlways = Deny, r.by, false
		d.Reasons = append(d.Reasons, r.denial)
		return d
	case Allow:
		d.Decision, d.DecidedBy = Allow, r.by
		return d
	}
	return e.ask(d, func() string { return e.remedy(s, as, r) })
}

// reason adds r to the decision's reasons once.
func (d *Decision) reason(r string) {
	if !contains(d.Reasons, r) {
		d.Reasons = append(d.Reasons, r)
	}
}

// ask makes d a question for the user; headless, a refusal with the
// remedy (remedyInteractive when there is no way to compute one).
func (e *Engine) ask(d *Decision, remedy func() string) *Decision {
	d.Decision = Ask
	d.DecidedBy = ByUser
	if e.Headless() { // no terminal: refused
		d.Decision = Deny
		d.DecidedBy = ByHeadless
		d.Remedy = remedyInteractive
		if remedy != nil {
			d.Remedy = remedy()
		}
	}
	return d
}

// Remedies that are not rules: the command cannot be pre-approved at all,
// or not by rules nb can write down.
const (
	remedyInteractive = "run nb interactively to approve this command; it cannot be pre-approved"
	remedyYourself    = "run it yourself, or run nb in a terminal to approve it"
)

// remedy tells the human how to let the command run next time: --approve
// rules, offered only when step 4 confirms that with those rules the
// command is allowed, each printable text in the shell's quoting.
func (e *Engine) remedy(s *script, as *assessment, r *ruling) string {
	if s.Err != nil || len(s.Unknown) > 0 || as.writes || as.network || as.redirSensitive || as.secretEnv != "" || len(s.Recursive) > 0 {
		return remedyInteractive
	}
	var rules []string
	for _, l := range as.needRule {
		info := as.info.of(l)
		if info.noRule != "" {
			return remedyInteractive
		}
		rule := ""
		if info.danger == "" && info.sensitive == "" && !info.exactOnly && !as.warnPattern {
			rule = leafRule(l, info)
		}
		if rule == "" {
			rule = exactRuleIn(l)
		}
		if rule == "" || sanitize(rule, false) != rule {
			return remedyInteractive
		}
		if !contains(rules, rule) {
			rules = append(rules, rule)
		}
	}
	if len(rules) == 0 {
		return remedyYourself
	}
	pats := make([]*Pattern, 0, len(rules))
	for _, rule := range rules {
		p, err := ParsePattern(rule)
		if err != nil {
			return remedyInteractive
		}
		pats = append(pats, p)
	}
	if v, _ := e.approval(s, as, r, e.withExtra(pats, s)); v != Allow {
		return remedyInteractive
	}
	line, ok := approveRemedy(rules, s.Dialect)
	if !ok {
		return remedyInteractive
	}
	return line
}

// approveRemedy is the remedy line that passes rules as --approve flags,
// quoted for the shell the user runs nb from (the command's own).
func approveRemedy(rules []string, d shellparse.Dialect) (string, bool) {
	var b strings.Builder
	b.WriteString("re-run with")
	for _, r := range rules {
		q, ok := quoteArg(r, d)
		if !ok {
			return "", false
		}
		b.WriteString(" --approve ")
		b.WriteString(q)
	}
	return b.String(), true
}

// quoteArg quotes s as one argument for the shell d: single quotes for
// bash (and '\” for a quote) and PowerShell (a quote doubled), double
// quotes for cmd.exe, which cannot hold a double quote in one.
func quoteArg(s string, d shellparse.Dialect) (string, bool) {
	switch d {
	case shellparse.Cmd:
		if strings.ContainsAny(s, `"%^`) {
			return "", false
		}
		return `"` + s + `"`, true
	case shellparse.PowerShell:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'", true
	}
	return shellQuote(s), true
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// alwaysRule is the narrowest rule set "Always" saves, one rule per line.
func (e *Engine) alwaysRule(s *script, as *assessment) (string, bool) {
	if s.Err != nil || len(s.Unknown) > 0 || as.writes || as.network || as.warn || as.secretEnv != "" || len(as.needRule) == 0 {
		return "", false
	}
	var rules []string
	for _, l := range as.needRule {
		info := as.info.of(l)
		if info.sensitive != "" {
			return "", false
		}
		r := leafRule(l, info)
		if r == "" {
			return "", false
		}
		if !contains(rules, r) {
			rules = append(rules, r)
		}
	}
	return strings.Join(rules, "\n"), true
}

// leafRule is the narrowest rule "Always" may save for the leaf, in its
// shell's quoting, or "" when none may be offered.
func leafRule(l *shellparse.Leaf, info *leafInfo) string {
	switch {
	case info.noAlways:
		return ""
	case info.win == nil || info.win.portable:
		return narrowRule(l)
	}
	j := info.win.j
	if dynamicWords(l) || len(l.Words) == 0 {
		return ""
	}
	if j.Spec != nil && len(j.Spec.Subs) > 0 && len(l.Words) >= 2 {
		return quoteIn(l.Words[0].Text, l.Dialect) + " " + quoteIn(l.Words[1].Text, l.Dialect) + " *"
	}
	return exactRuleIn(l)
}

// exactRuleIn is the rule that matches exactly the leaf's words, in its
// shell's quoting, or "" when a word is not static.
func exactRuleIn(l *shellparse.Leaf) string {
	if l.Dialect == shellparse.Bash {
		return exactRule(l)
	}
	if dynamicWords(l) || len(l.Words) == 0 {
		return ""
	}
	parts := make([]string, 0, len(l.Words))
	for _, w := range l.Words {
		q := quoteIn(w.Text, l.Dialect)
		if q == "" {
			return ""
		}
		parts = append(parts, q)
	}
	return strings.Join(parts, " ")
}

func dynamicWords(l *shellparse.Leaf) bool {
	for _, w := range l.Words {
		if w.Dynamic {
			return true
		}
	}
	return false
}

// category is the display class of a single simple command.
func category(s *script, as *assessment) (Category, string) {
	l := s.SingleCall
	switch {
	case l == nil:
		return "", ""
	case l.Dialect == shellparse.Bash:
		return bashCategory(l)
	}
	if info := as.info.of(l); info != nil && info.win != nil && !info.win.portable {
		return winCategory(l, info.win)
	}
	return "", ""
}

// winCategory is the display class of a single cmd.exe or PowerShell
// command.
func winCategory(l *shellparse.Leaf, w *winInfo) (Category, string) {
	for _, r := range l.Redirs {
		if r.Write && !harmlessTarget(r.Target.Text) {
			if len(l.Redirs) == 1 && w.j.Spec != nil && w.j.Spec.Echoes {
				if r.Append {
					return CatAppend, r.Target.Raw
				}
				return CatWrite, r.Target.Raw
			}
			return "", ""
		}
		if r.Read {
			return "", ""
		}
	}
	// operands as written ($env:USERPROFILE\x, not the expanded path)
	ops := make([]string, 0, len(w.j.Operands))
	for _, o := range w.j.Operands {
		shown := o
		for _, a := range l.Args() {
			if a.Text == o {
				shown = a.Raw
				break
			}
		}
		ops = append(ops, shown)
	}
	switch cat := Category(w.j.Cat); cat {
	case CatRead:
		if len(ops) == 1 && len(w.j.Values) == 0 {
			return cat, ops[0]
		}
	case CatCopy, CatMove:
		if len(ops) == 2 {
			return cat, ops[0] + " → " + ops[1]
		}
	case CatDelete, CatMkdir:
		if len(ops) > 0 {
			return cat, strings.Join(ops, " ")
		}
	case CatWrite, CatAppend:
		if len(ops) >= 1 {
			return cat, ops[0]
		}
	}
	return "", ""
}

// bashCategory classifies a single simple command per seed 000's table.
func bashCategory(l *shellparse.Leaf) (Category, string) {
	if len(l.Unknown) > 0 || l.Name() == "" || len(l.Inner) > 0 {
		return "", ""
	}
	for _, w := range l.Words {
		if len(w.Subs) > 0 {
			return "", ""
		}
	}
	args := l.Args()
	var writes []*shellparse.Redir
	reads := 0
	for _, r := range l.Redirs {
		switch {
		case r.Write && !harmlessDevices[r.Target.Text]:
			writes = append(writes, r)
		case r.Read:
			reads++
		}
	}
	raws := func(ws []word) string {
		var s []string
		for _, w := range ws {
			s = append(s, shownWord(w))
		}
		return strings.Join(s, " ")
	}
	prog := cmdbase.Unix(l.Base())
	if len(writes) == 1 && len(writes[0].Target.Subs) == 0 {
		// echo x > f, cat > f: a write of that file
		if prog.Has(cmdbase.Echoes) && (prog.Shows() == nil || len(cmdbase.Positionals(args, "")) == 0) {
			if writes[0].Append {
				return CatAppend, shownWord(writes[0].Target)
			}
			return CatWrite, shownWord(writes[0].Target)
		}
		return "", ""
	}
	sh := prog.Shows()
	if len(writes) > 0 || reads > 0 || sh == nil || !plainOptions(args, sh.PlainOpts) {
		return "", ""
	}
	cat, pos := Category(sh.Cat), cmdbase.Positionals(args, sh.Values, sh.Longs...)
	switch {
	case sh.Operands == 1 && len(pos) == 1:
		return cat, shownWord(pos[0])
	case sh.Operands == 2 && len(pos) == 2:
		// copy and move are shown as "A → B"
		return cat, shownWord(pos[0]) + " → " + shownWord(pos[1])
	case sh.Operands == 0 && len(pos) > 0:
		return cat, raws(pos)
	}
	return "", ""
}

// plainOptions reports arguments whose options are all among plain
// (nil: any option).
func plainOptions(args []word, plain []string) bool {
	if plain == nil {
		return true
	}
	for _, w := range args {
		if strings.HasPrefix(w.Text, "-") && !slices.Contains(plain, w.Text) {
			return false
		}
	}
	return true
}

// displayRun is "run: COMMAND", or "run (N lines):" and every line.
func displayRun(src string) string {
	text := strings.TrimRight(src, "\n")
	head := "run"
	lines := strings.Split(text, "\n")
	if len(lines) <= 1 {
		return head + ": " + sanitize(strings.TrimSpace(text), false)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d lines):", head, len(lines))
	for _, ln := range lines {
		b.WriteString("\n  ")
		b.WriteString(sanitize(ln, false))
	}
	return b.String()
}
