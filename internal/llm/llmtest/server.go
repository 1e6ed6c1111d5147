package llmtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Request is a received request decoded into a provider-neutral shape.
type Request struct {
	Kind      string // "openai", "anthropic" or "gemini" (the server's kind)
	Path      string
	Header    http.Header
	Model     string
	System    string
	Messages  []Message
	Tools     []string
	MaxTokens int
	Stream    bool
	// Raw is the request body as received.
	Raw []byte
	// Tokens is the request's size in the fakes' token count; Cached and
	// Written are the tokens read from and written to the prompt cache.
	Tokens, Cached, Written int
	// Breakpoints counts cache_control breakpoints (Anthropic).
	Breakpoints int
	// ReasoningEffort is OpenAI's reasoning_effort; ThinkingBudget
	// Anthropic's thinking.budget_tokens (0 when thinking is off).
	ReasoningEffort string
	ThinkingBudget  int

	units []unit
	// usage: the client asked for usage in the stream (OpenAI).
	usage bool
}

// Message is one decoded conversation entry. Roles are the wire's own:
// OpenAI (and Gemini) tool results are role "tool", Anthropic's arrive in a
// "user" message.
type Message struct {
	Role        string
	Text        string
	Images      []Image
	ToolCalls   []ToolCall
	ToolResults []ToolResult
	// Thinking holds the thinking blocks of an Anthropic assistant message.
	Thinking []Thinking

	textBlocks []string
}

// Thinking is a thinking block received in an assistant message.
type Thinking struct {
	Text      string `json:"text,omitempty"`
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"`
}

// Image is an image received in a message.
type Image struct {
	MediaType string
	Data      []byte
}

// ToolResult is a tool result received in a message.
type ToolResult struct {
	CallID  string `json:"callId"`
	Name    string `json:"name,omitempty"`
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
}

// LastUserText is the text of the user messages after the last assistant
// message that have text (or of the last one with text), joined by
// newlines: the user's latest message with the request's facts, which
// clients may send as a message of their own.
func (r *Request) LastUserText() string {
	var texts []string
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role == "assistant" && len(texts) > 0 {
			break
		}
		if m.Role == "user" && m.Text != "" {
			texts = append([]string{m.Text}, texts...)
		}
	}
	return strings.Join(texts, "\n")
}

// Tail is the last text the request carries in a user message, or in the
// tool result that ends it: where clients put per-request facts, after the
// cacheable prefix.
func (r *Request) Tail() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role == "tool" && i == len(r.Messages)-1 && len(m.ToolResults) > 0 {
			return m.ToolResults[len(m.ToolResults)-1].Content
		}
		if m.Role != "user" || m.Text == "" {
			continue
		}
		if n := len(m.textBlocks); n > 0 {
			return m.textBlocks[n-1]
		}
		return m.Text
	}
	return ""
}

// LastToolResults are the tool results after the last assistant message.
func (r *Request) LastToolResults() []ToolResult {
	var out []ToolResult
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "assistant"; i-- {
		out = append(r.Messages[i].ToolResults, out...)
	}
	return out
}

func (r *Request) lastUserImages() int {
	n := 0
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "assistant"; i-- {
		n += len(r.Messages[i].Images)
	}
	return n
}

// Server is a scripted fake model server.
type Server struct {
	kind string
	wire wire
	srv  *httptest.Server
	fail func(string)
	// done is closed by Close so that hanging handlers return.
	done      chan struct{}
	closeOnce sync.Once

	mu       sync.Mutex
	turns    []Turn
	standing []Turn
	next     int
	requests []Request
	problems []string
	window   int
	cache    promptCache
	usage    Usage
	// local is the local server it plays (local.go); side the requests
	// it answered besides chat completions.
	local Local
	side  []string
}

// wire is one wire format.
type wire interface {
	// decode parses a request; problems are protocol violations.
	decode(r *http.Request, body []byte) (*Request, []string, error)
	writeError(w http.ResponseWriter, t *Turn)
	stream(ctx context.Context, w *sse, req *Request, t *Turn, n int) error
	streamError(w *sse, msg string) error
	basePath() string
}

// Start runs a fake server of kind "openai", "anthropic" or "gemini" (the
// OpenAI format as Gemini's OpenAI-compatible endpoint speaks it) on a
// loopback port. fail receives every problem as it is found (nil ignores
// them; Verify still returns them).
func Start(kind string, turns []Turn, fail func(string)) (*Server, error) {
	var wf wire
	switch kind {
	case "openai":
		wf = openaiWire{}
	case "anthropic":
		wf = anthropicWire{}
	case "gemini":
		wf = openaiWire{gemini: true}
	default:
		return nil, fmt.Errorf("llmtest: unknown server kind %q (want openai, anthropic or gemini)", kind)
	}
	if fail == nil {
		fail = func(string) {}
	}
	s := &Server{kind: kind, wire: wf, fail: fail, done: make(chan struct{})}
	s.cache.breakpoints = kind == "anthropic"
	for _, t := range turns {
		switch {
		case t.Standing:
			s.standing = append(s.standing, t)
		case t.Times > 1:
			for range t.Times {
				s.turns = append(s.turns, t)
			}
		default:
			s.turns = append(s.turns, t)
		}
	}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(wf, w, r)
	}))
	return s, nil
}

// NewOpenAI starts an OpenAI Chat Completions fake for a test.
func NewOpenAI(t testing.TB, turns ...Turn) *Server { return newForTest(t, "openai", turns) }

// NewAnthropic starts an Anthropic Messages fake for a test.
func NewAnthropic(t testing.TB, turns ...Turn) *Server { return newForTest(t, "anthropic", turns) }

// NewGemini starts a fake of Gemini's OpenAI-compatible endpoint for a test.
func NewGemini(t testing.TB, turns ...Turn) *Server { return newForTest(t, "gemini", turns) }

func newForTest(t testing.TB, kind string, turns []Turn) *Server {
	t.Helper()
	s, err := Start(kind, turns, func(msg string) { t.Errorf("%s", msg) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		if left := s.unconsumed(); left != "" {
			t.Errorf("%s", left)
		}
	})
	return s
}

// Kind is "openai", "anthropic" or "gemini".
func (s *Server) Kind() string { return s.kind }

// URL is the base URL to give the SDK: ".../v1" for OpenAI (OPENAI_BASE_URL),
// ".../v1beta/openai" for Gemini (GEMINI_BASE_URL), the server root for
// Anthropic (ANTHROPIC_BASE_URL).
func (s *Server) URL() string { return s.srv.URL + s.wire.basePath() }

// Root is the server's root URL (an Azure OpenAI endpoint, for example,
// for a server of kind "openai").
func (s *Server) Root() string { return s.srv.URL }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Remaining is the number of turns not yet consumed.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.next
}

// Close stops the server, releasing hanging streams first. It is safe to
// call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Verify returns every problem found: protocol violations, failed
// expectations, unexpected requests, and turns not consumed.
func (s *Server) Verify() error {
	s.mu.Lock()
	probs := append([]string(nil), s.problems...)
	s.mu.Unlock()
	if left := s.unconsumed(); left != "" {
		probs = append(probs, left)
	}
	if len(probs) == 0 {
		return nil
	}
	return errors.New(strings.Join(probs, "\n"))
}

func (s *Server) unconsumed() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.turns) {
		return ""
	}
	return fmt.Sprintf("llmtest %s: %d scripted turn(s) not consumed (next was turn %d of %d)", s.kind, len(s.turns)-s.next, s.next+1, len(s.turns))
}

func (s *Server) problem(format string, args ...any) {
	msg := fmt.Sprintf("llmtest %s: ", s.kind) + fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.problems = append(s.problems, msg)
	s.mu.Unlock()
	s.fail(msg)
}

func (s *Server) serve(wf wire, w http.ResponseWriter, r *http.Request) {
	if s.serveSide(w, r) {
		return
	}
	body, err := readBody(r)
	if err != nil {
		s.problem("reading request: %v", err)
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	req, probs, err := wf.decode(r, body)
	if err != nil {
		s.problem("%s %s: %v", r.Method, r.URL.Path, err)
		http.Error(w, `{"error":{"message":"malformed request"}}`, http.StatusBadRequest)
		return
	}
	req.Raw = body
	s.mu.Lock()
	n := s.next
	var turn *Turn
	for i := range s.standing {
		if len(check(s.standing[i].Expect, req)) == 0 {
			turn = &s.standing[i]
			break
		}
	}
	if turn == nil && n < len(s.turns) {
		turn = &s.turns[n]
		s.next++
	}
	total := 0
	for _, u := range req.units {
		total += unitTokens(u)
	}
	s.usage.Requests++
	s.usage.Largest = max(s.usage.Largest, total)
	over := s.window > 0 && total > s.window
	if over {
		s.usage.Overflows++
		req.Tokens = total
	} else {
		req.Tokens, req.Cached, req.Written = s.cache.lookup(req.units)
		s.usage.Input += req.Tokens
		s.usage.Cached += req.Cached
		s.usage.Written += req.Written
	}
	window := s.window
	s.requests = append(s.requests, *req)
	s.mu.Unlock()
	if reject := s.rejectLocal(req, body); reject != nil {
		// Refused before the script is consulted: the turn stays.
		if turn != nil && !turn.Standing {
			s.mu.Lock()
			s.next--
			s.mu.Unlock()
		}
		wf.writeError(w, reject)
		return
	}
	if over {
		// The provider refuses before the script is consulted; the turn
		// stays for the retry.
		if turn != nil && !turn.Standing {
			s.mu.Lock()
			s.next--
			s.mu.Unlock()
		}
		wf.writeError(w, overflowTurn(s.kind, total, window))
		return
	}

	for _, p := range probs {
		s.problem("request %d: %s", n+1, p)
	}
	if turn == nil {
		s.problem("request %d arrived but no scripted turn is left (last user message %q)", n+1, req.LastUserText())
		// 400, not 5xx, so that clients do not retry it.
		wf.writeError(w, &Turn{Status: http.StatusBadRequest, Message: "llmtest: no scripted turn left"})
		return
	}
	for _, p := range check(turn.Expect, req) {
		s.problem("turn %d: %s", n+1, p)
	}
	if turn.Status != 0 {
		if turn.RetryAfter != "" {
			w.Header().Set("Retry-After", turn.RetryAfter)
		}
		wf.writeError(w, turn)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	switch {
	case turn.Silent:
		<-ctx.Done()
		return
	case turn.HTML != "":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, turn.HTML)
		return
	}
	out := newSSE(w, turn.Delay, ctx)
	if err := wf.stream(ctx, out, req, turn, n); err != nil {
		return
	}
	switch {
	case turn.StreamError != "":
		_ = wf.streamError(out, turn.StreamError)
	case turn.Hang:
		<-ctx.Done()
	}
}

func check(e Expect, req *Request) []string {
	var out []string
	if e.LastUser != "" && !strings.Contains(req.LastUserText(), e.LastUser) {
		out = append(out, fmt.Sprintf("last user message %q does not contain %q", req.LastUserText(), e.LastUser))
	}
	if e.Facts != "" && !strings.Contains(req.Tail(), e.Facts) {
		out = append(out, fmt.Sprintf("the request's last user text does not contain the fact %q (got %q)", e.Facts, abbrev(req.Tail())))
	}
	if e.System != "" && !strings.Contains(req.System, e.System) {
		out = append(out, fmt.Sprintf("system prompt does not contain %q (got %q)", e.System, abbrev(req.System)))
	}
	if e.ToolResult != "" {
		found := false
		for _, tr := range req.LastToolResults() {
			if strings.Contains(tr.Content, e.ToolResult) {
				found = true
			}
		}
		if !found {
			out = append(out, fmt.Sprintf("no tool result containing %q (got %+v)", e.ToolResult, req.LastToolResults()))
		}
	}
	for _, name := range e.Tools {
		found := false
		for _, t := range req.Tools {
			found = found || t == name
		}
		if !found {
			out = append(out, fmt.Sprintf("tool %q not offered (offered %q)", name, req.Tools))
		}
	}
	if e.Model != "" && req.Model != e.Model {
		out = append(out, fmt.Sprintf("model is %q, want %q", req.Model, e.Model))
	}
	if e.Images > 0 && req.lastUserImages() < e.Images {
		out = append(out, fmt.Sprintf("last user message has %d image(s), want at least %d", req.lastUserImages(), e.Images))
	}
	return out
}

func abbrev(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// sse writes server-sent events, flushing each, pausing between them.
type sse struct {
	w       http.ResponseWriter
	delay   time.Duration
	ctx     context.Context
	started bool
}

func newSSE(w http.ResponseWriter, delay time.Duration, ctx context.Context) *sse {
	return &sse{w: w, delay: delay, ctx: ctx}
}

// event writes one event; name may be empty. It returns an error when the
// client went away.
func (s *sse) event(name string, data []byte) error {
	if !s.started {
		s.w.Header().Set("Content-Type", "text/event-stream")
		s.w.Header().Set("Cache-Control", "no-cache")
		s.w.WriteHeader(http.StatusOK)
		s.started = true
	} else if s.delay > 0 {
		t := time.NewTimer(s.delay)
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
			return s.ctx.Err()
		}
	}
	if err := s.ctx.Err(); err != nil {
		return err
	}
	var b strings.Builder
	if name != "" {
		b.WriteString("event: " + name + "\n")
	}
	b.WriteString("data: ")
	b.Write(data)
	b.WriteString("\n\n")
	if _, err := s.w.Write([]byte(b.String())); err != nil {
		return err
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}

// checkToolPairs verifies that every tool call is answered by a result in
// the following message group and every result answers such a call.
// groups are consecutive non-assistant messages after each assistant one.
func checkToolPairs(msgs []Message) []string {
	var out []string
	pending := map[string]bool{}
	for i, m := range msgs {
		if m.Role == "assistant" {
			for id := range pending {
				out = append(out, fmt.Sprintf("message %d: tool call %q has no tool result before the next assistant message", i+1, id))
			}
			pending = map[string]bool{}
			for _, c := range m.ToolCalls {
				if c.ID == "" {
					out = append(out, fmt.Sprintf("message %d: tool call %q has no id", i+1, c.Name))
					continue
				}
				pending[c.ID] = true
			}
			continue
		}
		for _, r := range m.ToolResults {
			if !pending[r.CallID] {
				out = append(out, fmt.Sprintf("message %d: tool result for %q matches no pending tool call", i+1, r.CallID))
				continue
			}
			delete(pending, r.CallID)
		}
	}
	// Calls pending at the end are fine only if nothing follows them, which
	// never happens in a request (the last message is user or tool).
	for id := range pending {
		out = append(out, fmt.Sprintf("tool call %q has no tool result", id))
	}
	return out
}
