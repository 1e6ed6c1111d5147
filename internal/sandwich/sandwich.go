// Package sandwich captures one output stream of a command with bounded
// memory and turns it into the text the model sees (seed 000 "sandwich").
//
// A Capture is an io.Writer fed the raw bytes of a stream. It keeps:
//   - the whole stream while it stays within ThresholdBytes and
//     ThresholdLines (ANSI escape sequences removed);
//   - the head: the first HeadLines lines, each cut to MaxLineBytes, within a
//     head byte budget;
//   - the tail: a ring of the last bytes, from which the last TailLines lines
//     are shown, within a tail byte budget.
//
// The head and tail budgets split ThresholdBytes in proportion to HeadLines
// and TailLines, so a cut result is never much longer than ThresholdBytes
// (see Limits.Budget). Between them a marker says what was left out:
//
//	[... 44900 lines omitted (2.3 MB total) - use grep/tail/head to filter ...]
//
// When the omitted part holds no complete line (a few enormous lines), the
// marker counts bytes instead. Enormous lines in the head are cut by bytes
// with an inline marker.
//
// Carriage returns are applied the way a terminal shows them: a progress bar
// redrawn with CR leaves only its last state, and CRLF becomes LF.
//
// Binary streams (a NUL byte or invalid UTF-8, checked across chunk
// boundaries) are replaced by a one-line explanation with their size.
//
// Optionally the full raw stream is spilled to a file (Options.Spill). The
// spill file is opened lazily, only once the stream turns out to be cut or
// binary; until then the raw bytes are held in memory (bounded by a small
// multiple of ThresholdBytes). A spill is capped at Options.SpillMax bytes.
package sandwich

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// Limits are the thresholds of seed 000's terminalIntegration block.
type Limits struct {
	ThresholdBytes int // outputThresholdBytes (10240)
	ThresholdLines int // outputThresholdLines (200)
	HeadLines      int // sandwichHeadLines (50)
	TailLines      int // sandwichTailLines (20)
	MaxLineBytes   int // maxLineBytes (2048): longer head lines are cut
}

// DefaultLimits returns seed 000's defaults.
func DefaultLimits() Limits {
	return Limits{ThresholdBytes: 10240, ThresholdLines: 200, HeadLines: 50, TailLines: 20, MaxLineBytes: 2048}
}

func (l Limits) normalize() Limits {
	d := DefaultLimits()
	if l.ThresholdBytes <= 0 {
		l.ThresholdBytes = d.ThresholdBytes
	}
	if l.ThresholdLines <= 0 {
		l.ThresholdLines = d.ThresholdLines
	}
	if l.HeadLines <= 0 {
		l.HeadLines = 1
	}
	if l.TailLines <= 0 {
		l.TailLines = 1
	}
	if l.MaxLineBytes <= 0 {
		l.MaxLineBytes = d.MaxLineBytes
	}
	if l.ThresholdBytes < 64 {
		l.ThresholdBytes = 64
	}
	return l
}

// per-line and fixed marker allowances used by Budget.
const (
	lineMarkerMax = 48
	mainMarkerMax = 160
)

// Budget is the most bytes Text can return for any stream.
func (l Limits) Budget() int {
	l = l.normalize()
	return l.ThresholdBytes + l.HeadLines*lineMarkerMax + mainMarkerMax
}

func (l Limits) headBudget() int {
	return l.ThresholdBytes * l.HeadLines / (l.HeadLines + l.TailLines)
}

func (l Limits) tailBudget() int { return l.ThresholdBytes - l.headBudget() }

// SpillFile receives the full raw stream.
type SpillFile interface {
	io.WriteCloser
	Name() string
}

// Options configures a Capture.
type Options struct {
	Limits Limits
	// Spill opens the file for the full stream; nil disables spilling.
	Spill func() (SpillFile, error)
	// SpillMax caps the bytes written to the spill file (0: no cap).
	SpillMax int64
	// BinaryHint says how to look at binary output, in the language of
	// the shell that ran the command (default: file, xxd or strings).
	BinaryHint string
}

// Capture is a bounded streaming capture of one stream. It is not safe for
// concurrent use; give each stream its own.
type Capture struct {
	lim      Limits
	headBud  int
	tailBud  int
	spillFn  func() (SpillFile, error)
	spillMax int64

	rawTotal int64
	raw      []byte // raw prefix kept until the spill opens
	rawDrop  bool   // raw prefix abandoned (spill failed or disabled)
	spill    SpillFile
	spillErr error
	spilled  int64
	spillCut bool
	closed   bool

	binary     bool
	binaryHint string
	pend       [utf8.UTFMax]byte
	npend      int

	esc escState

	// stripped stream accounting
	total int64 // stripped bytes
	nl    int64 // newlines
	last  byte  // last stripped byte

	full    []byte // whole stripped stream while not cut
	cut     bool
	headBuf []byte
	headNL  int64
	headEnd int64 // stripped offset where the head stopped
	// head line state
	headDone     bool
	headLineLen  int // bytes of the current head line seen
	headLineKept int // bytes of the current head line kept
	headLineCut  bool

	tail []byte // last bytes of the stripped stream (cap 2*tailBud)
}

// New returns a Capture.
func New(opts Options) *Capture {
	l := opts.Limits.normalize()
	c := &Capture{lim: l, headBud: l.headBudget(), tailBud: l.tailBudget(), spillFn: opts.Spill, spillMax: opts.SpillMax, binaryHint: opts.BinaryHint}
	if c.spillFn == nil {
		c.rawDrop = true
	}
	return c
}

// Write implements io.Writer; it never fails (spill errors are reported by
// Close and SpillErr).
func (c *Capture) Write(p []byte) (int, error) {
	n := len(p)
	if n == 0 || c.closed {
		return n, nil
	}
	c.rawTotal += int64(n)
	c.writeRaw(p)
	if c.binary {
		return n, nil
	}
	if bytes.IndexByte(p, 0) >= 0 {
		c.setBinary()
		return n, nil
	}
	if !c.checkUTF8(p) {
		c.setBinary()
		return n, nil
	}
	c.strip(p)
	return n, nil
}

// rawHoldMax bounds the raw prefix held before a spill is opened: output
// that is mostly escape sequences can be much longer raw than stripped.
func (c *Capture) rawHoldMax() int { return 4 * c.lim.ThresholdBytes }

func (c *Capture) writeRaw(p []byte) {
	if c.spill != nil {
		c.spillWrite(p)
		return
	}
	if c.rawDrop {
		return
	}
	c.raw = append(c.raw, p...)
	if len(c.raw) > c.rawHoldMax() {
		c.openSpill()
	}
}

func (c *Capture) openSpill() {
	if c.spill != nil || c.rawDrop {
		return
	}
	f, err := c.spillFn()
	if err != nil {
		c.spillErr = err
		c.rawDrop = true
		c.raw = nil
		return
	}
	c.spill = f
	raw := c.raw
	c.raw = nil
	c.rawDrop = true
	c.spillWrite(raw)
}

func (c *Capture) spillWrite(p []byte) {
	if c.spillErr != nil || c.spillCut {
		return
	}
	if c.spillMax > 0 && c.spilled+int64(len(p)) > c.spillMax {
		p = p[:c.spillMax-c.spilled]
		c.spillCut = true
	}
	n, err := c.spill.Write(p)
	c.spilled += int64(n)
	if err != nil {
		c.spillErr = err
	}
}

func (c *Capture) setBinary() {
	c.binary = true
	c.full, c.headBuf, c.tail = nil, nil, nil
	c.openSpill()
}

func (c *Capture) markCut() {
	if c.cut {
		return
	}
	c.cut = true
	c.full = nil
	c.openSpill()
}

// utf8Len is the sequence length announced by a leading byte, 0 if invalid.
func utf8Len(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b >= 0xC2 && b <= 0xDF:
		return 2
	case b >= 0xE0 && b <= 0xEF:
		return 3
	case b >= 0xF0 && b <= 0xF4:
		return 4
	}
	return 0
}

// checkUTF8 validates p as the continuation of the stream, keeping an
// incomplete final sequence pending for the next chunk.
func (c *Capture) checkUTF8(p []byte) bool {
	if c.npend > 0 {
		need := utf8Len(c.pend[0])
		for c.npend < need && len(p) > 0 {
			c.pend[c.npend] = p[0]
			c.npend++
			p = p[1:]
		}
		if c.npend < need {
			// still incomplete: every byte so far must be a continuation
			for _, b := range c.pend[1:c.npend] {
				if b&0xC0 != 0x80 {
					return false
				}
			}
			return true
		}
		if !utf8.Valid(c.pend[:need]) {
			return false
		}
		c.npend = 0
	}
	// find an incomplete trailing sequence
	end := len(p)
	for i := len(p) - 1; i >= 0 && i >= len(p)-3; i-- {
		b := p[i]
		if b&0xC0 == 0x80 {
			continue // continuation byte
		}
		if l := utf8Len(b); l > 1 && len(p)-i < l {
			end = i
		}
		break
	}
	if !utf8.Valid(p[:end]) {
		return false
	}
	if end < len(p) {
		c.npend = copy(c.pend[:], p[end:])
		for _, b := range c.pend[1:c.npend] {
			if b&0xC0 != 0x80 {
				return false
			}
		}
	}
	return true
}

// text receives stripped bytes.
func (c *Capture) text(p []byte) {
	if len(p) == 0 {
		return
	}
	start := c.total
	nl := bytes.Count(p, []byte{'\n'})
	c.total += int64(len(p))
	c.nl += int64(nl)
	c.last = p[len(p)-1]
	if !c.cut {
		if c.total > int64(c.lim.ThresholdBytes) || c.lines() > int64(c.lim.ThresholdLines) {
			c.markCut()
		} else {
			c.full = append(c.full, p...)
		}
	}
	if !c.headDone {
		c.headWrite(p, start)
	}
	c.tailWrite(p)
}

func (c *Capture) lines() int64 {
	if c.total > 0 && c.last != '\n' {
		return c.nl + 1
	}
	return c.nl
}

// headWrite keeps the first lines; off is the stripped offset of p.
func (c *Capture) headWrite(p []byte, off int64) {
	for len(p) > 0 && !c.headDone {
		i := bytes.IndexByte(p, '\n')
		seg := p
		if i >= 0 {
			seg = p[:i]
		}
		if !c.headLineCut {
			room := min(c.lim.MaxLineBytes-c.headLineKept, c.headBud-len(c.headBuf))
			keep := len(seg)
			if keep > room {
				keep = runeFloor(seg, max(room, 0))
				c.headLineCut = true
			}
			c.headBuf = append(c.headBuf, seg[:keep]...)
			c.headLineKept += keep
			c.headEnd = off + int64(keep)
		}
		c.headLineLen += len(seg)
		if i < 0 {
			return
		}
		if c.headLineCut {
			c.headBuf = fmt.Appendf(c.headBuf, " [... line cut: %d more bytes ...]", c.headLineLen-c.headLineKept)
		}
		c.headBuf = append(c.headBuf, '\n')
		c.headNL++
		off += int64(i + 1)
		p = p[i+1:]
		c.headEnd = off
		c.headLineLen, c.headLineKept, c.headLineCut = 0, 0, false
		if c.headNL >= int64(c.lim.HeadLines) || len(c.headBuf) >= c.headBud {
			c.headDone = true
		}
	}
}

// runeFloor returns the largest k <= n at which b can be cut without
// splitting a UTF-8 sequence.
func runeFloor(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for k := n; k > 0 && n-k < utf8.UTFMax; k-- {
		if utf8.RuneStart(b[k]) {
			return k
		}
	}
	return n
}

func (c *Capture) tailWrite(p []byte) {
	r := c.tailBud
	if len(p) >= r {
		c.tail = append(c.tail[:0], p[len(p)-r:]...)
		return
	}
	if len(c.tail)+len(p) > 2*r {
		keep := r - len(p)
		n := copy(c.tail, c.tail[len(c.tail)-keep:])
		c.tail = c.tail[:n]
	}
	c.tail = append(c.tail, p...)
}

// Result is a finished capture.
type Result struct {
	// Text is what the model sees.
	Text string
	// Cut is set when the stream was too long and Text is a sandwich.
	Cut bool
	// Binary is set when the stream was not UTF-8 text.
	Binary bool
	// Bytes is the raw stream size; Lines counts its lines (text only).
	Bytes int64
	Lines int64
	// SpillPath is the file holding the full raw stream ("" when none was
	// kept: the stream was short, or spilling was off or failed).
	SpillPath string
	// SpillTruncated says the spill file holds only the first SpillMax bytes.
	SpillTruncated bool
}

// Close finishes the capture and returns its result. The error reports a
// failed spill; the Result is valid regardless.
func (c *Capture) Close() (Result, error) {
	if c.closed {
		return Result{}, fmt.Errorf("sandwich: closed twice")
	}
	c.closed = true
	c.npend = 0 // an incomplete final sequence (killed mid-write) is dropped
	res := Result{Cut: c.cut && !c.binary, Binary: c.binary, Bytes: c.rawTotal, Lines: c.lines(), Text: c.render()}
	if c.binary {
		res.Lines = 0
	}
	err := c.spillErr
	if c.spill != nil {
		name := c.spill.Name()
		if c.spillCut {
			fmt.Fprintf(c.spill, "\n[nb: output truncated here after %d of %d bytes]\n", c.spilled, c.rawTotal)
		}
		cerr := c.spill.Close()
		if err == nil {
			err = cerr
		}
		switch {
		case !res.Cut && !res.Binary, err != nil:
			os.Remove(name)
		default:
			res.SpillPath = name
			res.SpillTruncated = c.spillCut
		}
	}
	c.raw, c.full, c.headBuf, c.tail = nil, nil, nil, nil
	if err != nil {
		return res, fmt.Errorf("save full output: %w", err)
	}
	return res, nil
}

func (c *Capture) render() string {
	if c.binary {
		hint := c.binaryHint
		if hint == "" {
			hint = "write it to a file and inspect it with file, xxd or strings"
		}
		return fmt.Sprintf("[binary output not shown: %s (%d bytes) that is not UTF-8 text (NUL bytes or invalid UTF-8) - %s]",
			HumanSize(c.rawTotal), c.rawTotal, hint)
	}
	if !c.cut {
		return string(bytes.ToValidUTF8(collapseCR(c.full), nil))
	}
	tailOff := c.total - int64(len(c.tail))
	regionStart := max(tailOff, c.headEnd)
	seg := c.tail[regionStart-tailOff:]
	if len(seg) > c.tailBud {
		regionStart += int64(len(seg) - c.tailBud)
		seg = seg[len(seg)-c.tailBud:]
	}
	var atBoundary bool
	switch {
	case regionStart == 0:
		atBoundary = true
	case regionStart > tailOff:
		atBoundary = c.tail[regionStart-tailOff-1] == '\n'
	default:
		atBoundary = regionStart == c.headEnd && !c.headLineCut && c.headLineLen == 0
	}
	// last TailLines lines of seg
	end := len(seg)
	if end > 0 && seg[end-1] == '\n' {
		end--
	}
	start, pos, found := 0, end, true
	for k := 0; k < c.lim.TailLines; k++ {
		j := bytes.LastIndexByte(seg[:pos], '\n')
		if j < 0 {
			found = false
			break
		}
		pos = j
	}
	partial := false
	if found {
		start = pos + 1
	} else if !atBoundary {
		if f := bytes.IndexByte(seg[:end], '\n'); f >= 0 {
			start = f + 1
		} else {
			partial = len(seg) > 0
			for start < len(seg) && start < utf8.UTFMax && !utf8.RuneStart(seg[start]) {
				start++
			}
		}
	}
	tail := seg[start:]
	tailStart := regionStart + int64(start)
	omittedBytes := tailStart - c.headEnd
	omittedNL := c.nl - c.headNL - int64(bytes.Count(tail, []byte{'\n'}))

	var b bytes.Buffer
	b.Write(bytes.ToValidUTF8(collapseCR(c.headBuf), nil))
	if omittedBytes > 0 {
		if b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte{'\n'}) {
			b.WriteByte('\n')
		}
		what := fmt.Sprintf("%d bytes", omittedBytes)
		if omittedNL == 1 {
			what = "1 line"
		} else if omittedNL > 1 {
			what = fmt.Sprintf("%d lines", omittedNL)
		}
		fmt.Fprintf(&b, "[... %s omitted (%s total) - use grep/tail/head to filter ...]\n", what, HumanSize(c.rawTotal))
	}
	if partial {
		b.WriteString("[...]")
	}
	b.Write(bytes.ToValidUTF8(collapseCR(tail), nil))
	return b.String()
}

// collapseCR shows each line the way a terminal would leave it after
// carriage returns (progress bars redrawing one line): only the text after
// the last CR of a line is kept, and a CR before the newline (CRLF) is
// dropped.
func collapseCR(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		line := b
		nl := bytes.IndexByte(b, '\n')
		if nl >= 0 {
			line, b = b[:nl], b[nl+1:]
		} else {
			b = nil
		}
		line = bytes.TrimRight(line, "\r")
		if i := bytes.LastIndexByte(line, '\r'); i >= 0 {
			line = line[i+1:]
		}
		out = append(out, line...)
		if nl >= 0 {
			out = append(out, '\n')
		}
	}
	return out
}

// HumanSize formats n bytes with decimal units: "512 B", "2.3 MB".
func HumanSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "KMGTP"[exp])
}
