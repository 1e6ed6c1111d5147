// Package policy decides, for every action the model wants to take, whether
// it is allowed, must be asked about, or is denied, how safe it is, and the
// one line the user sees. Decisions are pure functions of the parsed command
// and the rules; nothing here asks the user or runs anything. Engine.Decide
// (an Action of any Kind: a command, input typed into a session, a file or
// MCP tool call…) is the one door: run_cmd, the terminal tools, the file
// tools, MCP and `nb policy check` all go through it.
//
// What a decision says travels in typed fields, never in its text: Warn
// and Safety say that it warns (and DefaultAnswer, OfferAlways follow
// them), DecidedBy who decided, and a refusal for want of a terminal to
// ask at is DecidedBy ByHeadless (Decision.Headless), decided here only;
// the model is told Refusal, which is not among the Reasons. No glyph
// leaves this package: Display is the plain line, WarnAt says where the
// warning sign belongs, and the prompt draws it (approval.DisplayLine).
//
// A command is parsed as bash (package shellparse) into simple commands
// ("leaves"), including those inside substitutions, inner scripts (bash -c,
// eval, trap, alias, a here-document fed to a shell) and behind wrappers
// (env, timeout, nice, nohup, time, command, exec, stdbuf, xargs, sudo,
// find -exec…). The decision order is SPEC §6.1:
//
//  1. A deny rule (approval.deny, or a project's .nb/config.json) matching
//     any leaf denies. Deny rules match the base name of the command
//     wherever it lives (/tmp/x/rm matches "rm *"), find their words and
//     short options anywhere among the arguments (deny "git push *" denies
//     git -C . push; "rm -rf *" denies rm -f -R x), and a leaf whose
//     dynamic words might make it match is never pre-approved.
//  2. Pre-approval: every leaf must be matched by a rule (--approve,
//     approval.allow, "always" grants of the project, "this session"
//     grants), be on the safe list (when autoApproveSafe; the read-only
//     grammar of each command, one table per family of the command base,
//     cmdbase/safe_<family>.go, its examples beside it), or be a
//     harmless wrapper (timeout, nice, nohup, command, exec, stdbuf,
//     ionice, setsid, env, xargs, time, watch: their inner command is a
//     leaf of its own and must be covered itself, so "timeout *" never
//     approves timeout 5 rm).
//     Nothing may be unknown (dynamic command names, ${x@P}, arithmetic on
//     variables…), no file may be written by redirection (other than
//     /dev/null and the standard streams), no deny rule may possibly match
//     a dynamic word. A dangerous or sensitive leaf, one reading a file
//     named at run time, one writing files through its options (sed -i,
//     sort -o, git log --output, find -fprint, tee, tar -x…) or running
//     programs configured elsewhere (git --ext-diff, git -C /elsewhere) is
//     pre-approved only by an exact rule (no trailing *): "git push *"
//     does not approve git push --force, "git log *" does not approve
//     git log --output=x, "rm -rf build" approves exactly that. An exact rule matching a wrapper or shell
//     (sudo apt update, bash -c 'make') also covers what it runs. Network
//     data piped into an interpreter and commands run with a risky
//     environment variable (PATH=, LD_PRELOAD=, GIT_*…) are never
//     pre-approved.
//  3. Safe (every leaf provably read-only with its flags checked, no
//     sensitive path, no network tool, no write) → allow when
//     autoApproveSafe.
//  4. In a sandbox with autoApproveInSandbox, anything not dangerous →
//     allow.
//  5. Otherwise ask; headless, deny (DecidedBy ByHeadless: the model is
//     told Refusal) with a Remedy.
//
// Rules (SPEC §6.1) are shell words parsed like commands: a final bare *
// matches any remaining arguments (including none, and arguments appended
// at run time by xargs); * ? [ inside a word glob within that word and do
// not match "/"; a quoted '*' is a literal star; a dynamic word of the
// command ($x, $(…)) is matched only by a bare * word. The command name
// /usr/bin/git (any standard system bin directory) matches a rule "git";
// ./git does not. A word starting with ~ means the home directory of the
// command being decided.
//
// "Always" (Decision.Rule) is the narrowest rule per leaf that needs one:
// command + subcommand + * for tools with subcommands (git status *,
// docker ps *, npm run build *; later matches are re-checked for options
// that write or run programs, see above); the exact command when options
// precede the subcommand (systemctl -t service restart nginx), when the
// subcommand runs programs or writes through its options (docker run,
// git rebase, git config…), and for every tool without a known subcommand
// structure (make test, cp a b, tar -tf x.tar, crontab -l). It is not
// offered for shells, interpreters, wrappers, sudo, network tools that can
// send data (curl, wget, nc, scp…), dynamic commands, a tool with
// subcommands used without one, writes and warned commands. Several
// leaves give several rules, one per line; Grant saves each.
//
// A headless Remedy lists --approve rules only when the engine has checked
// that with them the command is allowed and every rule is printable text;
// otherwise it says the command must be approved interactively.
//
// Configured lists (approval.safeCommands, approval.dangerousCommands,
// terminalIntegration.warnPatterns) are matched against parsed leaves,
// never against raw text; see feature for the syntax. Display (seed 000):
// read/write/append/copy/move/delete/mkdir for a single simple command,
// else "run: COMMAND" or "run (N lines):" with every line; when the
// command is warned (dangerous, writes, deletes or moves, or matches a warn
// pattern) WarnAt marks the end of the category, where the prompt draws the
// warning sign ("delete ⚠️: /tmp/x"). Control and invisible characters are
// shown escaped, in commands and in every name the display shows (session
// programs, paths, tool names).
package policy

import "github.com/nb-cli/nb/internal/shellparse"

// Verdict is the outcome of a decision.
type Verdict string

const (
	Allow Verdict = "allow"
	Ask   Verdict = "ask"
	Deny  Verdict = "deny"
)

// Safety is the risk level of a command (seed 002).
type Safety string

const (
	Safe      Safety = "safe"
	Unknown   Safety = "unknown"
	Dangerous Safety = "dangerous"
)

// Decision is the verdict for one action. Its JSON form is the contract of
// `nb policy check --json` (SPEC §6.4); fields after Reasons are omitted there.
type Decision struct {
	Decision      Verdict  `json:"decision"`
	Safety        Safety   `json:"safety"`
	Display       string   `json:"display"`
	Warn          bool     `json:"warn"`
	DefaultAnswer Answer   `json:"defaultAnswer"`
	OfferAlways   bool     `json:"offerAlways"`
	Reasons       []string `json:"reasons"`

	// WarnAt are the byte offsets in Display after which the warning sign
	// belongs when the decision warns (Warn, or Safety Dangerous): after
	// the verb of each warned part ("delete", "run", "answer", "input", an
	// MCP tool's name), ascending. Display itself is plain text: no
	// glyph leaves this package, the prompt draws it
	// (approval.DisplayLine), in front of the line when WarnAt is empty.
	WarnAt []int `json:"-"`

	// Full is the complete text behind Display, shown on `?` (the whole
	// command; for writes, the content written).
	Full string `json:"-"`
	// Rule is the narrowest rule "Always" would save; empty when Always is
	// not offered.
	Rule string `json:"-"`
	// DecidedBy says who decided (audit log).
	DecidedBy Decider `json:"-"`
	// Remedy is a line for the human when a call is denied for want of a
	// terminal to ask at, e.g. "re-run with --approve 'git push *'".
	Remedy string `json:"-"`
	// Category is what the display line shows the action as (read, write,
	// append, copy, move, delete, mkdir); empty for "run: COMMAND" and for
	// actions that are not commands.
	Category Category `json:"-"`
	// Subject is what the decision is about, for grants and audit: the
	// command for run_cmd, "input → term-2" for session input, the tool name
	// for MCP tools.
	Subject string `json:"-"`
	// Secret is set when the action carries a secret (a password typed
	// at a prompt): it is never shown, saved or logged in clear.
	Secret bool `json:"-"`
	// OnlyWrites is set on a command whose only effects nb knows of are
	// writes to files: no network, nothing unknown or dynamic, no program
	// but read-only ones and those that only read and write the files
	// they name (cp, mv, rm, sed, tee…). Such a command may be previewed
	// in a copy-on-write view (SPEC §16). Bash commands only.
	OnlyWrites bool `json:"-"`
	// Protected is set on a file write whose path needs the user whatever
	// the approval mode: a secret, a system path or startup file, an
	// entry programs run later.
	Protected bool `json:"-"`
	// DirAfter is where the shell is once a RunCommand's command has run,
	// when that is certain before it runs (from the same analysis the
	// verdict comes from).
	DirAfter shellparse.DirAfter `json:"-"`
}

// Headless reports whether d is a refusal for want of a terminal to ask
// at: the call needed approval and the engine was headless. Only the
// engine decides it (DecidedBy ByHeadless); the model is told Refusal.
func (d *Decision) Headless() bool {
	return d.Decision == Deny && d.DecidedBy == ByHeadless
}

// markAt is WarnAt for a display whose warned verb ends at byte n; none
// when the part does not warn.
func markAt(warn bool, n int) []int {
	if !warn {
		return nil
	}
	return []int{n}
}

// shiftMarks moves the marks at or after byte from by n bytes, for text
// of n bytes inserted at from; it returns a new slice.
func shiftMarks(marks []int, from, n int) []int {
	if len(marks) == 0 {
		return nil
	}
	out := make([]int, len(marks))
	for i, m := range marks {
		if m >= from {
			m += n
		}
		out[i] = m
	}
	return out
}

// Category classifies a single simple command for the display line.
type Category string

const (
	CatRead   Category = "read"
	CatWrite  Category = "write"
	CatAppend Category = "append"
	CatCopy   Category = "copy"
	CatMove   Category = "move"
	CatDelete Category = "delete"
	CatMkdir  Category = "mkdir"
)

// Writes reports whether the action writes content the user may want to
// see before approving it (`?` shows it).
func (c Category) Writes() bool { return c == CatWrite || c == CatAppend }

// Answer is the answer the approval prompt selects by default.
type Answer string

const (
	Yes Answer = "yes"
	No  Answer = "no"
)

// Decider says who decided a call.
type Decider string

const (
	// ByFlag: a --approve rule of this run.
	ByFlag Decider = "flag"
	// ByRule: approval.allow (or an MCP server's alwaysAllow).
	ByRule Decider = "rule"
	// ByGrant: an "always" or "this session" grant.
	ByGrant Decider = "grant"
	// BySafeList: every part of the command is provably read-only.
	BySafeList Decider = "safe-list"
	// BySandbox: autoApproveInSandbox on a sandboxed host.
	BySandbox Decider = "sandbox"
	// ByDenyRule: a deny rule matched.
	ByDenyRule Decider = "deny-rule"
	// ByAction: the kind of action needs no approval (set_cwd, listing
	// sessions, get_context).
	ByAction Decider = "action"
	// BySensitive: a read that would be allowed touches a sensitive path.
	BySensitive Decider = "sensitive-path"
	// ByUser: the user is asked (or answered).
	ByUser Decider = "user"
	// ByHeadless: it needed asking and there was no terminal to ask at.
	ByHeadless Decider = "headless"
	// ByClient: an MCP client approved it (approval.trustClientApproval).
	ByClient Decider = "client"
	// ByNoTerminal: the agent had no terminal to ask at.
	ByNoTerminal Decider = "no-terminal"
	// ByEditMode: an edit of a file inside the workspace, in the approval
	// mode that applies such edits without asking (SPEC §16).
	ByEditMode Decider = "edit-mode"
)
