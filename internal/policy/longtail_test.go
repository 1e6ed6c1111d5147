package policy

import (
	"strings"
	"testing"
)

// The secrets package's long tail reaches every decision: credential
// files of mail, package and cloud tools, other shells' histories,
// browsers' and Electron applications' cookies and sessions (home globs),
// editors' backups of a secret, and variables whose last word says they
// hold one (_PWD, _PAT, _JWT…). Reading any of them is asked as a secret
// read (the reason says so), offers no Always, and is not approved by a
// rule with a *. PWD, OLDPWD and a variable that only begins with a
// secret's word are not secrets.
func TestLongTailSecrets(t *testing.T) {
	e := newEngine(t, nil)
	star := newEngine(t, func(o *Options) {
		o.Approval.Allow = []string{"cat *", "head *", "strings *", "echo *", "printf *", "printenv *"}
	})
	cc := CommandContext{Cwd: "/home/u/proj", Home: "/home/u"}
	for _, cmd := range []string{
		"cat ~/.config/pypoetry/auth.toml",
		"cat ~/.m2/settings-security.xml",
		"cat ~/.pulumi/credentials.json",
		"cat ~/.config/nushell/history.txt",
		"head ~/.local/share/powershell/PSReadLine/ConsoleHost_history.txt",
		"cat ~/.local/share/fish/fish_history",
		"cat ~/.thunderbird/x.default/logins.json",
		"cat ~/.config/Slack/Cookies",
		"cat ~/.mozilla/firefox/x.default/cookies.sqlite",
		"strings '/home/u/.config/google-chrome/Default/Local Storage/leveldb/000003.log'",
		"cat ~/.netrc.bak",
		"cat ~/.gitconfig~",
		"cat ~/.zsh_history~",
		"cat ~/.ssh/id_ed25519.bak",
		"cat ~/.vnc/passwd",
		"cat pgadmin4.db",
		"echo $MYSQL_PWD",
		"printf '%s' \"$GITHUB_PAT\"",
		"echo ${API_JWT}",
		"printenv DB_PASSPHRASE",
	} {
		d := e.Decide(Action{Kind: RunCommand, Command: cmd, Where: cc})
		if d.Decision == Allow || d.OfferAlways || !strings.Contains(strings.Join(d.Reasons, "; "), "sensitive") {
			t.Errorf("%q: %s by %s, Always %v, %q; want asked as a secret read", cmd, d.Decision, d.DecidedBy, d.OfferAlways, d.Reasons)
		}
		if d := star.Decide(Action{Kind: RunCommand, Command: cmd, Where: cc}); d.Decision == Allow {
			t.Errorf("%q: allowed by a rule with a * (%s)", cmd, d.DecidedBy)
		}
	}
	for _, cmd := range []string{"echo $PWD", "echo $OLDPWD", "echo $JWT_ALGORITHM", "cat ~/.config/git/ignore"} {
		if d := e.Decide(Action{Kind: RunCommand, Command: cmd, Where: cc}); d.Decision != Allow {
			t.Errorf("%q: %s %q", cmd, d.Decision, d.Reasons)
		}
	}
}
