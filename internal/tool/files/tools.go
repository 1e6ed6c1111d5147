package files

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nb-cli/nb/internal/changes"
	"github.com/nb-cli/nb/internal/fsfacts"
	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/regular"
	"github.com/nb-cli/nb/internal/secrets"
	"github.com/nb-cli/nb/internal/tool"
)

//go:embed descriptions/*.txt
var descriptions embed.FS

var description = tool.Descriptions(descriptions, "descriptions")

// Defaults for Options.
const (
	DefaultMaxReadBytes  = 256 << 10
	DefaultMaxWriteBytes = 10 << 20
	DefaultMaxEntries    = 1000
)

// Options configures the file tools.
type Options struct {
	Roots *Roots
	// MaxReadBytes bounds what read_file returns in one call.
	MaxReadBytes int
	// MaxWriteBytes bounds the content write_file accepts.
	MaxWriteBytes int
	// MaxEntries bounds list_dir.
	MaxEntries int
	// Policy decides every call (required). It decides reads as the
	// equivalent command (cat PATH, ls -la PATH) on the resolved path, so
	// sensitive paths, deny rules and grants apply to the file tools as
	// they do to run_cmd.
	Policy tool.Policy
	// Home is the home directory, for the policy's view of ~.
	Home string
	// Here, when set, says whether the files these tools see are the
	// files commands run on: an error (the active terminal is a remote
	// host) refuses the writing tools with it.
	Here func() error
}

// New returns the file tools: read_file, write_file, edit_file, list_dir,
// path_info.
func New(opts Options) []tool.Tool {
	if opts.MaxReadBytes <= 0 {
		opts.MaxReadBytes = DefaultMaxReadBytes
	}
	if opts.MaxWriteBytes <= 0 {
		opts.MaxWriteBytes = DefaultMaxWriteBytes
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	if opts.Roots == nil || opts.Policy == nil {
		panic("files.New: Roots and Policy are required")
	}
	b := &base{opts: opts}
	return []tool.Tool{&readFile{b}, &writeFile{b}, &editFile{b}, &listDir{b}, &pathInfo{b}}
}

type base struct {
	opts Options

	linksOnce sync.Once
	links     *secrets.Links
}

// resolve resolves path against cwd, or the first root when cwd is empty
// or outside the roots.
func (b *base) resolve(path, cwd string) (string, error) {
	if cwd != "" {
		if _, err := b.opts.Roots.Resolve(cwd, ""); err != nil {
			cwd = ""
		}
	}
	return b.opts.Roots.Resolve(path, cwd)
}

// decide asks the policy about a file action on resolved path p. The
// disk's facts count a file with several hard links as one that may hold
// a secret (linkFacts): it may be another name of one, so a read allowed
// for its name alone is asked instead.
func (b *base) decide(kind policy.Kind, shown, p, cwd, content string) *policy.Decision {
	facts := &linkFacts{Disk: fsfacts.Disk{Home: b.opts.Home}, links: b.secretLinks()}
	d := b.opts.Policy.Decide(policy.Action{
		Kind: kind, Path: p, Shown: shown, Content: content,
		Where: policy.CommandContext{Cwd: b.cwdOrRoot(cwd), Home: b.opts.Home, Isolation: policy.IsolationNone, Facts: facts},
	})
	if facts.why != "" && d.Decision != policy.Allow {
		d.Reasons = append(d.Reasons, facts.why)
	}
	return d
}

// secretLinks is the index of secret files by identity, built when first
// needed.
func (b *base) secretLinks() *secrets.Links {
	b.linksOnce.Do(func() { b.links = secrets.NewLinks(b.opts.Home, b.opts.Roots.Dirs()...) })
	return b.links
}

// linkFacts are the disk's facts where a file with several hard links
// counts as one whose content may be a secret: a hard link of a secret
// file is that secret, and one whose other names nb does not know is no
// proof of safety for a read allowed only for its name.
type linkFacts struct {
	fsfacts.Disk
	links *secrets.Links
	// why says which file counted, and why.
	why string
}

// SecretContent implements policy.Facts.
func (f *linkFacts) SecretContent(p string) bool {
	switch secret, several := secrets.LinkedSecret(p, f.Home, f.links); {
	case secret != "":
		f.why = fmt.Sprintf("%s is another name of %s, a secret file", p, secrets.Shown(secret, f.Home))
		return true
	case several:
		f.why = fmt.Sprintf("%s has several hard links whose other names nb does not know", p)
		return true
	}
	return f.Disk.SecretContent(p)
}

func schema(s string) json.RawMessage { return json.RawMessage(s) }

// ---- read_file

type readFile struct{ *base }

type readArgs struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	LineCount int    `json:"lineCount"`
}

func (t *readFile) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "read_file", Description: description("read_file"), Schema: schema(`{"type":"object","properties":{"path":{"type":"string","description":"File to read"},"startLine":{"type":"integer","minimum":1,"description":"First line to return (1-based)"},"lineCount":{"type":"integer","minimum":1,"description":"Number of lines to return"}},"required":["path"],"additionalProperties":false}`)}
}

// Review implements tool.Tool.
func (t *readFile) Review(_ context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	var a readArgs
	if err := tool.DecodeArgs(call.Args, &a); err != nil {
		return nil, err
	}
	if a.StartLine < 0 || a.LineCount < 0 {
		return nil, errors.New("startLine and lineCount must be positive")
	}
	p, err := t.resolve(a.Path, at.Cwd)
	if err != nil {
		return nil, err
	}
	return tool.Stays(at, t.decide(policy.ReadFile, a.Path, p, at.Cwd, ""), func(context.Context) (*tool.Result, error) {
		return t.read(a, p), nil
	}), nil
}

func (t *readFile) read(a readArgs, p string) *tool.Result {
	root, rel, err := t.opts.Roots.in(p)
	if err != nil {
		return tool.Errorf("read %s: %v", a.Path, err)
	}
	if fi, err := root.Stat(rel); err == nil && fi.IsDir() {
		return tool.Errorf("read %s: is a directory (use list_dir)", a.Path)
	}
	// Only regular files: opening a FIFO would wait for a writer and
	// reading a device might never end. Opened beneath the root: nothing
	// swapped in since the review can lead out of it.
	f, err := regular.OpenIn(root, rel)
	if errors.Is(err, regular.ErrNotRegular) {
		return tool.Errorf("read %s: %v", a.Path, strings.TrimPrefix(err.Error(), rel+" "))
	}
	if err != nil {
		return tool.Errorf("read %s: %v", a.Path, unwrap(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return tool.Errorf("read %s: %v", a.Path, unwrap(err))
	}
	if fi.IsDir() {
		return tool.Errorf("read %s: is a directory (use list_dir)", a.Path)
	}
	max := t.opts.MaxReadBytes
	head := make([]byte, 8192)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if isBinary(head, n < len(head)) {
		return &tool.Result{Content: fmt.Sprintf("[binary file %s, %s, not shown]", a.Path, humanSize(fi.Size()))}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return tool.Errorf("read %s: %v", a.Path, err)
	}
	if a.StartLine == 0 && a.LineCount == 0 {
		if fi.Size() > int64(max) {
			return tool.Errorf("read %s: file is %s, over the %s limit; pass startLine and lineCount to read part of it, or use run_cmd with grep/head/tail", a.Path, humanSize(fi.Size()), humanSize(int64(max)))
		}
		data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
		if err != nil {
			return tool.Errorf("read %s: %v", a.Path, unwrap(err))
		}
		if len(data) > max {
			return tool.Errorf("read %s: file grew over the %s limit while reading", a.Path, humanSize(int64(max)))
		}
		if !utf8.Valid(data) {
			return &tool.Result{Content: fmt.Sprintf("[binary file %s, %s, not shown]", a.Path, humanSize(int64(len(data))))}
		}
		return &tool.Result{Content: string(data), Note: humanSize(int64(len(data)))}
	}
	start := max1(a.StartLine)
	count := a.LineCount
	var out bytes.Buffer
	r := bufio.NewReader(f)
	line, got, truncated := 0, 0, false
	for {
		s, err := r.ReadString('\n')
		if len(s) > 0 {
			line++
			if line >= start && (count == 0 || got < count) {
				if out.Len()+len(s) > max {
					truncated = true
					break
				}
				out.WriteString(s)
				got++
			}
			if count > 0 && got >= count {
				break
			}
		}
		if err != nil {
			break
		}
	}
	if !utf8.Valid(out.Bytes()) {
		return &tool.Result{Content: fmt.Sprintf("[binary file %s, %s, not shown]", a.Path, humanSize(fi.Size()))}
	}
	if got == 0 && !truncated {
		return &tool.Result{Content: fmt.Sprintf("[no lines: %s has %d lines]", a.Path, line)}
	}
	if truncated {
		fmt.Fprintf(&out, "\n[... stopped after line %d at the %s limit; continue with startLine %d ...]\n", start+got-1, humanSize(int64(max)), start+got)
	}
	return &tool.Result{Content: out.String()}
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// isBinary reports NUL bytes or invalid UTF-8 in a file's first bytes. A
// multi-byte character cut by the end of the sample is not counted.
func isBinary(b []byte, whole bool) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	if !whole {
		for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
			if utf8.Valid(b) {
				return false
			}
			b = b[:len(b)-1]
		}
	}
	return !utf8.Valid(b)
}

// ---- write_file

type writeFile struct{ *base }

type writeArgs struct {
	Path    string  `json:"path"`
	Content *string `json:"content"`
}

func (t *writeFile) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "write_file", Description: description("write_file"), Schema: schema(`{"type":"object","properties":{"path":{"type":"string","description":"File to write"},"content":{"type":"string","description":"The complete new content of the file"}},"required":["path","content"],"additionalProperties":false}`)}
}

func (t *writeFile) args(raw json.RawMessage, cwd string) (writeArgs, string, error) {
	var a writeArgs
	if err := tool.DecodeArgs(raw, &a); err != nil {
		return a, "", err
	}
	if a.Content == nil {
		return a, "", errors.New("content is required")
	}
	if len(*a.Content) > t.opts.MaxWriteBytes {
		return a, "", fmt.Errorf("content is %s, over the %s limit", humanSize(int64(len(*a.Content))), humanSize(int64(t.opts.MaxWriteBytes)))
	}
	if err := t.here(); err != nil {
		return a, "", err
	}
	p, err := t.resolve(a.Path, cwd)
	if err != nil {
		return a, "", err
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return a, "", fmt.Errorf("%s is a directory", a.Path)
	}
	return a, p, nil
}

// Review implements tool.Tool: the change is what the file holds now
// against the content (an existing file's line ends, byte order mark
// and mode kept); Run writes it if the file still holds what was read.
func (t *writeFile) Review(_ context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	a, p, err := t.args(call.Args, at.Cwd)
	if err != nil {
		return nil, err
	}
	fsys, before, err := t.current(a.Path, p)
	if err != nil {
		return nil, err
	}
	after := changes.State{Type: changes.Regular, Mode: 0o644, Data: []byte(*a.Content)}
	verb := "created"
	if before.Exists() {
		if before.Type != changes.Regular {
			return nil, fmt.Errorf("%s is a %s, not a file", a.Path, before.Type)
		}
		verb, after.Mode = "overwrote", before.Mode
		if before.Text() {
			after.Data = formOf(before.Data).rewrite(*a.Content)
		}
	}
	set := &changes.Set{Files: []changes.File{{Path: p, Before: before, After: after}}}
	d := t.decide(policy.WriteFile, a.Path, p, at.Cwd, *a.Content)
	inv := tool.Stays(at, d, func(context.Context) (*tool.Result, error) {
		return t.apply(fsys, set, a.Path, fmt.Sprintf("%s %s (%d bytes)", verb, p, len(after.Data))), nil
	})
	inv.Changes = set
	return inv, nil
}

// ---- list_dir

type listDir struct{ *base }

type listArgs struct {
	Path string `json:"path"`
}

func (t *listDir) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "list_dir", Description: description("list_dir"), Schema: schema(`{"type":"object","properties":{"path":{"type":"string","description":"Directory to list (default: the current working directory)"}},"additionalProperties":false}`)}
}

func (t *listDir) path(raw json.RawMessage, cwd string) (string, string, error) {
	var a listArgs
	if err := tool.DecodeArgs(raw, &a); err != nil {
		return "", "", err
	}
	if a.Path == "" {
		a.Path = "."
	}
	p, err := t.resolve(a.Path, cwd)
	return a.Path, p, err
}

// Review implements tool.Tool.
func (t *listDir) Review(_ context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	shown, p, err := t.path(call.Args, at.Cwd)
	if err != nil {
		return nil, err
	}
	return tool.Stays(at, t.decide(policy.ListDir, shown, p, at.Cwd, ""), func(context.Context) (*tool.Result, error) {
		return t.list(shown, p), nil
	}), nil
}

func (t *listDir) list(shown, p string) *tool.Result {
	root, rel, err := t.opts.Roots.in(p)
	if err != nil {
		return tool.Errorf("list %s: %v", shown, err)
	}
	d, err := root.Open(rel)
	if err != nil {
		return tool.Errorf("list %s: %v", shown, unwrap(err))
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return tool.Errorf("list %s: %v", shown, unwrap(err))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d entries)\n", p, len(entries))
	for i, e := range entries {
		if i == t.opts.MaxEntries {
			fmt.Fprintf(&b, "[... %d more entries not shown ...]\n", len(entries)-i)
			break
		}
		name := e.Name()
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			target, _ := root.Readlink(filepath.Join(rel, name))
			fmt.Fprintf(&b, "%s -> %s\n", name, target)
		case e.IsDir():
			fmt.Fprintf(&b, "%s/\n", name)
		default:
			size := ""
			if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
				size = "\t" + humanSize(fi.Size())
			}
			fmt.Fprintf(&b, "%s%s\n", name, size)
		}
	}
	return &tool.Result{Content: b.String()}
}

// ---- path_info

type pathInfo struct{ *base }

func (t *pathInfo) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "path_info", Description: description("path_info"), Schema: schema(`{"type":"object","properties":{"path":{"type":"string","description":"Path to describe"}},"required":["path"],"additionalProperties":false}`)}
}

func (t *pathInfo) path(raw json.RawMessage, cwd string) (string, string, error) {
	var a listArgs
	if err := tool.DecodeArgs(raw, &a); err != nil {
		return "", "", err
	}
	p, err := t.resolve(a.Path, cwd)
	return a.Path, p, err
}

// Review implements tool.Tool.
func (t *pathInfo) Review(_ context.Context, call *tool.Call, at tool.At) (*tool.Invocation, error) {
	shown, p, err := t.path(call.Args, at.Cwd)
	if err != nil {
		return nil, err
	}
	return tool.Stays(at, t.decide(policy.PathInfo, shown, p, at.Cwd, ""), func(context.Context) (*tool.Result, error) {
		return t.info(shown, p, at.Cwd), nil
	}), nil
}

// Info is path_info's answer.
type Info struct {
	Path     string `json:"path"`
	Resolved string `json:"resolved"`
	Exists   bool   `json:"exists"`
	Type     string `json:"type,omitempty"`
	Size     int64  `json:"size,omitempty"`
	Mode     string `json:"mode,omitempty"`
	Modified string `json:"modified,omitempty"`
	// Symlink is the link's target when the path itself is a symlink.
	Symlink string `json:"symlink,omitempty"`
}

func (t *pathInfo) info(shown, p, cwd string) *tool.Result {
	info := Info{Path: shown, Resolved: p}
	abs := shown
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(t.cwdOrRoot(cwd), abs)
	}
	if root, rel, err := t.opts.Roots.in(filepath.Clean(abs)); err == nil {
		if lfi, err := root.Lstat(rel); err == nil && lfi.Mode()&fs.ModeSymlink != 0 {
			info.Symlink, _ = root.Readlink(rel)
		}
	}
	root, rel, err := t.opts.Roots.in(p)
	if err != nil {
		return tool.Errorf("path_info %s: %v", shown, err)
	}
	if fi, err := root.Stat(rel); err == nil {
		info.Exists = true
		info.Mode = fmt.Sprintf("%04o", fi.Mode().Perm())
		info.Modified = fi.ModTime().UTC().Format(time.RFC3339)
		switch {
		case fi.IsDir():
			info.Type = "dir"
		case fi.Mode().IsRegular():
			info.Type, info.Size = "file", fi.Size()
		default:
			info.Type = "other"
		}
	}
	out, _ := json.Marshal(info)
	return &tool.Result{Content: string(out)}
}

func (b *base) cwdOrRoot(cwd string) string {
	if cwd != "" {
		if _, err := b.opts.Roots.Resolve(cwd, ""); err == nil {
			return cwd
		}
	}
	return b.opts.Roots.dirs[0]
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func humanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
