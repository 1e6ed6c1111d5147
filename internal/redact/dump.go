package redact

import "strings"

// A hex dump (xxd, hexdump, od) prints every line's offset before its
// bytes and, often, the bytes as characters after them, so that in the
// text a secret's hex digits and its characters are each cut into the
// pieces one line holds (four bytes with xxd -c4), with offsets between.
// The dump's columns are read apart: its data columns joined line after
// line, and its character columns joined, each searched like a text.
// Numbered lines (cat -n, nl, grep -n) are read the same way, without
// their numbers: a secret folded into short lines and numbered is whole
// again.

// dumpColumns are the parts of one dump line: its data and its
// characters (empty ranges when it has none).
type dumpColumns struct {
	dataStart, dataEnd int
	charStart, charEnd int
}

// dumpViews returns the skeletons of the data columns and of the
// character columns of the dump lines of text, or nil when it has none.
func dumpViews(text string) []skeleton {
	var data, chars skeleton
	found := false
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if c, ok := dumpLine(text, start, end); ok {
			found = true
			data.add(text, c.dataStart, c.dataEnd)
			chars.add(text, c.charStart, c.charEnd)
		}
		start = end + 1
	}
	if !found {
		return nil
	}
	return []skeleton{data, chars}
}

// numberedLine reads text[i:end] (after its leading blanks) as a
// numbered line: a number, then a tab or a colon, then the line.
func numberedLine(text string, i, end int) (dumpColumns, bool) {
	j := i
	for j < end && j-i < 10 && text[j] >= '0' && text[j] <= '9' {
		j++
	}
	if j == i || j >= end || text[j] != '\t' && text[j] != ':' {
		return dumpColumns{}, false
	}
	return dumpColumns{dataStart: j + 1, dataEnd: j + 1, charStart: j + 1, charEnd: end}, true
}

// minOffset is the least number of digits of a dump line's offset (od
// -A x prints six).
const minOffset = 6

// dumpLine reads text[start:end] as a line of a dump: an offset of hex
// digits, then the data, then maybe the characters (xxd after two
// blanks, hexdump -C between bars, od -t x1z between angle brackets; od
// -c's cells are characters only).
func dumpLine(text string, start, end int) (dumpColumns, bool) {
	i := start
	for i < end && text[i] == ' ' {
		i++
	}
	j := i
	for j < end && hexDigit(text[j]) {
		j++
	}
	if j-i < minOffset {
		return numberedLine(text, i, end)
	}
	xxd := j < end && text[j] == ':'
	if xxd {
		j++
	}
	if j >= end || text[j] != ' ' {
		return dumpColumns{}, false
	}
	rest := text[j:end]
	if p := strings.IndexByte(rest, '|'); p >= 0 {
		q := strings.LastIndexByte(rest, '|')
		return dumpColumns{dataStart: j, dataEnd: j + p, charStart: j + p + 1, charEnd: j + max(q, p+1)}, true
	}
	if p := strings.IndexByte(rest, '>'); p >= 0 && strings.HasSuffix(rest, "<") {
		return dumpColumns{dataStart: j, dataEnd: j + p, charStart: j + p + 1, charEnd: end - 1}, true
	}
	if xxd {
		p := strings.Index(rest[1:], "  ")
		if p < 0 {
			return dumpColumns{dataStart: j, dataEnd: end, charStart: end, charEnd: end}, true
		}
		return dumpColumns{dataStart: j, dataEnd: j + 1 + p, charStart: j + 1 + p, charEnd: end}, true
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return dumpColumns{}, false
	}
	allHex := true
	for _, f := range fields {
		if len(f) == 1 || f[0] == '\\' {
			// od -c: a cell is one character or an escape
			return dumpColumns{dataStart: j, dataEnd: j, charStart: j, charEnd: end}, true
		}
		for k := 0; k < len(f) && allHex; k++ {
			allHex = hexDigit(f[k])
		}
	}
	if !allHex {
		return dumpColumns{}, false
	}
	return dumpColumns{dataStart: j, dataEnd: end, charStart: end, charEnd: end}, true
}
