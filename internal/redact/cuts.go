package redact

import "strings"

// A token of a known shape that a cut left half of (run_cmd keeps the
// head and tail of long output and cuts very long lines; a terminal read
// ends where the output stopped for a while) no longer matches its rule:
// ghp_ and 14 characters is no GitHub token to a rule asking for 36. At
// every cut, the line before it is completed with random characters and
// the rules run on it: a match that takes in the line's end withholds
// what is left of the token. What follows a cut cannot be judged so (a
// token's end says nothing of its shape), nor can a token whose prefix a
// command cut off on purpose: known secrets are found in part
// (knownset.go), secrets of a shape only whole.

// cutFiller stands for the rest of a cut token: letters and digits, as
// varied as a generated token.
const cutFiller = "Zq8Lm3Xv7Wk2Pn9Rt4Yb6Hc1Jd5Fg0SaEuTiOoBn7Kd2Wx9Qz4Lr6Tm1Vs8Gh3Jp5"

// Markers of nb's cuts (package sandwich): a line cut by the byte limit,
// and the lines left out between the head and the tail.
const (
	lineCutMarker = " [... line cut: "
	omittedMarker = "\n[... "
)

// minCutText is the least length of a text whose end is taken for a cut
// when it does not end a line (shorter ones are names and values of a
// JSON document).
const minCutText = 64

// findCut adds the parts of tokens of a known shape that end at a cut.
func (rs *ruleSet) findCut(text string, spans []span) []span {
	for _, cut := range cutPoints(text) {
		w := lineAround(text, cut-1)
		start := max(w.start, cut-beforeKeyword)
		if cut <= start || blank(text[cut-1]) {
			continue
		}
		probe := text[start:cut] + cutFiller
		for _, s := range rs.find(probe, nil) {
			if s.start < cut-start && s.end > cut-start {
				spans = append(spans, span{start: start + s.start, end: cut, kind: s.kind})
			}
		}
	}
	return spans
}

// cutPoints returns where text was cut: before the markers of a cut,
// and at its end when it does not end a line.
func cutPoints(text string) []int {
	var out []int
	for off := 0; ; {
		i := strings.Index(text[off:], lineCutMarker)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		off += i + len(lineCutMarker)
	}
	for off := 0; ; {
		// "[... " is rare, a line break is not: the marker is found by
		// the one, then the other checked
		i := strings.Index(text[off:], omittedMarker[1:])
		if i < 0 {
			break
		}
		at := off + i - 1
		if at >= 0 && text[at] == '\n' {
			if line := lineAround(text, at+1); strings.Contains(text[line.start:line.end], " omitted (") {
				out = append(out, at)
			}
		}
		off += i + len(omittedMarker) - 1
	}
	if n := len(text); n >= minCutText && text[n-1] != '\n' {
		out = append(out, n)
	}
	return out
}
