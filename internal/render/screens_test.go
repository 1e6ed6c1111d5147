package render

import (
	goio "io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/tool"
)

// TestScreens draws the screens shown in docs/ui.md. Run with
// NB_UI_SCREENS=1 and -v to print them.
func TestScreens(t *testing.T) {
	if os.Getenv("NB_UI_SCREENS") == "" {
		t.Skip("set NB_UI_SCREENS=1 to print the documentation screens")
	}
	ctx := ctxT(t)
	for _, w := range []int{80, 40} {
		io, scr := ttyIO(w, false)
		keysR, keysW := goio.Pipe()
		p := &approval.Prompter{In: keysR, Fd: -1, Out: scr, Width: func() int { return w }}
		term := New(io, Options{Markdown: true, Approver: p, Frame: 5 * time.Millisecond, LiveDelay: time.Millisecond})

		ask := func(batch []*agent.Pending, keys string) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _ = term.Approve(ctx, batch)
			}()
			if err := scr.WaitText(ctx, "[?]"); err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
			t.Logf("prompt at %d columns:\n%s", w, scr.String())
			_, _ = keysW.Write([]byte(keys))
			<-done
		}
		run := func(p *agent.Pending, res *tool.Result, out ...string) {
			v := term.ToolStart(p)
			for _, o := range out {
				v.Output("stdout", []byte(o))
			}
			if len(out) > 0 {
				if err := scr.WaitText(ctx, strings.TrimSpace(out[len(out)-1])); err != nil {
					t.Fatal(err)
				}
				t.Logf("live area at %d columns:\n%s", w, scr.String())
			}
			v.Done(res)
		}
		d := func(verdict policy.Verdict, display string, warn bool, reasons ...string) *policy.Decision {
			dec := &policy.Decision{Decision: verdict, Display: display, Warn: warn, DefaultAnswer: "yes", OfferAlways: !warn, Rule: strings.Fields(strings.SplitN(display, ": ", 2)[1])[0] + " *", Reasons: reasons, Full: display}
			if warn {
				dec.DefaultAnswer, dec.Rule = "no", ""
			}
			return dec
		}
		pend := func(dec *policy.Decision, desc string) *agent.Pending {
			return &agent.Pending{Call: &tool.Call{Name: "run_cmd"}, Decision: dec, Description: desc}
		}
		term.Text("I'll check the service status and its configuration.\n")
		term.EndText()
		run(pend(d(policy.Allow, "run: systemctl status nginx --no-pager", false), ""), &tool.Result{ExitCode: exit(3), Duration: 41 * time.Millisecond, Note: "Active: failed (Result: exit-code)"})
		run(pend(d(policy.Allow, "read: /etc/nginx/nginx.conf", false), ""), &tool.Result{ExitCode: exit(0), Duration: 3 * time.Millisecond})
		single := pend(d(policy.Ask, "run: nginx -t", false), "Test the configuration for syntax errors")
		single.Decision.Rule = "nginx -t *"
		ask([]*agent.Pending{single}, "y")
		run(single, &tool.Result{ExitCode: exit(1), Duration: 28 * time.Millisecond, Note: `nginx: [emerg] unexpected "}" in /etc/nginx/nginx.conf:12`})
		batch := []*agent.Pending{
			pend(d(policy.Ask, "copy: /etc/nginx/nginx.conf → /tmp/nginx.conf.bak", false), "Back up the config"),
			pend(d(policy.Ask, "write: /etc/nginx/nginx.conf", true, "writes /etc/nginx/nginx.conf"), "Add the missing semicolon"),
			pend(d(policy.Ask, "run: nginx -t", false), ""),
			pend(d(policy.Ask, "run: systemctl restart nginx", false), ""),
		}
		ask(batch, "y")
		run(batch[0], &tool.Result{ExitCode: exit(0), Duration: 4 * time.Millisecond})
		run(batch[1], &tool.Result{ExitCode: exit(0), Duration: 5 * time.Millisecond})
		run(batch[2], &tool.Result{ExitCode: exit(0), Duration: 30 * time.Millisecond})
		run(batch[3], &tool.Result{ExitCode: exit(0), Duration: 1200 * time.Millisecond}, "Job for nginx.service restarting...\n", "waiting for nginx.service\n")
		term.Text("## Fixed\n\nLine 12 of `nginx.conf` was missing a `;`. I added it, checked the\nconfiguration with `nginx -t` and restarted the service:\n\n- **nginx** is `active (running)` again\n- a backup is in `/tmp/nginx.conf.bak`\n")
		term.EndText()
		t.Logf("transcript at %d columns:\n%s", w, scr.String())
		_ = keysW.Close()
		_ = term.Close()
		scr.Close()
	}
}
