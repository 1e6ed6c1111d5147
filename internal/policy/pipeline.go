// Package policy decides, for every action the model wants to take, whether
// it is allowed, must be asked about, or is denied, how safe it is, and the
// one line the user sees. Engine.Decide (action.go) is the one door: run_cmd,
// the terminal tools, the file tools, MCP and `nb policy check` all go
// through it. Nothing here asks the user, runs anything or reads the disk:
// the disk's answers come through Facts (package fsfacts).
//
// # Deciding a command
//
// A command for bash, cmd.exe or PowerShell goes through one pipeline of
// five steps, one function each, in this file's Engine.decide:
//
//  1. parse (parse.go): the text in its shell's language, once: bash by
//     package shellparse, cmd.exe and PowerShell by package winshell, both
//     into the same model (shellparse.Analysis): leaves, the redirections,
//     what is outside what the parser understands (Unknown), and where the
//     shell is left (DirAfter).
//  2. leaves: every simple command wherever it appears — lists,
//     pipelines, substitutions, the inner scripts of bash -c, cmd /c and
//     powershell -Command, the commands behind wrappers (env, timeout,
//     sudo, xargs, find -exec, if, start) — with its program, arguments,
//     redirections, the directories it may run in (after the cd before
//     it) and what is known only at run time.
//  3. facts (judge.go for bash and the programs that behave as on Unix,
//     judgewin.go for cmd.exe's and PowerShell's own commands, script.go
//     for what the leaves do together): what the command base (package
//     cmdbase: the program's spec, its read-only grammar, its dangerous
//     forms) and the disk (Facts: secret files, where links lead, git's
//     configuration) say each leaf does, as typed effects (leafInfo: safe
//     and why not, danger, the secret it touches, writes, network use,
//     whether a rule may approve it); then the script's safety and
//     whether it warns.
//  4. rules (rules.go): a deny rule matching any leaf denies; a rule a
//     dynamic word might match keeps it asked; else every leaf covered by
//     a rule (--approve, approval.allow, grants), by the safe list or as
//     a harmless wrapper allows; else the sandbox may; else ask.
//  5. verdict (verdict.go): the Decision with its explanation in the
//     shell's own language — the display line, the reasons, the rule
//     "Always" saves and, headless, the remedy (rules checked against the
//     same facts with step 4, never by parsing again).
//
// What a decision says travels in typed fields, never in its text: Warn
// and Safety say that it warns (DefaultAnswer and OfferAlways follow
// them), DecidedBy who decided; a refusal for want of a terminal to ask
// at is DecidedBy ByHeadless, and the model is told Refusal. No glyph
// leaves this package: Display is the plain line, WarnAt says where the
// warning sign belongs, and the prompt draws it (approval.DisplayLine).
// Anything not provably read-only is asked, never silently allowed; what
// the parser does not understand is asked, and warned when its text names
// a dangerous program.
package policy

import (
	"github.com/nb-cli/nb/internal/shellparse"
)

// leafInfo is what step 3 says one leaf does, in typed fields.
type leafInfo struct {
	safe bool
	why  string // why it is not safe
	// danger says why it is dangerous ("": it is not): warned, default
	// No, never Always, only an exact rule approves it.
	danger string
	// sensitive names the secret it may show: never Always, only an
	// exact rule approves it.
	sensitive string
	// harmlessWrapper: it only runs the leaves it wraps, each judged on
	// its own (timeout, env, cmd /c, if).
	harmlessWrapper bool
	// noRule says why no rule may approve it (network data fed to an
	// interpreter, a risky environment variable, a program the
	// repository configures).
	noRule string
	// exactOnly: only a rule without a trailing * may approve it (it reads
	// a file chosen at run time, writes files through its options).
	exactOnly bool
	// optWrite says how it writes files through its options or arguments
	// (sed -i, sort -o, git --output, tee…).
	optWrite string
	// warns: it writes, deletes or moves files (seed 000): warned.
	warns bool
	// network: it talks to the network.
	network bool
	// noAlways: no narrow rule exists for it ("Always" is not offered):
	// it talks to the network or runs code.
	noAlways bool
	// win holds what rules need of a cmd.exe or PowerShell leaf.
	win *winInfo
}

// assessment is what step 3 says the whole command does.
type assessment struct {
	safety  Safety
	reasons []string
	warn    bool
	// category is the display class of a single simple command.
	category Category
	// warnPattern is set when the command matches the user's warnPatterns.
	warnPattern bool
	display     string
	info        leafInfos
	// needRule are the leaves a rule must cover (not safe, not harmless
	// wrappers).
	needRule []*shellparse.Leaf
	// writes: a redirection writes a file; network: one talks to the
	// network (/dev/tcp); redirSensitive: one reads a secret.
	writes         bool
	network        bool
	redirSensitive bool
	// secretEnv says why the command expands a variable that may hold a
	// secret: no rule pre-approves it.
	secretEnv string
	// warnAt is Decision.WarnAt for display.
	warnAt []int
}

// reason adds r to the reasons once.
func (as *assessment) reason(r string) {
	if !contains(as.reasons, r) {
		as.reasons = append(as.reasons, r)
	}
}

// decide is the pipeline for a command of any shell (steps 1 to 5);
// interactive says it was typed into an interactive shell.
func (e *Engine) decide(command string, cc CommandContext, interactive bool) *Decision {
	s := e.parse(command, cc, interactive) // 1, 2
	as := e.assess(s)                      // 3
	rs := e.ruling(s, as)                  // 4
	return e.verdict(s, as, rs)            // 5
}

// leafInfos are the facts of each leaf of a script: a list, and a map
// once there are many.
type leafInfos struct {
	list  []leafFact
	index map[*shellparse.Leaf]*leafInfo
}

type leafFact struct {
	leaf *shellparse.Leaf
	info *leafInfo
}

// of is the facts of leaf l (nil when none were found).
func (f *leafInfos) of(l *shellparse.Leaf) *leafInfo {
	if f.index != nil {
		return f.index[l]
	}
	for _, e := range f.list {
		if e.leaf == l {
			return e.info
		}
	}
	return nil
}

// set records the facts of leaf l, which has none yet.
func (f *leafInfos) set(l *shellparse.Leaf, info *leafInfo) {
	if f.index != nil {
		f.index[l] = info
		return
	}
	f.list = append(f.list, leafFact{l, info})
	if len(f.list) > 16 {
		f.index = make(map[*shellparse.Leaf]*leafInfo, 2*len(f.list))
		for _, e := range f.list {
			f.index[e.leaf] = e.info
		}
		f.list = nil
	}
}
