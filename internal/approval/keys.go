package approval

import (
	"context"
	"io"
	"unicode/utf8"
)

// key is one decoded keystroke.
type key struct {
	r    rune // printable rune, or 0 for a special key
	kind keyKind
}

type keyKind int

const (
	keyRune keyKind = iota
	keyEnter
	keyEsc
	keyCtrlC
	keyCtrlD
	keyBackspace
	keyCtrlU
	keyOther // arrows, function keys, other control bytes: ignored
)

// keyReader decodes keystrokes from a terminal in raw mode (or from any
// reader in tests). When fd is a terminal, reads are preceded by a poll so
// that a cancelled context ends the wait without leaving a reader behind
// that would steal the user's next keystrokes.
type keyReader struct {
	r   io.Reader
	fd  int
	buf []byte
}

// fill reads more bytes, waiting for at most wait when wait >= 0 and fd is
// a terminal. It reports false when nothing arrived in time.
func (k *keyReader) fill(ctx context.Context, wait int) (bool, error) {
	if k.fd >= 0 {
		ready, err := waitReadable(ctx, k.fd, wait)
		if err != nil || !ready {
			return false, err
		}
	} else if err := ctx.Err(); err != nil {
		return false, err
	}
	var b [256]byte
	n, err := k.r.Read(b[:])
	k.buf = append(k.buf, b[:n]...)
	if n > 0 {
		return true, nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return false, err
}

func (k *keyReader) next(ctx context.Context) (byte, error) {
	for len(k.buf) == 0 {
		if _, err := k.fill(ctx, -1); err != nil {
			return 0, err
		}
	}
	c := k.buf[0]
	k.buf = k.buf[1:]
	return c, nil
}

// peek returns the next byte if one arrives within a short escape delay.
func (k *keyReader) peek(ctx context.Context) (byte, bool) {
	if len(k.buf) == 0 {
		if k.fd < 0 {
			return 0, false
		}
		if ok, err := k.fill(ctx, escDelayMs); !ok || err != nil {
			return 0, false
		}
	}
	return k.buf[0], true
}

const escDelayMs = 30

// read returns the next keystroke.
func (k *keyReader) read(ctx context.Context) (key, error) {
	c, err := k.next(ctx)
	if err != nil {
		return key{}, err
	}
	switch c {
	case '\r', '\n':
		return key{kind: keyEnter}, nil
	case 3:
		return key{kind: keyCtrlC}, nil
	case 4:
		return key{kind: keyCtrlD}, nil
	case 0x7f, 8:
		return key{kind: keyBackspace}, nil
	case 0x15:
		return key{kind: keyCtrlU}, nil
	case 0x1b:
		n, ok := k.peek(ctx)
		if !ok || (n != '[' && n != 'O') {
			return key{kind: keyEsc}, nil
		}
		k.buf = k.buf[1:]
		// Consume a CSI/SS3 sequence up to its final byte.
		for i := 0; i < 32; i++ {
			b, ok := k.peek(ctx)
			if !ok {
				break
			}
			k.buf = k.buf[1:]
			if b >= 0x40 && b <= 0x7e {
				break
			}
		}
		return key{kind: keyOther}, nil
	}
	if c < 0x20 {
		return key{kind: keyOther}, nil
	}
	if c < utf8.RuneSelf {
		return key{r: rune(c)}, nil
	}
	// A multi-byte rune: gather its continuation bytes.
	seq := []byte{c}
	for len(seq) < utf8.UTFMax && !utf8.FullRune(seq) {
		b, err := k.next(ctx)
		if err != nil {
			return key{}, err
		}
		seq = append(seq, b)
	}
	r, _ := utf8.DecodeRune(seq)
	if r == utf8.RuneError {
		return key{kind: keyOther}, nil
	}
	return key{r: r}, nil
}
