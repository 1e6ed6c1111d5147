package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Outputs keeps the full output of commands whose result was cut, in
// StateDir/outputs, so the model can grep them instead of re-running. The
// directory is bounded: when it is opened and after every saved output,
// files older than MaxAge are removed, then the oldest files until at most
// MaxFiles remain and they total at most MaxBytes (the newest file is kept
// unless it is older than MaxAge). A single file is capped at MaxFileBytes by its writer.
// Files still being written are never removed (Windows cannot remove an open
// file, and elsewhere the path handed out would vanish).
type Outputs struct {
	Dir      string
	MaxFiles int
	MaxBytes int64
	// MaxAge bounds how long an output is kept (0: DefaultOutputAge).
	MaxAge time.Duration
	Now    func() time.Time

	mu   sync.Mutex
	seq  int
	open map[string]bool // names of files being written
}

// DefaultOutputAge is how long saved outputs are kept.
const DefaultOutputAge = 14 * 24 * time.Hour

// NewOutputs keeps outputs in stateDir/outputs; zero limits take the
// defaults of terminalIntegration (50 files, 256 MiB). Outputs beyond the
// limits, or older than DefaultOutputAge, are removed at once.
func NewOutputs(stateDir string, maxFiles int, maxBytes int64) *Outputs {
	if maxFiles <= 0 {
		maxFiles = 50
	}
	if maxBytes <= 0 {
		maxBytes = 256 << 20
	}
	o := &Outputs{Dir: filepath.Join(stateDir, "outputs"), MaxFiles: maxFiles, MaxBytes: maxBytes, MaxAge: DefaultOutputAge, Now: time.Now}
	_ = o.Prune()
	return o
}

// MaxFileBytes is the cap for one saved output: a quarter of MaxBytes, so a
// huge output cannot push out all the others.
func (o *Outputs) MaxFileBytes() int64 { return max(o.MaxBytes/4, 1) }

// OutputFile is one saved output being written. Close prunes the directory.
type OutputFile struct {
	*os.File
	o    *Outputs
	name string
}

// Close closes the file and removes the oldest outputs beyond the limits.
func (f *OutputFile) Close() error {
	err := f.File.Close()
	f.o.mu.Lock()
	delete(f.o.open, f.name)
	f.o.mu.Unlock()
	if perr := f.o.Prune(); err == nil {
		err = perr
	}
	return err
}

// Create opens a new output file named after the time and kind ("stdout",
// "stderr"), private to the user.
func (o *Outputs) Create(kind string) (*OutputFile, error) {
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("save output: %w", err)
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	o.mu.Lock()
	o.seq++
	seq := o.seq
	o.mu.Unlock()
	name := fmt.Sprintf("%s-%d-%03d-%s.txt", now().UTC().Format("20060102T150405.000000"), os.Getpid(), seq%1000, sanitize(kind))
	f, err := os.OpenFile(filepath.Join(o.Dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("save output: %w", err)
	}
	o.mu.Lock()
	if o.open == nil {
		o.open = map[string]bool{}
	}
	o.open[name] = true
	o.mu.Unlock()
	return &OutputFile{File: f, o: o, name: name}, nil
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// Prune removes the oldest outputs until the limits hold.
func (o *Outputs) Prune() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	entries, err := os.ReadDir(o.Dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return fmt.Errorf("prune outputs: %w", err)
	}
	type file struct {
		name string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	busy := 0
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	maxAge := o.MaxAge
	if maxAge <= 0 {
		maxAge = DefaultOutputAge
	}
	cutoff := now().Add(-maxAge)
	var firstErr error
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if o.open[e.Name()] {
			total += info.Size()
			busy++
			continue
		}
		if info.ModTime().Before(cutoff) {
			if err := os.Remove(filepath.Join(o.Dir, e.Name())); err != nil && !os.IsNotExist(err) && firstErr == nil {
				firstErr = fmt.Errorf("prune outputs: %w", err)
			}
			continue
		}
		total += info.Size()
		files = append(files, file{e.Name(), info.Size(), info.ModTime()})
	}
	sort.Slice(files, func(i, j int) bool {
		if !files[i].mod.Equal(files[j].mod) {
			return files[i].mod.Before(files[j].mod)
		}
		return files[i].name < files[j].name
	})
	for len(files) > 1 && (len(files)+busy > o.MaxFiles || total > o.MaxBytes) {
		if err := os.Remove(filepath.Join(o.Dir, files[0].name)); err != nil && !os.IsNotExist(err) && firstErr == nil {
			firstErr = fmt.Errorf("prune outputs: %w", err)
		}
		total -= files[0].size
		files = files[1:]
	}
	return firstErr
}
