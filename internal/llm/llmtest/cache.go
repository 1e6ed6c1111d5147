package llmtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
)

// The fakes count tokens, model the providers' prompt caches and enforce a
// context window, so that tests can check what nb sends over a long
// conversation: its size, and how much of it a provider would serve from
// cache.
//
// Tokens are counted as a quarter of the bytes of each unit of the request
// (the system prompt, the tools, every message or content block as it
// appears on the wire), rounded up. The request's units form its prefix:
//
//   - OpenAI and Gemini cache automatically, by token prefix: the longest
//     run of leading units that is byte-identical to the start of an
//     earlier request is served from cache, and so are the leading bytes
//     the next unit shares with the same unit of the previous request
//     (when that request had the same run), as a token prefix would.
//   - Anthropic caches only at cache_control breakpoints: a request writes
//     the prefix ending at each of its breakpoints, and a later request
//     reads the longest written prefix it starts with. Without breakpoints
//     nothing is ever cached.

// unit is one cacheable piece of a request.
type unit struct {
	data       []byte
	breakpoint bool
}

func unitTokens(u unit) int { return (len(u.data) + 3) / 4 }

// CountTokens is the fakes' token count of a text: a quarter of its bytes,
// rounded up.
func CountTokens(s string) int { return (len(s) + 3) / 4 }

// Usage is the token accounting of the requests a server received.
type Usage struct {
	Requests int `json:"requests"`
	// Input counts all input tokens; Cached those served from cache;
	// Written those written to the cache (Anthropic).
	Input   int `json:"input"`
	Cached  int `json:"cached"`
	Written int `json:"written"`
	// Largest is the largest request, in tokens.
	Largest int `json:"largest"`
	// Overflows counts requests refused as over the window.
	Overflows int `json:"overflows"`
}

// promptCache holds the hashes of cached prefixes.
type promptCache struct {
	breakpoints bool // Anthropic: write only at breakpoints
	seen        map[[32]byte]bool
	// last holds the previous request's units and prefix hashes
	// (automatic caches).
	last       []unit
	lastHashes [][32]byte
}

// lookup returns the request's input tokens, those read from the cache and
// those written to it, and records the request's prefixes.
func (c *promptCache) lookup(units []unit) (input, cached, written int) {
	if c.seen == nil {
		c.seen = map[[32]byte]bool{}
	}
	h := sha256.New()
	hashes := make([][32]byte, len(units))
	prefix := make([]int, len(units)) // tokens up to and including unit i
	total := 0
	for i, u := range units {
		fmt.Fprintf(h, "%d:", len(u.data))
		h.Write(u.data)
		copy(hashes[i][:], h.Sum(nil))
		total += unitTokens(u)
		prefix[i] = total
	}
	matched := -1
	for i := len(units) - 1; i >= 0; i-- {
		if c.seen[hashes[i]] {
			cached = prefix[i]
			matched = i
			break
		}
	}
	if !c.breakpoints {
		next := matched + 1
		if next < len(units) && next < len(c.last) && (matched < 0 || c.lastHashes[matched] == hashes[matched]) {
			a, b := units[next].data, c.last[next].data
			n := 0
			for n < len(a) && n < len(b) && a[n] == b[n] {
				n++
			}
			if n < len(a) {
				cached += n / 4
			}
		}
		c.last, c.lastHashes = units, hashes
	}
	lastBreak := -1
	for i, u := range units {
		if !c.breakpoints || u.breakpoint {
			c.seen[hashes[i]] = true
			if u.breakpoint {
				lastBreak = i
			}
		}
	}
	if c.breakpoints && lastBreak >= 0 && prefix[lastBreak] > cached {
		written = prefix[lastBreak] - cached
	}
	return total, cached, written
}

// SetWindow makes the server refuse requests of more than tokens input
// tokens with the provider's context-overflow error (0: no limit).
func (s *Server) SetWindow(tokens int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.window = tokens
}

// Usage returns the token accounting so far.
func (s *Server) Usage() Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.usage
}

// overflowTurn is the provider's own error for a request over the window.
func overflowTurn(kind string, tokens, window int) *Turn {
	var msg string
	switch kind {
	case "anthropic":
		msg = fmt.Sprintf("prompt is too long: %d tokens > %d maximum", tokens, window)
	case "gemini":
		msg = fmt.Sprintf("The input token count (%d) exceeds the maximum number of tokens allowed (%d).", tokens, window)
	default:
		b, _ := json.Marshal(map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", window, tokens),
			"type":    "invalid_request_error", "param": "messages", "code": "context_length_exceeded",
		}})
		return &Turn{Status: http.StatusBadRequest, Body: string(b)}
	}
	return &Turn{Status: http.StatusBadRequest, Message: msg}
}

// stripCacheControl removes cache_control from a block, so that moving a
// breakpoint does not change the prefix it marks.
func stripCacheControl(raw json.RawMessage) ([]byte, bool) {
	if !bytes.Contains(raw, []byte(`"cache_control"`)) {
		return raw, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw, false
	}
	_, had := m["cache_control"]
	delete(m, "cache_control")
	b, _ := json.Marshal(m)
	return b, had
}

// outputTokens is the fakes' count of a turn's answer.
func outputTokens(t *Turn) int {
	n := CountTokens(t.Text) + CountTokens(t.Thinking)
	for _, c := range t.Chunks {
		n += CountTokens(c)
	}
	for _, c := range t.ToolCalls {
		n += CountTokens(c.Name) + CountTokens(c.Arguments)
	}
	return max(n, 1)
}

// SamePrefix reports whether b repeats a byte for byte up to a's last unit
// (the tools, the system prompt and every message or block of a but the
// last, where per-request facts go).
func SamePrefix(a, b Request) error {
	n := len(a.units) - 1
	if n < 1 {
		return fmt.Errorf("the first request has no prefix")
	}
	if len(b.units) < n {
		return fmt.Errorf("the second request has %d units, fewer than the first's prefix of %d", len(b.units), n)
	}
	for i := 0; i < n; i++ {
		if !bytes.Equal(a.units[i].data, b.units[i].data) {
			return fmt.Errorf("unit %d differs:\n  %s\nthen:\n  %s", i+1, abbrev(string(a.units[i].data)), abbrev(string(b.units[i].data)))
		}
	}
	return nil
}
