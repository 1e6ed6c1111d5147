package redact

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strconv"
)

// A known secret (a secret variable's value, a token of a secret file)
// is found in any of the spellings a command can give it in one cheap
// step: as it is, reversed (rev), its letters rotated (ROT13, or any
// other tr a-z rotation), in base64 or base32 (either alphabet, any
// alignment, with or without padding, wrapped or not), in hexadecimal
// (either case, with any separators, as xxd, od and hexdump print it,
// 16-bit words swapped as od -x prints them, \x41, 0x41, %41, &#x41;),
// in octal, decimal and binary codes (od -b, od -tu1, &#65;, xxd -b),
// and with its punctuation percent-encoded or quoted-printable. Each
// spelling is reduced, like the text searched, to its skeleton: its
// letters and digits in lower case. So a change of case, and
// separators, escapes or line breaks put between the characters, change
// nothing; one or two characters put after every character (doubled,
// interleaved) are read through (knownset.go). Two steps (base64 of the
// reversed value) and anything keyed (encryption, an arbitrary
// substitution) are beyond this: the sandbox and the policy stand there.

// formKind is a family of spellings; its minimum run is how many
// characters of a spelling the text must hold in a row to be taken for
// the secret: about 50 bits of it.
type formKind uint8

const (
	formPlain formKind = iota // as it is, reversed, rotated
	formBase64
	formBase32
	formHex     // hex, 16-bit words swapped, punctuation encoded
	formOctal   // od -b
	formDecimal // od -tu1, &#65;
	formBinary  // xxd -b
)

func (k formKind) minRun() int {
	switch k {
	case formBase32:
		return 11
	case formHex:
		return 12
	case formDecimal:
		return 16
	case formOctal:
		return 18
	case formBinary:
		return 48
	}
	return 10
}

// minEntropy is the least entropy (bits a character) a part of a
// spelling must have to be taken for the secret: a run of one repeated
// pattern (the AAAA of a key's header in octal, 101101101) is as likely
// in a column of numbers as in the secret.
func (k formKind) minEntropy() float64 {
	switch k {
	case formBinary:
		return 0.9
	case formOctal, formDecimal:
		return 2
	}
	return 2.5
}

// form is one spelling of a known secret, as its skeleton.
type form struct {
	text  string
	kind  formKind
	value int32 // index of the value it spells
	// whole is set when only the whole spelling is the secret: a value
	// with parts anyone may print (a URL's host and port).
	whole bool
}

// need is how many characters of the form a run must hold: its minimum
// run, or the whole of a shorter form or of one only whole.
func (f *form) need() int {
	if f.whole {
		return len(f.text)
	}
	return min(len(f.text), f.kind.minRun())
}

// formsOf returns the spellings of v that are long enough to search for.
func formsOf(v string, value int32) []form {
	b := []byte(v)
	var out []form
	add := func(kind formKind, s string) {
		sk := skeletonString(s)
		if len(sk) < anchorLen || slices.ContainsFunc(out, func(f form) bool { return f.text == sk }) {
			return
		}
		out = append(out, form{text: sk, kind: kind, value: value})
	}
	add(formPlain, v)
	add(formPlain, string(reversed(b)))
	for k := 1; k < 26; k++ {
		add(formPlain, rotate(v, k))
	}
	for _, c := range cores(b, 6, base64.StdEncoding.EncodeToString) {
		add(formBase64, c)
	}
	for _, enc := range []*base32.Encoding{base32.StdEncoding, base32.HexEncoding} {
		for _, c := range cores(b, 5, enc.EncodeToString) {
			add(formBase32, c)
		}
	}
	add(formHex, hex.EncodeToString(b))
	add(formHex, hex.EncodeToString(swapped(b)))
	if len(b) > 1 {
		add(formHex, hex.EncodeToString(swapped(b[1:])))
	}
	add(formHex, punctHex(b))
	oct := make([]byte, 0, 3*len(b))
	dec := make([]byte, 0, 3*len(b))
	bin := make([]byte, 0, 8*len(b))
	for _, c := range b {
		oct = append(oct, '0'+c>>6, '0'+c>>3&7, '0'+c&7)
		dec = strconv.AppendUint(dec, uint64(c), 10)
		for i := 7; i >= 0; i-- {
			bin = append(bin, '0'+c>>i&1)
		}
	}
	add(formOctal, string(oct))
	add(formDecimal, string(dec))
	add(formBinary, string(bin))
	return out
}

// cores returns, for every alignment of v in a stream encoded by enc in
// characters of bits bits, the characters that only v's bits make up
// (those at either end also hold bits of the bytes around it).
func cores(v []byte, bits int, enc func([]byte) string) []string {
	var out []string
	for k := 0; k*8%bits != 0 || k == 0; k++ {
		buf := make([]byte, k+len(v)+bits)
		copy(buf[k:], v)
		s := enc(buf)
		first := (8*k + bits - 1) / bits
		last := 8 * (k + len(v)) / bits
		if first < last {
			out = append(out, s[first:last])
		}
	}
	return out
}

func reversed(b []byte) []byte {
	r := slices.Clone(b)
	slices.Reverse(r)
	return r
}

// rotate is s with its letters moved k places along the alphabet (tr
// a-z n-za-m for 13).
func rotate(s string, k int) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + byte((int(c-'a')+k)%26)
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + byte((int(c-'A')+k)%26)
		}
	}
	return string(b)
}

// swapped is b with the bytes of every pair swapped (a trailing odd byte
// dropped): the 16-bit little-endian words od -x and hexdump print.
func swapped(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i+1 < len(b); i += 2 {
		out = append(out, b[i+1], b[i])
	}
	return out
}

// punctHex is b with every byte other than a letter or digit in
// hexadecimal: percent-encoding and quoted-printable of its punctuation.
func punctHex(b []byte) string {
	var out []byte
	for _, c := range b {
		if alnumByte(c) {
			out = append(out, c)
		} else {
			out = hex.AppendEncode(out, []byte{c})
		}
	}
	return string(out)
}

func alnumByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func hexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
