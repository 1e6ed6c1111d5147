package ptysession

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
	"github.com/charmbracelet/x/vt"
)

// emuWindow is the most output the screen emulator is given at once: when
// the emulator falls behind a flood of output it skips to the last
// emuWindow bytes, which is more than enough to redraw a screen. Feeding
// the emulator never holds up reading the program's output.
const emuWindow = 32 << 10

// countedFinals are the CSI sequences (without a private marker) whose
// parameters are counts or positions. The emulator does work proportional
// to some of these counts (repeat the previous character n times, insert n
// lines...), so a 15-byte sequence could cost minutes; the screen clamps
// them to its size, which changes nothing a screen can show.
const countedFinals = "@ABCDEFGHIJKLMPSTXZ`abdefr"

// heavyCSI and heavyESC are the sequences that move or clear the whole
// screen (insert, delete and scroll lines, erase the display, repeat a
// character up to a line, index, reverse index, next line, reset): each
// costs the emulator work in proportion to the screen's size, some hundred
// times a plain character's. Each write may do heavyBase of them plus one
// per heavyBytes of its length; the rest are ignored.
const (
	heavyCSI   = "LMSTJb"
	heavyESC   = "DEMc"
	heavyBase  = 2
	heavyBytes = 512
)

// screen is a terminal screen emulator whose work per byte of input is
// bounded by a constant, whatever the input.
type screen struct {
	*vt.Emulator
	rows int
	// heavy is what is left of the current write's budget of
	// whole-screen operations.
	heavy int
}

// newEmulator returns a screen of cols by rows cells.
func newEmulator(cols, rows int) *screen {
	emu := vt.NewEmulator(cols, rows)
	emu.SetScrollbackSize(1)
	s := &screen{Emulator: emu, rows: rows}
	limit := max(cols, rows)
	for _, final := range countedFinals {
		emu.RegisterCsiHandler(int(final), func(params ansi.Params) bool {
			clampParams(params, limit)
			return false // go on to the emulator's own handler
		})
	}
	for _, final := range heavyCSI {
		emu.RegisterCsiHandler(int(final), func(ansi.Params) bool { return s.spend() })
	}
	for _, final := range heavyESC {
		emu.RegisterEscHandler(int(final), func() bool { return s.spend() })
	}
	return s
}

// spend takes one whole-screen operation from the budget; it reports true
// (the sequence is handled: ignore it) when the budget is spent.
func (s *screen) spend() bool {
	if s.heavy <= 0 {
		return true
	}
	s.heavy--
	return false
}

// isLineFeed reports whether b moves the cursor down a line, scrolling the
// screen at its bottom: LF, VT, FF and the 8-bit IND and RI.
func isLineFeed(b byte) bool {
	return b == '\n' || b == '\v' || b == '\f' || b == 0x84 || b == 0x8d
}

// Write gives p to the emulator. Only the text after the last screenful of
// line feeds is kept (what scrolled off before them cannot be seen), and
// the whole-screen operations are limited to the write's budget.
func (s *screen) Write(p []byte) (int, error) {
	n := len(p)
	p = trimLineFeeds(p, s.rows)
	s.heavy = heavyBase + n/heavyBytes
	_, err := s.Emulator.Write(p)
	return n, err
}

// trimLineFeeds returns the part of p after its keep-th last line feed, or
// p when it has no more than keep.
func trimLineFeeds(p []byte, keep int) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if isLineFeed(p[i]) {
			if keep--; keep < 0 {
				return p[i+1:]
			}
		}
	}
	return p
}

// clampParams lowers every parameter above limit to limit, in place,
// keeping the sub-parameter flags.
func clampParams(params ansi.Params, limit int) {
	for i, p := range params {
		v := int(p) & parser.ParamMask
		if v == parser.MissingParam || v <= limit {
			continue
		}
		params[i] = ansi.Param(int(p)&parser.HasMoreFlag | limit)
	}
}
