package askpass

import (
	"slices"
	"testing"

	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool/tooltest"
)

func decide(e *policy.Engine, command string) *policy.Decision {
	return e.Decide(policy.Action{Kind: policy.RunCommand, Command: command,
		Where: policy.CommandContext{Cwd: "/home/u", Home: "/home/u", Isolation: policy.IsolationNone}})
}

// The policy judges what the model sends, never what nb runs: a command
// the user allowed still asks once the model adds its own askpass, its own
// password on sudo's standard input, a way around nb's sudo, or nb's helper.
func TestPolicyKeepsTheModelAwayFromThePassword(t *testing.T) {
	e := tooltest.Engine(t, func(o *policy.Options) { o.Approve = []string{"sudo systemctl restart nginx"} })
	if d := decide(e, "sudo systemctl restart nginx"); d.Decision != policy.Allow {
		t.Fatalf("the approved command: %s %v", d.Decision, d.Reasons)
	}
	for _, c := range []string{
		"SUDO_ASKPASS=/tmp/mine sudo systemctl restart nginx",
		"export SUDO_ASKPASS=/tmp/mine; sudo systemctl restart nginx",
		"env SUDO_ASKPASS=/tmp/mine sudo systemctl restart nginx",
		"printf 'guess\\n' | sudo -S systemctl restart nginx",
		"sudo -S systemctl restart nginx <<< guess",
		"sudo --stdin systemctl restart nginx",
		"PATH=/usr/bin sudo systemctl restart nginx",
		`"$SUDO_ASKPASS" 'Password:'`,
		"nb __sudo-askpass @nb-sudo-0 'Password:'",
	} {
		if d := decide(e, c); d.Decision == policy.Allow {
			t.Errorf("%s: allowed (%v)", c, d.Reasons)
		}
	}
}

// nb adds -A to the sudo it runs; a command's words under sudo are judged
// as they are without it.
func TestPolicyJudgesSudoWithOrWithoutAskpass(t *testing.T) {
	e := tooltest.Engine(t, nil)
	for _, c := range []string{"systemctl restart nginx", "cat /etc/shadow", "rm -rf /var/lib/app", "ls /root"} {
		plain, with := decide(e, "sudo "+c), decide(e, "sudo -A "+c)
		if plain.Decision != with.Decision || plain.Safety != with.Safety || plain.Warn != with.Warn || !slices.Equal(plain.Reasons, with.Reasons) {
			t.Errorf("%s: %s %s %v %v, with -A %s %s %v %v", c, plain.Decision, plain.Safety, plain.Warn, plain.Reasons, with.Decision, with.Safety, with.Warn, with.Reasons)
		}
	}
}
