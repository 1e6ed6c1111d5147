package approval

import (
	"context"
	"fmt"
	"strings"

	"github.com/nb-cli/nb/internal/agent"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/render/style"
	"github.com/nb-cli/nb/internal/visible"
)

// Release asks whether secrets withheld from a text (from says which:
// "the result of run: cat .env") may go to the model after all:
//
//	⊘ withheld 1 secret (github-pat) from the result of run: cat .env
//	  send it to the model?  [y]es  [N]o  [?] show
//
// The answer is a single key; Enter, Esc and N keep them withheld; `?`
// shows the values (they are the user's, on the user's terminal). Ctrl+C
// keeps them withheld and returns ErrInterrupted.
func (p *Prompter) Release(ctx context.Context, from string, found []redact.Found) (bool, error) {
	if len(found) == 0 {
		return false, nil
	}
	if p.In == nil || p.Out == nil {
		return false, ErrNoTerminal
	}
	if p.Fd >= 0 {
		restore, err := rawMode(p.Fd)
		if err != nil {
			return false, fmt.Errorf("approval: raw mode: %w", err)
		}
		defer restore()
		discardInput(p.Fd)
	}
	s := &session{p: p, keys: &keyReader{r: p.In, fd: p.Fd}, w: crlfWriter{p.Out}}
	pal := p.Palette
	width := s.width()
	what := agent.Describe(redact.Summarize(found))
	s.line(style.Truncate(pal.Warn(style.IconRefused)+" "+pal.Bold("withheld "+what)+" from "+style.Sanitize(from), width))
	pronoun := "them"
	if len(found) == 1 {
		pronoun = "it"
	}
	hints := fitChoices(width, []string{pal.Muted("send " + pronoun + " to the model?"), pal.KeyHint("y", "es"), pal.KeyHint("N", "o"), pal.KeyHint("?", " show")},
		[]string{pal.KeyHint("y", "es"), pal.KeyHint("N", "o"), pal.KeyHint("?", "")}) + " "
	s.ask(hints)
	for {
		k, err := s.keys.read(ctx)
		if err != nil {
			s.finish("withheld")
			return false, err
		}
		switch {
		case k.kind == keyCtrlC:
			s.finish("withheld (interrupted)")
			return false, ErrInterrupted
		case k.kind == keyEnter || k.kind == keyEsc || k.kind == keyCtrlD || k.r == 'n' || k.r == 'N':
			s.finish("withheld")
			return false, nil
		case k.r == 'y' || k.r == 'Y':
			s.finish("sent to the model")
			// the call's line says withheld: what happened next stays
			fmt.Fprint(s.w, "  "+pal.Muted("released to the model: "+what)+"\n")
			return true, nil
		case k.r == '?':
			fmt.Fprint(s.w, "\n")
			for _, f := range found {
				v, cut := visible.Elide(f.Value, 160, 64)
				shown := v.Head
				if cut {
					shown += " " + v.Marker() + " " + v.Tail
				}
				s.line("  " + pal.Muted(style.Sanitize(f.Kind)+": ") + visible.String(strings.ReplaceAll(shown, "\n", "↵")))
			}
			s.ask(hints)
		}
	}
}
