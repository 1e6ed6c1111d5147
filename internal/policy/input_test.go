package policy

import (
	"strings"
	"testing"
)

func TestREPLInputIsCode(t *testing.T) {
	e := newEngine(t, nil)
	dangerous := map[string][]string{
		"python3":    {"import os; os.system('touch pwned')", "os.system('rm -rf x')", "import subprocess", "shutil.rmtree('build')", "open('x', 'w').write('1')", "__import__('os').popen('id')", "pathlib.Path('x').unlink()"},
		"python3.12": {"os.remove('x')"},
		"node":       {"require('child_process').execSync('rm -rf x')", "fs.rmSync('x', {recursive: true})", "fs.writeFileSync('a', 'b')", "process.kill(1)"},
		"irb":        {"system('rm -rf x')", "`rm x`", "FileUtils.rm_rf('x')", "File.delete('x')"},
		"psql":       {"DROP TABLE users;", "delete from users;", "\\! rm -rf x", "COPY t TO PROGRAM 'sh'"},
		"sqlite3":    {".shell rm x", "drop table t;"},
		"lua":        {"os.execute('rm -rf x')"},
	}
	for program, inputs := range dangerous {
		for _, in := range inputs {
			d := decideInput(e, "term-2", program, false, in+"\n", testCC)
			if d.Decision == Allow || !d.Warn || d.DefaultAnswer != No || d.OfferAlways || d.Rule != "" || d.Safety != Dangerous {
				t.Errorf("%s %q: %+v", program, in, d)
			}
			if !strings.Contains(marked(d), "⚠️") {
				t.Errorf("%s %q: display %q lacks the warning", program, in, marked(d))
			}
		}
	}
	for program, in := range map[string]string{"python3": "print(6*7)", "node": "[1,2].map(x => x*2)", "irb": "puts 1+1", "psql": "select count(*) from users;"} {
		d := decideInput(e, "term-2", program, false, in+"\n", testCC)
		if d.Decision != Ask || d.Warn || d.DefaultAnswer != Yes || !d.OfferAlways {
			t.Errorf("%s %q: %+v", program, in, d)
		}
		if d.Rule != "input → "+program+": "+in || strings.Contains(d.Rule, "term-") {
			t.Errorf("%s %q: rule %q", program, in, d.Rule)
		}
	}
	// Multi-line input is asked each time: Always holds one line.
	if d := decideInput(e, "term-2", "python3", false, "x = 1\nprint(x)\n", testCC); d.OfferAlways || d.Rule != "" {
		t.Errorf("multi-line input offers Always: %+v", d)
	}
}

func TestOldSessionGrantsAreNotHonoured(t *testing.T) {
	files := map[string][]string{"proj": {"input → term-2 (python3)"}}
	e := newEngine(t, func(o *Options) { o.Grants = &memGrants{files: files, name: "proj"} })
	if d := decideInput(e, "term-2", "python3", false, "print(1)\n", testCC); d.Decision == Allow {
		t.Fatalf("a grant naming a session allowed input: %+v", d)
	}
	if d := decideInput(e, "term-2", "python3", false, "import os; os.system('touch pwned')\n", testCC); d.Decision == Allow {
		t.Fatalf("a grant naming a session allowed os.system: %+v", d)
	}
}

func TestShellSessionInputIsShellWhateverRuns(t *testing.T) {
	e := newEngine(t, nil)
	// Typed ahead while sleep runs: it reaches bash when sleep ends.
	d := e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: "sleep", InShell: true, SessionProgram: "bash", Input: "rm -rf x\n", Where: testCC})
	if d.Decision == Allow || !d.Warn || d.DefaultAnswer != No || d.OfferAlways || d.Rule != "" {
		t.Fatalf("typeahead rm: %+v", d)
	}
	if !strings.HasPrefix(marked(d), "input → term-1 (bash, sleep running) delete ⚠️") {
		t.Errorf("display %q", marked(d))
	}
	// Safe commands stay safe.
	d = e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: "sleep", InShell: true, SessionProgram: "bash", Input: "ls\n", Where: testCC})
	if d.Decision != Allow {
		t.Errorf("typeahead ls: %+v", d)
	}
	// A REPL in the foreground of a shell session: its input is still
	// decided as shell input, never allowed by the REPL's rules.
	d = e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: "python3", InShell: true, SessionProgram: "bash", Input: "os.system('rm -rf x')\n", Where: testCC})
	if d.Decision == Allow || d.DefaultAnswer != No || !d.Warn || d.OfferAlways {
		t.Errorf("python in bash: %+v", d)
	}
	// Valid shell, dangerous Python: the REPL's patterns warn.
	d = e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: "python3", InShell: true, SessionProgram: "bash", Input: "import subprocess\n", Where: testCC})
	if d.Decision == Allow || !d.Warn || d.DefaultAnswer != No || d.OfferAlways {
		t.Errorf("import subprocess to python in bash: %+v", d)
	}
	// Programs that relay input to a shell are shells too, never granted.
	d = e.Decide(Action{Kind: SessionInput, Session: "term-3", Program: "ssh", Input: "rm -rf /srv\n", Where: testCC})
	if d.Decision == Allow || !d.Warn || d.OfferAlways {
		t.Errorf("ssh rm: %+v", d)
	}
	if d := e.Decide(Action{Kind: SessionInput, Session: "term-3", Program: "ssh", Input: "ls\n", Where: testCC}); d.Decision == Allow || d.OfferAlways {
		t.Errorf("ssh ls: %+v", d)
	}
}

func TestInputCompletesTheLineTypedBefore(t *testing.T) {
	e := newEngine(t, nil)
	// "os.sys" then "tem(...)": the line that runs is decided whole.
	d := e.Decide(Action{Kind: SessionInput, Session: "term-2", Program: "python3", Pending: "import os; os.sys", Input: "tem('rm -rf x')\n", Where: testCC})
	if d.Decision == Allow || !d.Warn {
		t.Errorf("split os.system: %+v", d)
	}
	// Enter alone runs what was typed before.
	d = e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Pending: "rm -rf x", Input: "\n", Where: testCC})
	if d.Decision == Allow || !d.Warn {
		t.Errorf("Enter after rm -rf: %+v", d)
	}
	if d := e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Input: "\n", Where: testCC}); d.Decision != Allow {
		t.Errorf("bare Enter: %+v", d)
	}
}

func TestAnswersToPrompts(t *testing.T) {
	e := newEngine(t, nil)
	d := e.Decide(Action{Kind: SessionInput, Session: "term-3", Program: "apt", Prompt: Question, PromptText: "Do you want to continue? [Y/n]", Input: "y\n", Where: testCC})
	if d.Decision != Ask || d.OfferAlways || d.Display != `answer → term-3 (apt) "Do you want to continue? [Y/n]": y` {
		t.Errorf("question: %+v", d)
	}
	// sudo at its password prompt, in a shell session: the line is the
	// password, hidden.
	d = e.Decide(Action{Kind: SessionInput, Session: "term-4", Program: "sudo", InShell: true, SessionProgram: "bash", Prompt: Secret, PromptText: "[sudo] password for u:", Input: "hunter2\n", Where: testCC})
	if d.Decision != Ask || strings.Contains(d.Display+d.Full, "hunter2") || d.OfferAlways {
		t.Errorf("sudo password: %+v", d)
	}
	// More than one line goes on to the shell: decided as shell code.
	d = e.Decide(Action{Kind: SessionInput, Session: "term-4", Program: "sudo", InShell: true, SessionProgram: "bash", Prompt: Secret, PromptText: "[sudo] password for u:", Input: "hunter2\nrm -rf ~\n", Where: testCC})
	if d.Decision == Allow || !d.Warn || !strings.Contains(d.Display, "rm") && !strings.Contains(d.Display, "delete") {
		t.Errorf("password then rm: %+v", d)
	}
	// A question from a program run by the shell: shown as the answer,
	// still decided as shell code.
	d = e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: "apt", InShell: true, SessionProgram: "bash", Prompt: Question, PromptText: "Do you want to continue? [Y/n]", Input: "y\n", Where: testCC})
	if d.Decision != Ask || d.OfferAlways || !strings.HasPrefix(d.Display, `answer → term-1 (bash, apt running) "Do you want to continue? [Y/n]": y`) {
		t.Errorf("apt question in bash: %+v", d)
	}
	d = e.Decide(Action{Kind: SessionInput, Session: "term-1", Program: "apt", InShell: true, SessionProgram: "bash", Prompt: Question, PromptText: "Continue? [Y/n]", Input: "rm -rf ~\n", Where: testCC})
	if d.Decision == Allow || !d.Warn || d.DefaultAnswer != No || !strings.HasPrefix(marked(d), "answer ⚠️ →") {
		t.Errorf("rm typed at a question in bash: %+v", d)
	}
	d = e.Decide(Action{Kind: SessionInput, Session: "term-4", Program: "gpg", Prompt: Secret, PromptText: "Enter passphrase:", Input: "hunter2\n", Where: testCC})
	if d.Decision != Ask || strings.Contains(d.Display+d.Full, "hunter2") || !strings.Contains(d.Display, "answer → term-4 (gpg)") || d.OfferAlways {
		t.Errorf("secret: %+v", d)
	}
}

func TestCodeWarningsSayWhy(t *testing.T) {
	got := codeWarnings(langPython, "import os; os.system('rm -rf x')")
	if len(got) != 1 || got[0] != "runs a command (os.system)" {
		t.Errorf("reasons %q", got)
	}
	if got := codeWarnings(langPython, "print('rm -rf /')"); len(got) != 1 || !strings.Contains(got[0], "destructive shell command") {
		t.Errorf("generic reasons %q", got)
	}
}

// TestSessionInputInUnknownDirectory: input to a session whose shell
// directory cannot be read (ssh, a container, no /proc) runs somewhere
// nobody can tell; nothing that depends on that directory is safe.
func TestSessionInputInUnknownDirectory(t *testing.T) {
	e := newEngine(t, nil)
	unknown := testCC
	unknown.CwdUnknown = true
	for _, in := range []string{"cat notes.txt", "ls", "grep -r KEY", "grep -r KEY .", "git status", "git log -p", "head -n 3 README.md", "ls /etc; cat x"} {
		act := Action{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Input: in + "\n", Where: testCC}
		if d := e.Decide(act); d.Decision != Allow {
			t.Fatalf("%q in a known directory: %s (the case proves nothing)", in, d.Decision)
		}
		act.Where = unknown
		if d := e.Decide(act); d.Decision == Allow {
			t.Errorf("%q in an unknown directory allowed: %+v", in, d)
		}
		if d := decideCmd(e, in, unknown); d.Decision == Allow {
			t.Errorf("run %q in an unknown directory allowed", in)
		}
	}
	// What does not depend on the directory still may be allowed.
	for _, in := range []string{"echo hi", "pwd"} {
		act := Action{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Input: in + "\n", Where: unknown}
		if d := e.Decide(act); d.Decision != Allow {
			t.Errorf("%q in an unknown directory: %+v", in, d)
		}
	}
}

// A line read with echo off (the terminal says so) while a prompt asks for
// a secret is a secret: masked, asked each time, never saved. Echo off in
// front of a code reader (a shell, a REPL, a relay) with no such prompt is
// shown, since echo can be turned off in front of code, but never saved;
// for any other program echo off alone is enough. The prompt's text alone
// (a remote shell) never saves a rule either.
func TestSecretReadByTheShell(t *testing.T) {
	e := newEngine(t, nil)
	base := Action{Kind: SessionInput, Session: "term-1", Program: "bash", Shell: true, InShell: true, SessionProgram: "bash", Where: testCC}
	hidden := func(name string, a Action) {
		t.Helper()
		d := e.Decide(a)
		if d.Decision != Ask || d.OfferAlways || d.Rule != "" || !d.Secret || strings.Contains(d.Display+d.Full+d.Subject, "hunter2") || !strings.Contains(d.Display, "•••") {
			t.Errorf("%s: %+v", name, d)
		}
	}
	shownNotSaved := func(name string, a Action) {
		t.Helper()
		d := e.Decide(a)
		if d.Decision == Allow || d.OfferAlways || d.Rule != "" || d.Secret || !strings.Contains(d.Display, "hunter2") {
			t.Errorf("%s: %+v", name, d)
		}
	}
	a := base
	a.SecretRead, a.Prompt, a.PromptText, a.Input = true, Secret, "Password:", "hunter2\n"
	hidden("read -s -p Password:", a)
	a.Pending, a.Input = "hunter2", "\n" // typed before Enter: the same read
	hidden("pending secret", a)
	a.Pending, a.Input = "", "hunter2\nrm -rf ~\n"
	if d := e.Decide(a); d.Decision == Allow || !d.Warn || d.OfferAlways || strings.Contains(d.Display+d.Full, "hunter2") {
		t.Errorf("secret then rm (the rest reaches the shell, decided as code): %+v", d)
	}

	a = base
	a.SecretRead, a.Input = true, "hunter2\n"
	shownNotSaved("the shell reads with echo off at no secret prompt", a)
	a = base
	a.Prompt, a.PromptText, a.Input = Secret, "Password:", "hunter2\n"
	shownNotSaved("a secret prompt the terminal could not confirm", a)
	py := Action{Kind: SessionInput, Session: "term-2", Program: "python3", Where: testCC, SecretRead: true, Input: "hunter2\n"}
	shownNotSaved("a REPL reading with echo off at no secret prompt", py)

	tool := Action{Kind: SessionInput, Session: "term-3", Program: "vault-login", InShell: true, SessionProgram: "bash", SecretRead: true, PromptText: "Token:", Input: "hunter2\n", Where: testCC}
	hidden("another program reading with echo off", tool)
}

// TestInlineCodeIsCode: code given to an interpreter on its command line
// is read as the same code typed into its REPL: what runs commands,
// deletes or writes files warns, in every spelling of the code option;
// what does not is asked as before.
func TestInlineCodeIsCode(t *testing.T) {
	e := newEngine(t, nil)
	for _, c := range []string{
		`python3 -c 'import os; os.system("id")'`, `python3 -Ic 'import subprocess'`, `python3 -c"import shutil; shutil.rmtree('x')"`,
		`node -e 'require("child_process").execSync("id")'`, `node --eval='fs.rmSync("x")'`, `node -p 'process.kill(1)'`,
		`ruby -e 'system("id")'`, `perl -e 'system("id")'`, `perl -ne 'unlink($_)' list`, `php -r 'shell_exec("id");'`,
		`lua -e 'os.execute("id")'`, `python3 -c 'print("rm -rf /")'`,
	} {
		d := decideCmd(e, c, testCC)
		if d.Decision == Allow || !d.Warn || d.DefaultAnswer != No || d.Safety != Dangerous {
			t.Errorf("%s: %+v", c, d)
		}
	}
	for _, c := range []string{`python3 -c 'print(6*7)'`, `node -e 'console.log(1)'`, `ruby -e 'puts 1'`, `perl -ne 'print if /x/' f`, `python3 script.py -c x`} {
		if d := decideCmd(e, c, testCC); d.Warn {
			t.Errorf("%s: warned (%+v)", c, d)
		}
	}
}
