package policy

import (
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/sysinfo"
)

// Options configures an Engine.
type Options struct {
	Approval config.Approval
	// WarnPatterns is terminalIntegration.warnPatterns.
	WarnPatterns []string
	// Approve holds --approve patterns for this run.
	Approve []string
	// Grants keeps the project's "always" grants; nil keeps them in
	// memory only.
	Grants GrantStore
	// Headless is set when no terminal can be asked: ask becomes deny with
	// a remedy.
	Headless bool
}

// OptionsFromConfig fills the configuration part of Options from cfg
// (after config.LoadProject, so project deny rules are included); nil
// means the defaults.
func OptionsFromConfig(cfg *config.Config) Options {
	if cfg == nil {
		cfg = config.Default()
	}
	return Options{Approval: cfg.Approval, WarnPatterns: cfg.TerminalIntegration.WarnPatterns}
}

// CommandContext is what the engine needs to know about where a command runs.
type CommandContext struct {
	Cwd string
	// CwdUnknown says where the command runs cannot be told (input to a
	// session whose shell directory cannot be read: ssh, a container, a
	// system without /proc). Cwd is then only a guess, and nothing that
	// depends on the directory is safe, as after cd "$d".
	CwdUnknown bool
	Home       string
	// Isolation is what the host running the command isolates. Only a
	// sandbox on this machine counts for autoApproveInSandbox: a container
	// may mount the project and an ssh host is another, real machine.
	Isolation Isolation
	// Facts tells what the engine cannot read itself (secret files in a
	// tree, programs a repository configures); nil: nothing is known, and
	// what needs a fact is asked.
	Facts Facts
	// interactive is set for text typed into an interactive shell.
	interactive bool
	// Shell is the language of the shell that will run the command:
	// commands for cmd.exe and PowerShell are parsed by package winshell
	// and judged by package cmdbase (windows.go), the others as bash.
	Shell sysinfo.ShellKind
}

// Isolation is the isolation a host provides; the values are those of
// host.Isolation.
type Isolation string

const (
	IsolationNone      Isolation = "none"
	IsolationSandbox   Isolation = "sandbox"
	IsolationContainer Isolation = "container"
	IsolationRemote    Isolation = "remote"
)

// Engine makes decisions. It is safe for concurrent use.
type Engine struct {
	opts Options

	approve []*Pattern
	allow   []*Pattern
	deny    []*Pattern

	sensitive    []string
	safeNames    map[string]bool
	safePatterns []*Pattern
	removedSafe  map[string]bool
	// removedSafeWin are removedSafe's names lower-cased (cmd.exe and
	// PowerShell ignore case), each with its first spelling in the
	// configuration.
	removedSafeWin map[string]string
	danger         []*feature
	removedDanger  map[string]bool
	warn           []*feature

	mu      sync.Mutex
	session []string
	project []string
	// grantRules are the grants compiled when they were added (nil for
	// a grant that is not a rule); homes are the rules compiled for each
	// home a decision was made for, until the grants change.
	grantRules map[string]*Pattern
	homes      map[string]*homeRules
}

// homeRules are the engine's rules with ~ meaning one home directory.
type homeRules struct {
	deny  []*Pattern
	allow []ruleEntry
}

// Refusal is what the model is told about a call denied for want of a
// terminal to ask at. That refusal is a fact of the decision, not a
// reason: the engine sets DecidedBy to ByHeadless (Decision.Headless), and
// Refusal never appears among the Reasons.
const Refusal = "not run: this command needs approval and nb has no terminal to ask; do not retry it, explain to the user what you wanted to do"

// New returns an engine. It fails on a rule or pattern it cannot parse,
// on a safeCommands entry naming a network tool, shell or interpreter, and
// on an unreadable grants file.
func New(opts Options) (*Engine, error) {
	e := &Engine{opts: opts, safeNames: map[string]bool{}, removedSafe: map[string]bool{}, removedSafeWin: map[string]string{}, removedDanger: map[string]bool{}}
	parseAll := func(key string, srcs []string) ([]*Pattern, error) {
		var out []*Pattern
		for _, s := range srcs {
			p, err := ParsePattern(s)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", key, err)
			}
			out = append(out, p)
		}
		return out, nil
	}
	var err error
	if e.approve, err = parseAll("--approve", opts.Approve); err != nil {
		return nil, err
	}
	if e.allow, err = parseAll("approval.allow", opts.Approval.Allow); err != nil {
		return nil, err
	}
	if e.deny, err = parseAll("approval.deny", opts.Approval.Deny); err != nil {
		return nil, err
	}
	e.sensitive = opts.Approval.SensitivePaths
	for _, s := range opts.Approval.SafeCommands {
		s = strings.TrimSpace(s)
		if name, ok := strings.CutPrefix(s, "!"); ok {
			name = strings.TrimSpace(name)
			e.removedSafe[name] = true
			if _, ok := e.removedSafeWin[strings.ToLower(name)]; !ok {
				e.removedSafeWin[strings.ToLower(name)] = name
			}
			continue
		}
		p, err := ParsePattern(s)
		if err != nil {
			return nil, fmt.Errorf("approval.safeCommands: %w", err)
		}
		base := path.Base(p.Words[0].Text)
		if isNetworkTool(base) || isInterpreter(base) || cmdbase.Unix(base).NoAlways() || base == "env" || base == "printenv" {
			return nil, fmt.Errorf("approval.safeCommands: %q can never be safe (network tool, shell, interpreter or wrapper)", s)
		}
		if len(p.Words) == 1 && !strings.Contains(s, " ") {
			e.safeNames[p.Words[0].Text] = true
			continue
		}
		e.safePatterns = append(e.safePatterns, p)
	}
	for _, s := range opts.Approval.DangerousCommands {
		f, err := parseFeature(s)
		if err != nil {
			return nil, fmt.Errorf("approval.dangerousCommands: %w", err)
		}
		if f.remove != "" {
			e.removedDanger[f.remove] = true
			continue
		}
		e.danger = append(e.danger, f)
	}
	for _, s := range opts.WarnPatterns {
		f, err := parseFeature(s)
		if err != nil {
			return nil, fmt.Errorf("terminalIntegration.warnPatterns: %w", err)
		}
		if f.remove == "" {
			e.warn = append(e.warn, f)
		}
	}
	if opts.Grants != nil {
		rules, err := opts.Grants.Load()
		if err != nil {
			return nil, err
		}
		e.project = rules
		e.grantsChanged()
	}
	return e, nil
}

// grantsChanged compiles the grants not compiled yet, drops those
// revoked and forgets the rules compiled per home; e.mu is held.
func (e *Engine) grantsChanged() {
	compiled := make(map[string]*Pattern, len(e.project)+len(e.session))
	for _, list := range [][]string{e.project, e.session} {
		for _, g := range list {
			p, ok := e.grantRules[g]
			if !ok {
				var err error
				if p, err = ParsePattern(g); err != nil {
					p = nil
				}
			}
			compiled[g] = p
		}
	}
	e.grantRules = compiled
	e.homes = nil
}

// maxHomes bounds the homes whose compiled rules are kept.
const maxHomes = 8

// forHome returns the rules with ~ meaning home, compiled once per home
// (until the grants change): deny rules, and every allow rule with its
// source in priority order (--approve, approval.allow, project grants,
// session grants).
func (e *Engine) forHome(home string) *homeRules {
	e.mu.Lock()
	defer e.mu.Unlock()
	if h, ok := e.homes[home]; ok {
		return h
	}
	h := &homeRules{deny: make([]*Pattern, len(e.deny))}
	for i, p := range e.deny {
		h.deny[i] = p.forHome(home)
	}
	for _, p := range e.approve {
		h.allow = append(h.allow, ruleEntry{p.forHome(home), ByFlag})
	}
	for _, p := range e.allow {
		h.allow = append(h.allow, ruleEntry{p.forHome(home), ByRule})
	}
	for _, list := range [][]string{e.project, e.session} {
		for _, g := range list {
			if p := e.grantRules[g]; p != nil {
				h.allow = append(h.allow, ruleEntry{p.forHome(home), ByGrant})
			}
		}
	}
	if e.homes == nil || len(e.homes) >= maxHomes {
		e.homes = map[string]*homeRules{}
	}
	e.homes[home] = h
	return h
}

// denyRules are the deny rules with ~ meaning home.
func (e *Engine) denyRules(home string) []*Pattern {
	return e.forHome(home).deny
}

// Headless reports whether ask decisions become deny.
func (e *Engine) Headless() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opts.Headless
}

// SetHeadless switches headless mode (e.g. an MCP client without
// elicitation).
func (e *Engine) SetHeadless(h bool) {
	e.mu.Lock()
	e.opts.Headless = h
	e.mu.Unlock()
}

type ruleEntry struct {
	p      *Pattern
	source Decider
}

// rules returns every allow rule with its source, in priority order;
// extra are rules a remedy proposes (checked as if given by --approve).
// The list is shared: callers do not change it.
func (e *Engine) rules(extra []*Pattern, home string) []ruleEntry {
	compiled := e.forHome(home).allow
	if len(extra) == 0 {
		return compiled
	}
	out := make([]ruleEntry, 0, len(extra)+len(compiled))
	for _, p := range extra {
		out = append(out, ruleEntry{p.forHome(home), ByFlag})
	}
	return append(out, compiled...)
}

// command decides a run_cmd (or terminal_start) command; interactive says
// it was typed into an interactive shell.
func (e *Engine) command(command string, cc CommandContext, interactive bool) *Decision {
	return e.decide(command, cc, interactive, nil)
}

// decide is command with extra allow rules; with extra set it computes no
// remedy (it is how a remedy is checked).
// The command is parsed and assessed once: the verdict, the remedy
// search and the directory the shell is left in all come from that one
// analysis.
func (e *Engine) decide(command string, cc CommandContext, interactive bool, extra []*Pattern) *Decision {
	if sh, ok := windowsShell(cc.Shell); ok {
		return e.decideWindows(command, cc, sh, interactive, extra)
	}
	cc.Home, cc.Cwd = slashPath(cc.Home), slashPath(cc.Cwd)
	cc.Facts = memoize(cc.Facts)
	cc.interactive = interactive
	a := analyse(command, shellparse.Options{Home: cc.Home, Cwd: cc.Cwd, CwdUnknown: cc.CwdUnknown, Interactive: interactive})
	as := e.assess(a, cc)
	d := &Decision{
		Safety:   as.safety,
		Display:  as.display,
		WarnAt:   as.warnAt,
		Category: as.category,
		Warn:     as.warn,
		Reasons:  as.reasons,
		Full:     command,
		Subject:  command,
		DirAfter: a.DirAfter,
	}
	if windowsPaths && d.DirAfter.Moved {
		// the analysis's paths are slashed and lower-cased: where a cd
		// leads is seen once it has run
		d.DirAfter = shellparse.DirAfter{}
	}
	if d.Reasons == nil {
		d.Reasons = []string{}
	}
	d.DefaultAnswer = "yes"
	if d.Warn {
		d.DefaultAnswer = "no"
	}
	d.Rule, d.OfferAlways = e.alwaysRule(a, as)

	verdict, by, why := e.verdict(a, as, cc, extra)
	switch verdict {
	case Deny:
		d.Decision = Deny
		d.DecidedBy = by
		d.OfferAlways = false
		d.Reasons = append(d.Reasons, why)
		return d
	case Allow:
		d.Decision = Allow
		d.DecidedBy = by
		return d
	}
	var remedy func(*shellparse.Analysis, *assessment) string
	if extra == nil {
		remedy = func(a *shellparse.Analysis, as *assessment) string {
			return e.remedy(a, as, func(rules []*Pattern) bool {
				v, _, _ := e.verdict(a, as, cc, rules)
				return v == Allow
			})
		}
	}
	return e.ask(d, a, as, remedy)
}

// verdict is the decision order of SPEC §6.1 for an analysed and
// assessed command, with extra allow rules: deny (and the reason), allow
// (and who allowed it), or ask. It parses nothing: the remedy search
// calls it again with the rules it proposes.
func (e *Engine) verdict(a *shellparse.Analysis, as *assessment, cc CommandContext, extra []*Pattern) (Verdict, Decider, string) {
	if a.Err != nil {
		return Ask, "", ""
	}
	deny := e.denyRules(cc.Home)
	for _, l := range a.Leaves {
		for _, p := range deny {
			if p.denies(l) {
				return Deny, ByDenyRule, fmt.Sprintf("denied by rule %q (matches %q)", p.Src, l.RawText())
			}
		}
	}
	if src, ok := e.preApproved(a, as, extra, cc.Home); ok {
		return Allow, src, ""
	}
	// A command matching the user's warnPatterns is at least asked: the
	// safe list and the sandbox never wave a configured warning through.
	if e.opts.Approval.AutoApproveSafe && as.safety == Safe && len(as.maybeDenied) == 0 && !as.warnPattern {
		return Allow, BySafeList, ""
	}
	if cc.Isolation == IsolationSandbox && e.opts.Approval.AutoApproveInSandbox && as.safety != Dangerous && len(as.maybeDenied) == 0 && !as.warnPattern {
		return Allow, BySandbox, ""
	}
	return Ask, "", ""
}

func (e *Engine) ask(d *Decision, a *shellparse.Analysis, as *assessment, remedy func(*shellparse.Analysis, *assessment) string) *Decision {
	d.Decision = Ask
	d.DecidedBy = "user"
	if e.Headless() {
		d.Decision = Deny
		d.DecidedBy = ByHeadless
		if remedy != nil {
			d.Remedy = remedy(a, as)
		} else {
			d.Remedy = remedyInteractive
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

// remedy tells the human how to let the command run next time. A list of
// --approve rules is offered only when works confirms that with those
// rules the command is allowed, and only when every rule is plain
// printable text; otherwise the remedy says honestly that the command
// must be approved interactively.
func (e *Engine) remedy(a *shellparse.Analysis, as *assessment, works func([]*Pattern) bool) string {
	if a == nil || a.Err != nil || len(a.Unknown) > 0 || as.writes || as.network || as.redirSensitive || as.secretEnv != "" || len(a.Recursive) > 0 {
		return remedyInteractive
	}
	var rules []string
	for _, l := range as.needRule {
		if as.info[l].noRule != "" {
			return remedyInteractive
		}
		r := narrowRule(l)
		if r == "" || as.info[l].danger != "" || as.info[l].sensitive != "" || as.info[l].exactOnly {
			r = exactRule(l)
		}
		if r == "" || sanitize(r, false) != r {
			return remedyInteractive
		}
		if !contains(rules, r) {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 {
		return remedyYourself
	}
	pats := make([]*Pattern, 0, len(rules))
	for _, r := range rules {
		p, err := ParsePattern(r)
		if err != nil {
			return remedyInteractive
		}
		pats = append(pats, p)
	}
	if works != nil && !works(pats) {
		return remedyInteractive
	}
	return approveRemedy(rules)
}

// approveRemedy is the remedy line that passes rules as --approve flags.
func approveRemedy(rules []string) string {
	var b strings.Builder
	b.WriteString("re-run with")
	for _, r := range rules {
		b.WriteString(" --approve ")
		b.WriteString(shellQuote(r))
	}
	return b.String()
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
func (e *Engine) alwaysRule(a *shellparse.Analysis, as *assessment) (string, bool) {
	if a.Err != nil || len(a.Unknown) > 0 || as.writes || as.network || as.warn || as.secretEnv != "" || len(as.needRule) == 0 {
		return "", false
	}
	var rules []string
	for _, l := range as.needRule {
		if as.info[l].sensitive != "" {
			return "", false
		}
		r := narrowRule(l)
		if r == "" {
			return "", false
		}
		if !contains(rules, r) {
			rules = append(rules, r)
		}
	}
	return strings.Join(rules, "\n"), true
}

// preApproved reports whether every leaf is covered by a rule (or is
// safe, or a harmless wrapper), and returns the source of the rules.
func (e *Engine) preApproved(a *shellparse.Analysis, as *assessment, extra []*Pattern, home string) (Decider, bool) {
	if len(a.Unknown) > 0 || as.writes || as.network || as.redirSensitive || as.secretEnv != "" || len(as.maybeDenied) > 0 || len(a.Recursive) > 0 {
		return "", false
	}
	rules := e.rules(extra, home)
	if len(rules) == 0 {
		return "", false
	}
	covered := map[*shellparse.Leaf]bool{}
	var cover func(l *shellparse.Leaf)
	cover = func(l *shellparse.Leaf) {
		for _, in := range l.Inner {
			covered[in] = true
			cover(in)
		}
	}
	source := Decider("")
	rank := map[Decider]int{ByFlag: 3, ByRule: 2, ByGrant: 1}
	for _, l := range a.Leaves {
		if covered[l] {
			continue
		}
		if len(l.Unknown) > 0 {
			return "", false
		}
		info := as.info[l]
		if info.noRule != "" {
			return "", false
		}
		var hit *ruleEntry
		for i := range rules {
			r := &rules[i]
			if !r.p.Match(l, matchAllow) {
				continue
			}
			if (info.danger != "" || info.sensitive != "" || info.exactOnly || as.warnPattern) && !r.p.Exact() {
				continue
			}
			hit = r
			break
		}
		if hit != nil {
			if rank[hit.source] > rank[source] {
				source = hit.source
			}
			if hit.p.Exact() {
				cover(l)
			}
			continue
		}
		if info.danger != "" {
			return "", false
		}
		if info.harmlessWrapper {
			continue
		}
		if e.opts.Approval.AutoApproveSafe && info.safe && !as.warnPattern {
			continue
		}
		return "", false
	}
	if source == "" {
		return "", false
	}
	return source, true
}

// ToolHint shapes the decision for an MCP tool call (seed 001 approvalHints).
type ToolHint struct {
	DisplayArgs  []string
	Truncate     int
	WarnPatterns []string
	AlwaysWarn   bool
	// AlwaysAllow is set when the server's alwaysAllow lists the tool.
	AlwaysAllow bool
}

// mcpTool decides a call of an external (MCP) tool named name ("{server}_{tool}").
func (e *Engine) mcpTool(name string, args map[string]any, hint ToolHint) *Decision {
	shown := toolArgs(args, hint.DisplayArgs)
	full := name
	if shown != "" {
		full = name + ": " + shown
	}
	warn := hint.AlwaysWarn
	var reasons []string
	for _, p := range hint.WarnPatterns {
		if p != "" && strings.Contains(shown, p) {
			warn = true
			reasons = append(reasons, fmt.Sprintf("arguments contain %q", p))
			break
		}
	}
	if hint.AlwaysWarn {
		reasons = append(reasons, "this tool always warns")
	}
	display := sanitize(shown, false)
	if hint.Truncate > 0 && len([]rune(display)) > hint.Truncate {
		display = string([]rune(display)[:hint.Truncate]) + "…"
	}
	shownName := sanitize(name, false)
	if display != "" {
		display = shownName + ": " + display
	} else {
		display = shownName
	}
	d := &Decision{Safety: Unknown, Display: display, WarnAt: markAt(warn, len(shownName)), Warn: warn, DefaultAnswer: "yes", OfferAlways: !warn, Reasons: reasons, Full: full, Subject: name, Rule: name}
	if warn {
		d.DefaultAnswer = "no"
		d.Rule = ""
	}
	if d.Reasons == nil {
		d.Reasons = []string{}
	}
	leaf := &shellparse.Leaf{Words: []shellparse.Word{{Text: name, Raw: name}}}
	for _, p := range e.deny {
		if len(p.Words) == 1 && p.denies(leaf) {
			d.Decision, d.DecidedBy, d.OfferAlways = Deny, "deny-rule", false
			d.Reasons = append(d.Reasons, fmt.Sprintf("denied by rule %q", p.Src))
			return d
		}
	}
	if hint.AlwaysAllow {
		d.Decision, d.DecidedBy = Allow, "rule"
		return d
	}
	for _, r := range e.rules(nil, "") {
		if len(r.p.Words) == 1 && r.p.Match(leaf, matchAllow) && (!warn || r.p.Exact()) {
			d.Decision, d.DecidedBy = Allow, r.source
			return d
		}
	}
	d.Decision, d.DecidedBy = Ask, "user"
	e.mu.Lock()
	headless := e.opts.Headless
	e.mu.Unlock()
	if headless {
		d.Decision, d.DecidedBy = Deny, ByHeadless
		d.Remedy = "re-run with --approve " + shellQuote(name)
	}
	return d
}

func toolArgs(args map[string]any, keys []string) string {
	var parts []string
	if len(keys) == 0 {
		if len(args) == 0 {
			return ""
		}
		return compactJSON(args)
	}
	for _, k := range keys {
		v, ok := args[k]
		if !ok || v == nil {
			continue
		}
		switch x := v.(type) {
		case string:
			parts = append(parts, x)
		default:
			parts = append(parts, compactJSON(x))
		}
	}
	return strings.Join(parts, " ")
}

// parse analyses command as the engine does (for tests and tools).
func (e *Engine) parse(command string, cc CommandContext) *shellparse.Analysis {
	return analyse(command, shellparse.Options{Home: cc.Home, Cwd: cc.Cwd, CwdUnknown: cc.CwdUnknown})
}
