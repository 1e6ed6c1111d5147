package files

import (
	"context"
	"errors"
	"fmt"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/textdiff"
	"github.com/nb-cli/nb/internal/tool"
)

// ---- edit_file

type editFile struct{ *base }

type editArgs struct {
	Path       string  `json:"path"`
	OldText    *string `json:"oldText"`
	NewText    *string `json:"newText"`
	ReplaceAll bool    `json:"replaceAll"`
}

func (t *editFile) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "edit_file", Description: description("edit_file"), Schema: schema(`{"type":"object","properties":{"path":{"type":"string","description":"File to edit"},"oldText":{"type":"string","description":"The exact text to replace, as it is in the file (whitespace and line breaks included); it must occur once unless replaceAll is set"},"newText":{"type":"string","description":"The text to put in its place"},"replaceAll":{"type":"boolean","description":"Replace every occurrence of oldText (default false)"}},"required":["path","oldText","newText"],"additionalProperties":false}`)}
}

// Review implements tool.Tool: it reads the file, makes the edit in
// memory and asks the policy about it with the diff; Run writes exactly
// that, if the file still holds what was read.
func (t *editFile) Review(_ context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	var a editArgs
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if a.OldText == nil || a.NewText == nil {
		return nil, errors.New("oldText and newText are required")
	}
	if err := t.here(); err != nil {
		return nil, err
	}
	p, err := t.resolve(a.Path, at.Cwd)
	if err != nil {
		return nil, err
	}
	fsys, before, err := t.current(a.Path, p)
	if err != nil {
		return nil, err
	}
	switch {
	case !before.Exists():
		return nil, fmt.Errorf("%s does not exist (create it with write_file)", a.Path)
	case before.Type != changes.Regular:
		return nil, fmt.Errorf("%s is a %s, not a file", a.Path, before.Type)
	case !before.Text():
		return nil, fmt.Errorf("%s is binary (%s): edit_file edits text", a.Path, humanSize(int64(len(before.Data))))
	}
	data, n, err := replaceText(before.Data, *a.OldText, *a.NewText, a.ReplaceAll)
	if err != nil {
		return nil, fmt.Errorf("edit %s: %w", a.Path, err)
	}
	if len(data) > t.opts.MaxWriteBytes {
		return nil, fmt.Errorf("edit %s: the file would be %s, over the %s limit", a.Path, humanSize(int64(len(data))), humanSize(int64(t.opts.MaxWriteBytes)))
	}
	set := &changes.Set{Files: []changes.File{{Path: p, Before: before, After: changes.State{Type: changes.Regular, Mode: before.Mode, Data: data}}}}
	d := t.decide(policy.EditFile, a.Path, p, at.Cwd, set.Patch(t.cwdOrRoot(at.Cwd)))
	inv := tool.Stays(at, d, func(context.Context) (*tool.Result, error) {
		return t.apply(fsys, set, a.Path, fmt.Sprintf("edited %s: %s", p, places(n))), nil
	})
	inv.Changes = set
	return inv, nil
}

func places(n int) string {
	if n == 1 {
		return "replaced 1 occurrence"
	}
	return fmt.Sprintf("replaced %d occurrences", n)
}

// here is the error for a file tool used while commands run elsewhere.
func (b *base) here() error {
	if b.opts.Here == nil {
		return nil
	}
	return b.opts.Here()
}

// current reads what the resolved path p holds now.
func (b *base) current(shown, p string) (*changes.FS, changes.State, error) {
	fsys, err := b.opts.Roots.fsOf(p)
	if err != nil {
		return nil, changes.State{}, err
	}
	s, err := fsys.Read(p)
	if err != nil {
		return nil, changes.State{}, fmt.Errorf("%s: %v", shown, unwrap(err))
	}
	return fsys, s, nil
}

// apply writes the reviewed change and says what changed: the line
// counts of the diff, which the model can check against its intent.
func (b *base) apply(fsys *changes.FS, set *changes.Set, shown, done string) *tool.Result {
	if err := changes.Apply(fsys, set); err != nil {
		if _, ok := changes.IsConflict(err); ok {
			return tool.Errorf("not written: %s changed on disk since this call was reviewed; read it again", shown)
		}
		return tool.Errorf("write %s: %v", shown, unwrap(err))
	}
	f := set.Files[0]
	if d := f.Diff(); d != nil {
		added, removed := textdiff.Stats(d)
		done += fmt.Sprintf(" (+%d -%d lines)", added, removed)
	}
	return &tool.Result{Content: done, Changes: set}
}
