// Package spelling suggests the known word nearest to a misspelled one, for
// "did you mean" hints on flags, commands and configuration keys.
package spelling

import "strings"

// Suggest returns the candidate closest to s, or "" when none is close
// enough to be a plausible typo. A candidate that s is a prefix of (at least
// two characters) wins outright; case is ignored.
func Suggest(s string, candidates []string) string {
	ls := strings.ToLower(s)
	best, bestD := "", len(s)/3+2
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == ls || (len(ls) >= 2 && strings.HasPrefix(lc, ls)) {
			return c
		}
		if d := Distance(ls, lc); d < bestD || (d == bestD && best != "" && c < best) {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the Levenshtein edit distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
