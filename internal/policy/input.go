package policy

import (
	"fmt"
	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/sysinfo"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Session input is decided by what will execute it:
//
//   - A session running a shell: the input is shell code whatever program
//     is in the foreground (typed ahead while a job runs, it reaches the
//     shell when the job ends), analysed with the same engine as run_cmd.
//     Programs that pass their input to a shell elsewhere (ssh, su,
//     docker exec…) count as shells too.
//   - A known REPL (python, node, irb, psql…): the input is code. Known
//     dangerous patterns (running commands, deleting or writing files,
//     DROP/DELETE…) warn; otherwise it is asked, and Always saves exactly
//     this input for this program.
//   - A program waiting at a recognised question or password prompt: the
//     input is shown as the answer to that prompt (a password masked).
//
// Grants for input never name a session: "input → python3: print(1)".

// codeLang is the language a REPL reads (the command base knows).
type codeLang = cmdbase.Lang

const (
	langNone   = cmdbase.NoLang
	langPython = cmdbase.Python
	langJS     = cmdbase.JavaScript
	langRuby   = cmdbase.Ruby
	langSQL    = cmdbase.SQL
	langOther  = cmdbase.OtherLang // a REPL of another language: generic patterns only
)

// replLang returns the language a program reads as a REPL, or langNone.
func replLang(program string) codeLang {
	if p := cmdbase.Unix(path.Base(program)); p != nil {
		return p.Lang
	}
	return langNone
}

// shellRelay reports a program that passes its input to a shell, often on
// another machine.
func shellRelay(program string) bool { return cmdbase.Unix(program).Has(cmdbase.Relay) }

type codePattern struct {
	re     *regexp.Regexp
	reason string
}

func pat(expr, reason string) codePattern {
	return codePattern{regexp.MustCompile(expr), reason}
}

// Patterns that make REPL input warned, by language. They look for the
// ways code runs commands, deletes or writes files, or changes a database.
var codePatterns = sync.OnceValue(func() map[codeLang][]codePattern {
	return map[codeLang][]codePattern{
		langPython: {
			pat(`\bos\s*\.\s*(system|popen|exec\w*|spawn\w*|posix_spawn\w*|fork\w*)\b`, "runs a command"),
			pat(`\bsubprocess\b|\bpty\s*\.\s*spawn\b|\bcommands\s*\.\s*getoutput\b`, "runs a command"),
			pat(`\bos\s*\.\s*(remove|unlink|rmdir|removedirs|rename|renames|replace|truncate|chmod|chown|kill|killpg|setuid)\b`, "changes or deletes files or processes"),
			pat(`\bshutil\s*\.\s*(rmtree|move|copy\w*|chown|make_archive|unpack_archive)\b`, "changes or deletes files"),
			pat(`\.\s*(unlink|rmdir|write_text|write_bytes|chmod|rename|replace|touch|mkdir|symlink_to|hardlink_to)\s*\(`, "changes or deletes files"),
			pat(`\bopen\s*\([^)]*['"][^'"]*[wax+][^'"]*['"]`, "writes a file"),
			pat(`\b(eval|exec|compile|__import__)\s*\(|\bimportlib\b|\bctypes\b`, "runs code built at run time"),
			pat(`\b(socket|urllib|requests|httpx|http\s*\.\s*client|ftplib|smtplib|paramiko)\b`, "uses the network"),
		},
		langJS: {
			pat(`\bchild_process\b|\b(exec|execSync|execFile|execFileSync|spawn|spawnSync|fork)\s*\(`, "runs a command"),
			pat(`\b(rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|writeFile|writeFileSync|appendFile|appendFileSync|rename|renameSync|chmod|chmodSync|truncate|truncateSync|createWriteStream|copyFile|copyFileSync|cp|cpSync)\s*\(`, "changes or deletes files"),
			pat(`\bprocess\s*\.\s*(kill|exit|binding|dlopen)\b`, "ends or changes processes"),
			pat(`\b(eval|Function)\s*\(|\bnew\s+Function\b|\bvm\s*\.\s*run\w*|\bimport\s*\(|\brequire\s*\(`, "loads or runs code built at run time"),
			pat(`\bDeno\s*\.\s*(run|Command|remove|writeFile|writeTextFile|rename|chmod|kill)\b|\bBun\s*\.\s*(spawn|spawnSync|write|\$)`, "runs a command or writes files"),
			pat(`\b(fetch|XMLHttpRequest|WebSocket)\b|\b(http|https|net|dgram|tls)\s*\.\s*(request|get|connect|createConnection)\b`, "uses the network"),
		},
		langRuby: {
			pat("\\b(system|exec|spawn|syscall|fork)\\b|`|%x|\\bIO\\s*\\.\\s*popen\\b|\\bOpen3\\b|\\bPTY\\s*\\.\\s*spawn\\b|\\bKernel\\s*\\.", "runs a command"),
			pat(`\bFileUtils\s*\.\s*\w+|\bFile\s*\.\s*(delete|unlink|write|rename|chmod|chown|truncate|symlink)\b|\bDir\s*\.\s*(delete|rmdir|unlink|mkdir)\b|\bFile\s*\.\s*open\s*\([^)]*['"][wa+]`, "changes or deletes files"),
			pat(`\b(eval|instance_eval|class_eval|send|public_send|require|load)\b`, "loads or runs code built at run time"),
			pat(`\b(Net\s*::\s*HTTP|Socket|TCPSocket|URI\s*\.\s*open|open-uri)\b`, "uses the network"),
		},
		langSQL: {
			pat(`(?i)\b(drop|delete|truncate|alter|update|insert|upsert|merge|replace|grant|revoke|create|rename|vacuum|reindex|cluster|attach|detach|load|import|shutdown|kill|flushall|flushdb|del|set|config)\b`, "changes the database"),
			pat(`(?i)\bcopy\b|\binto\s+(outfile|dumpfile)\b|\bpg_(read|write|ls)_\w*|\blo_(import|export)\b|\bload_file\s*\(`, "reads or writes files"),
			pat(`(?m)^\s*\\(!|o|out|w|write|copy|i|ir|include|include_relative|g|gx|gexec|s|setenv|cd)(\s|$)|(?mi)^\s*(system|source|pager|tee)\b|(?i)\b(writefile|readfile|load_extension|edit)\s*\(|`+cmdbase.SQLiteDotPattern(), "runs a command or touches files"),
		},
	}
})

// genericCode patterns warn in the input of every REPL.
var genericCode = sync.OnceValue(func() []codePattern {
	return []codePattern{
		pat(`\brm\s+-[A-Za-z]*[rRf]|\brm\s+-{2}(recursive|force)\b|\bmkfs\b|\bdd\s+if=|\bchmod\s+-R\b|\bsudo\b|:\(\)\s*\{`, "contains a destructive shell command"),
		pat(`\b(system|system2|shell_exec|passthru|proc_open|popen|execute|qx)\s*\(|\bos\s*\.\s*(execute|remove|rename)\b|\bio\s*\.\s*popen\b|\bunlink\s*\(|\bfile\s*\.\s*remove\b|\bRun\s*\(`, "runs a command or deletes files"),
	}
})

// codeWarnings returns why code in lang is warned, or nil.
func codeWarnings(lang codeLang, code string) []string {
	var reasons []string
	add := func(ps []codePattern) {
		for _, p := range ps {
			if m := p.re.FindString(code); m != "" {
				r := fmt.Sprintf("%s (%s)", p.reason, strings.TrimSpace(m))
				if !contains(reasons, r) {
					reasons = append(reasons, r)
				}
			}
		}
	}
	add(codePatterns()[lang])
	if len(reasons) == 0 {
		add(genericCode())
	}
	return reasons
}

// PromptKind is what a program waits for at its prompt.
type PromptKind int

const (
	// NoPrompt: no recognised question is waiting.
	NoPrompt PromptKind = iota
	// Question: a confirmation such as "[y/N]" or "(yes/no)".
	Question
	// Secret: a password, passphrase or PIN.
	Secret
)

// maxRuleInput bounds the input an exact Always rule may hold.
const maxRuleInput = 200

// sessionInput decides text typed into a session (see the comment at the
// top of this file).
func (e *Engine) sessionInput(a Action) *Decision {
	text := a.Pending + a.Input
	line := strings.TrimRight(text, "\r\n")
	program := path.Base(a.Program)
	if program == "" || program == "." {
		program = "program"
	}
	subject := "input → " + a.Session
	if strings.TrimSpace(a.Input) == "" || a.Input == "\x03" || a.Input == "\x04" {
		d := &Decision{Decision: Allow, Safety: Safe, DecidedBy: "safe-list", DefaultAnswer: Yes,
			Display: fmt.Sprintf("input → %s (%s): %s", sanitize(a.Session, false), sanitize(program, false), sanitize(a.Input, false)),
			Reasons: []string{}, Full: a.Input, Subject: subject}
		if a.Pending == "" || a.Input == "\x03" {
			return d
		}
		// Enter after text typed earlier: that text runs now, decide it.
	}

	// A line read with echo off is a secret when the reader is no code
	// interpreter, or when its prompt asks for a secret too: echo can be
	// turned off in front of a shell or REPL, and its code must show.
	codeReader := a.Shell || shellRelay(program) || replLang(program) != langNone
	if a.SecretRead && (a.Prompt == Secret || !codeReader) {
		return e.secretRead(a, program, line, subject)
	}
	shell := a.Shell || a.InShell || shellRelay(program)
	// One line typed at a program's question or password prompt is read by
	// that prompt, not by the shell behind it.
	oneLine := !strings.ContainsAny(line, "\r\n")
	if shell && !a.Shell && a.Prompt == Secret && oneLine {
		return e.secretAnswer(a, program, line, subject)
	}
	if shell {
		return e.shellInput(a, program, text, line, subject, oneLine)
	}
	if a.Prompt == Secret {
		return e.secretAnswer(a, program, line, subject)
	}
	return e.programInput(a, program, text, line, subject)
}

// shellInput decides input a shell reads (the session's own shell, one
// behind the program in front, or the one a relay feeds): as shell code,
// then with what reads it first.
func (e *Engine) shellInput(a Action, program, text, line, subject string, oneLine bool) *Decision {
	d := e.command(line, inputWhere(a), true)
	// the names come from the terminal: shown escaped
	where := sanitize(program, false)
	if !a.Shell && a.InShell {
		where = sanitize(path.Base(a.SessionProgram)+", "+program+" running", false)
	}
	prefix := fmt.Sprintf("input → %s (%s) ", sanitize(a.Session, false), where)
	d.Display, d.WarnAt = prefix+d.Display, shiftMarks(d.WarnAt, 0, len(prefix))
	d.Full, d.Subject = text, subject
	if !a.Shell && a.Prompt == Question && oneLine {
		// Still analysed as shell code (it reaches the shell if the
		// program ends first), shown as the answer it is.
		d.Display = fmt.Sprintf("answer → %s (%s) %q: %s", sanitize(a.Session, false), where, sanitize(a.PromptText, false), sanitize(line, false))
		d.WarnAt = markAt(d.Warn, len("answer"))
		d = e.askInstead(d, "an answer to the program's question")
	}
	if lang := replLang(program); !a.Shell && lang != langNone {
		// A REPL in the foreground reads it first: its patterns warn too.
		if why := codeWarnings(lang, text); len(why) > 0 {
			d.Warn, d.Safety, d.DefaultAnswer = true, Dangerous, No
			d = e.askInstead(d, why...)
		}
	}
	if a.Shell && a.Prompt == Secret || a.SecretRead {
		// The shell itself is in front of a line asking for a secret
		// that the terminal could not confirm, or reads with echo off
		// at no such prompt: shown (it may be a command), never saved.
		d = e.askInstead(d, "it may be a secret (a prompt asks for one, or echo is off): never saved as a rule")
	}
	if !a.Shell && !a.InShell {
		// A relay: the shell it feeds may be anywhere; never granted.
		d = e.askInstead(d, program+" passes its input to a shell")
	}
	return d
}

// askInstead takes back the rule "Always" would save, adds the reasons,
// and makes an allowed decision one to ask.
func (e *Engine) askInstead(d *Decision, reasons ...string) *Decision {
	d.Rule, d.OfferAlways = "", false
	d.Reasons = append(d.Reasons, reasons...)
	if d.Decision == Allow {
		return e.ask(d, nil)
	}
	return d
}

// programInput decides input a program other than a shell reads: a
// REPL's code by its language's patterns, an answer to its question,
// anything else asked (Always saves exactly this input).
func (e *Engine) programInput(a Action, program, text, line, subject string) *Decision {
	lang := replLang(program)
	shown := sanitize(line, true)
	d := &Decision{Safety: Unknown, DefaultAnswer: Yes, Full: text, Subject: subject, Reasons: []string{}}
	d.Display = fmt.Sprintf("input → %s (%s): %s", sanitize(a.Session, false), sanitize(program, false), shown)
	if a.Prompt == Question {
		// An answer depends on the question: asked each time.
		d.Display = fmt.Sprintf("answer → %s (%s) %q: %s", sanitize(a.Session, false), sanitize(program, false), sanitize(a.PromptText, false), shown)
		if lang == langNone {
			lang = langOther
		}
		if why := codeWarnings(lang, text); len(why) > 0 {
			d.Warn, d.Safety, d.DefaultAnswer = true, Dangerous, No
			d.WarnAt = markAt(true, len("answer"))
			d.Reasons = append(d.Reasons, why...)
		} else {
			d.Reasons = append(d.Reasons, "an answer to the program's question")
		}
		return e.ask(d, nil)
	}
	if lang != langNone {
		if why := codeWarnings(lang, text); len(why) > 0 {
			d.Warn, d.Safety, d.DefaultAnswer = true, Dangerous, No
			d.WarnAt = markAt(true, len("input"))
			d.Reasons = append(d.Reasons, why...)
			return e.ask(d, nil)
		}
	} else if why := codeWarnings(langOther, text); len(why) > 0 {
		d.Warn, d.Safety, d.DefaultAnswer = true, Dangerous, No
		d.Reasons = append(d.Reasons, why...)
		return e.ask(d, nil)
	}
	// Always saves exactly this input for this program: one line, short,
	// printable, no session id.
	if !a.SecretRead && !strings.ContainsAny(line, "\n\r") && line != "" && len(line) <= maxRuleInput && sanitize(line, false) == line {
		d.Rule, d.OfferAlways = InputRule(program, line), true
		e.mu.Lock()
		granted := contains(e.session, d.Rule) || contains(e.project, d.Rule)
		e.mu.Unlock()
		if granted {
			d.Decision, d.DecidedBy = Allow, ByGrant
			return d
		}
	}
	if lang != langNone {
		d.Reasons = append(d.Reasons, fmt.Sprintf("code for %s: no known dangerous pattern", program))
	} else {
		d.Reasons = append(d.Reasons, "input to "+program+" is not analysed")
	}
	return e.ask(d, nil)
}

// secretAnswer decides a secret typed at a password prompt: asked each
// time and never shown.
func (e *Engine) secretAnswer(a Action, program, line, subject string) *Decision {
	d := &Decision{Safety: Unknown, DefaultAnswer: Yes, Full: fmt.Sprintf("(%d characters, hidden)", len([]rune(line))), Subject: subject,
		Display: fmt.Sprintf("answer → %s (%s) %q: %s", sanitize(a.Session, false), sanitize(program, false), sanitize(a.PromptText, false), strings.Repeat("•", min(len([]rune(line)), 12))),
		Reasons: []string{"a secret typed at a password prompt"}, Secret: true}
	return e.ask(d, nil)
}

// secretRead decides input typed while the foreground program reads a
// line with echo off: its first line is a secret, masked and asked each
// time; lines after it reach whatever reads next and are decided as such.
func (e *Engine) secretRead(a Action, program, line, subject string) *Decision {
	first, rest, multi := strings.Cut(line, "\n")
	first = strings.TrimSuffix(first, "\r")
	if a.Prompt != Secret || a.PromptText == "" {
		a.PromptText = "echo off"
	}
	d := e.secretAnswer(a, program, first, subject)
	if !multi {
		return d
	}
	next := a
	next.SecretRead, next.Pending, next.Input, next.Prompt, next.PromptText = false, "", rest+"\n", NoPrompt, ""
	after := e.sessionInput(next)
	after.WarnAt = shiftMarks(after.WarnAt, 0, len(d.Display+", then "))
	after.Display = d.Display + ", then " + after.Display
	after.Full = d.Full + "\n" + after.Full
	after.Rule, after.OfferAlways = "", false
	after.Reasons = append(d.Reasons, after.Reasons...)
	after.Secret = true
	if after.Decision == Allow {
		after = e.ask(after, nil)
	}
	return after
}

// InputRule is the grant that allows exactly line typed into program.
func InputRule(program, line string) string {
	return "input → " + path.Base(program) + ": " + line
}

// inputWhere is where typed input runs: in the language of the shell
// that reads it (a PowerShell or cmd.exe session on any host), which may
// not be the host's.
func inputWhere(a Action) CommandContext {
	where := a.Where
	prog := a.Program
	if !a.Shell {
		prog = a.SessionProgram
	}
	if (a.Shell || a.InShell) && prog != "" {
		where.Shell = sysinfo.KindOf(prog)
	}
	return where
}
