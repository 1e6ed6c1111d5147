package sandwich

import "bytes"

// escState is the position of the ANSI escape-sequence stripper. It is a
// small ECMA-48 state machine so sequences split across writes are removed
// as well as whole ones.
type escState uint8

const (
	escNone     escState = iota
	escStart             // after ESC
	escInter             // ESC + intermediate bytes (charset selection etc.)
	escCSI               // ESC [ parameters
	escString            // OSC, DCS, SOS, PM, APC body
	escStringST          // ESC inside a string: maybe ST
)

// strip feeds p to text without escape sequences.
func (c *Capture) strip(p []byte) {
	for len(p) > 0 {
		if c.esc == escNone {
			i := bytes.IndexByte(p, 0x1b)
			if i < 0 {
				c.text(p)
				return
			}
			c.text(p[:i])
			p = p[i+1:]
			c.esc = escStart
			continue
		}
		b := p[0]
		p = p[1:]
		switch c.esc {
		case escStart:
			switch {
			case b == '[':
				c.esc = escCSI
			case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
				c.esc = escString
			case b == 0x1b:
				// ESC ESC: stay
			case b >= 0x20 && b <= 0x2f:
				c.esc = escInter
			case b >= 0x30 && b <= 0x7e:
				c.esc = escNone
			default:
				c.esc = escNone
				c.text([]byte{b})
			}
		case escInter:
			switch {
			case b >= 0x20 && b <= 0x2f:
			case b >= 0x30 && b <= 0x7e:
				c.esc = escNone
			default:
				c.esc = escNone
				c.text([]byte{b})
			}
		case escCSI:
			switch {
			case b >= 0x20 && b <= 0x3f:
			case b >= 0x40 && b <= 0x7e:
				c.esc = escNone
			case b == 0x1b:
				c.esc = escStart
			default:
				// malformed: end the sequence, keep the byte
				c.esc = escNone
				c.text([]byte{b})
			}
		case escString:
			switch b {
			case 0x07:
				c.esc = escNone
			case 0x1b:
				c.esc = escStringST
			case '\n':
				// unterminated string: give the text back rather than
				// swallowing the rest of the output
				c.esc = escNone
				c.text([]byte{b})
			}
		case escStringST:
			switch b {
			case '\\':
				c.esc = escNone
			case 0x1b:
			case '\n':
				c.esc = escNone
				c.text([]byte{b})
			default:
				c.esc = escString
			}
		}
	}
}

// Strip removes ANSI escape sequences from s.
func Strip(s string) string {
	c := New(Options{Limits: Limits{ThresholdBytes: len(s) + 64, ThresholdLines: len(s) + 1}})
	c.strip([]byte(s))
	return string(c.full)
}
