package redact

// keywordIndex finds the rule set's keywords in a text in one pass,
// ignoring ASCII case: a table indexed by the first two bytes of every
// keyword (lower-cased) names the keywords that can start there, and
// only those are compared.
type keywordIndex struct {
	keywords []string
	// first[b0<<8|b1] is 1 + the index in cands of the keywords starting
	// with b0 b1, or 0.
	first [1 << 16]uint16
	// bits has a bit set for every pair of bytes some keyword starts
	// with, pair for the pairs that are a keyword of two bytes, and tri
	// for the hash of every three bytes some keyword starts with: smaller
	// tables, looked at first.
	bits  [1 << 10]uint64
	pair  [1 << 10]uint64
	tri   [1 << 10]uint64
	cands [][]int
}

var lowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

func newKeywordIndex(keywords []string) *keywordIndex {
	x := &keywordIndex{keywords: keywords}
	for id, k := range keywords {
		if len(k) < 2 {
			continue // none is: a byte alone would announce too much
		}
		key := int(k[0])<<8 | int(k[1])
		if x.first[key] == 0 {
			x.cands = append(x.cands, nil)
			x.first[key] = uint16(len(x.cands))
		}
		c := int(x.first[key]) - 1
		x.cands[c] = append(x.cands[c], id)
		x.bits[key>>6] |= 1 << (key & 63)
		if len(k) == 2 {
			x.pair[key>>6] |= 1 << (key & 63)
		} else {
			h := triHash(k[0], k[1], k[2])
			x.tri[h>>6] |= 1 << (h & 63)
		}
	}
	return x
}

// hit is one keyword found at a position.
type hit struct {
	keyword int
	pos     int
}

// find calls found for every keyword occurrence in text.
func (x *keywordIndex) find(text string, found func(h hit)) {
	n := len(text)
	if n < 2 {
		return
	}
	c1 := lowerTable[text[0]]
	for i := 0; i+1 < n; i++ {
		c0 := c1
		c1 = lowerTable[text[i+1]]
		key := int(c0)<<8 | int(c1)
		if x.bits[key>>6]&(1<<(key&63)) == 0 {
			continue
		}
		if x.pair[key>>6]&(1<<(key&63)) == 0 {
			if i+2 >= n {
				continue
			}
			h := triHash(c0, c1, lowerTable[text[i+2]])
			if x.tri[h>>6]&(1<<(h&63)) == 0 {
				continue
			}
		}
		f := x.first[key]
		for _, id := range x.cands[f-1] {
			if k := x.keywords[id]; hasPrefixFold(text[i:], k) {
				found(hit{id, i})
			}
		}
	}
}

// hasPrefixFold reports whether s begins with the lower-case ASCII
// keyword k, ignoring ASCII case.
func hasPrefixFold(s, k string) bool {
	if len(s) < len(k) {
		return false
	}
	for j := 2; j < len(k); j++ {
		if lowerTable[s[j]] != k[j] {
			return false
		}
	}
	return true
}

// triHash maps three lower-case bytes to 16 bits.
func triHash(a, b, c byte) int {
	return int((uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 2654435761 >> 22)
}
