// Package mcpserver serves nb's tools to other AI clients over the Model
// Context Protocol (`nb mcp serve`): run_cmd, set_cwd, the terminal session
// tools, the file tools and get_context, each call reviewed by the same policy
// as in nb's own chat. Calls the policy allows run; denied calls return a tool
// error carrying the remedy; calls that need approval are put to the user
// through MCP elicitation when the client supports it, and are otherwise
// refused (unless configuration trusts the client's own approval).
package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nb-cli/nb/internal/approval"
	"github.com/nb-cli/nb/internal/policy"
	"github.com/nb-cli/nb/internal/redact"
	"github.com/nb-cli/nb/internal/tool"
	"github.com/nb-cli/nb/internal/visible"
)

// Options configures a Server.
type Options struct {
	// Tools are served under their own names.
	Tools []tool.Tool
	// TrustClientApproval runs "ask" calls when the client cannot elicit,
	// relying on the client's own approval of tool calls.
	TrustClientApproval bool
	// Version is reported to clients.
	Version string
	// Instructions are sent to clients at initialization.
	Instructions string
	// Logger receives protocol diagnostics (nil: discarded).
	Logger *slog.Logger
	// Closers are called by Close: terminal sessions, hosts.
	Closers []io.Closer
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Grant, when set, saves a session grant for a decision the user
	// approved with "always" in the elicitation form.
	Grant func(d *policy.Decision) error
	// Cwd is the session working directory calls are reviewed against
	// (nil: none, for tools that do not use one).
	Cwd func() string
	// Audit, when set, is told every decision and how the call ended.
	// d is nil when the arguments were unusable; res is set once the call ran.
	// at is where the call was reviewed.
	Audit func(name string, at tool.At, d *policy.Decision, outcome string, res *tool.Result)
	// Redact withholds secrets from every text a call returns, results
	// and errors alike (nil: none are withheld).
	Redact func(text string) redact.Result
	// Warm, when set, runs once in the background once the server has
	// answered its first request (initialize, or a first call): what the
	// first call would otherwise wait for (the secret detector's start)
	// is made while the client looks at the tools, not before the
	// client's handshake is answered.
	Warm func()
}

// Server is nb's MCP server.
type Server struct {
	opts  Options
	mcp   *mcp.Server
	key   []byte // signs approval round trips
	calls atomic.Int64

	closeOnce sync.Once
	closeErr  error
}

// New builds the server and registers every tool.
func New(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{opts: opts, key: make([]byte, 32)}
	if _, err := rand.Read(s.key); err != nil {
		return nil, fmt.Errorf("mcp server: %w", err)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "nb", Title: "nb terminal integration", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: opts.Instructions,
		Logger:       opts.Logger,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	if opts.Warm != nil {
		warm := sync.OnceFunc(func() { go opts.Warm() })
		s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				defer warm()
				return next(ctx, method, req)
			}
		})
	}
	seen := map[string]bool{}
	for _, t := range opts.Tools {
		spec := t.Spec()
		if seen[spec.Name] {
			return nil, fmt.Errorf("mcp server: tool %s registered twice", spec.Name)
		}
		seen[spec.Name] = true
		var schema map[string]any
		if err := json.Unmarshal(spec.Schema, &schema); err != nil || schema["type"] != "object" {
			return nil, fmt.Errorf("mcp server: tool %s: input schema must be a JSON object schema", spec.Name)
		}
		s.mcp.AddTool(&mcp.Tool{Name: spec.Name, Description: spec.Description, InputSchema: json.RawMessage(spec.Schema)}, s.withheld(s.handler(t)))
	}
	return s, nil
}

// MCP returns the underlying SDK server (for custom transports).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close ends what the tools started (terminal sessions and their process
// groups). It is safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		var errs []error
		for _, c := range s.opts.Closers {
			if err := c.Close(); err != nil {
				errs = append(errs, err)
			}
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

// WithheldMeta is the key of a result's _meta that lists, by kind, the
// secrets withheld from its text ([{"kind":"github-pat","count":1}]).
const WithheldMeta = "nb/withheld"

// withheld wraps a handler so that every text it returns, whatever the
// path (a result, a refusal, an error, the question an approval puts to
// the user, structured content), passes the detector; the result's
// _meta says what was withheld. The client never gets the secrets: it
// cannot ask nb's user to release them.
func (s *Server) withheld(h mcp.ToolHandler) mcp.ToolHandler {
	if s.opts.Redact == nil {
		return h
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := h(ctx, req)
		var counts []redact.Count
		screen := func(text string) string {
			r := s.opts.Redact(text)
			counts = redact.Merge(counts, r.Counts())
			return r.Text
		}
		if err != nil {
			if text := screen(err.Error()); text != err.Error() {
				err = errors.New(text)
			}
		}
		if res == nil {
			return res, err
		}
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				tc.Text = screen(tc.Text)
			}
		}
		for _, in := range res.InputRequests {
			if e, ok := in.(*mcp.ElicitParams); ok {
				e.Message = screen(e.Message)
			}
		}
		if res.StructuredContent != nil {
			if b, jerr := json.Marshal(res.StructuredContent); jerr == nil {
				if text := screen(string(b)); text != string(b) {
					res.StructuredContent = json.RawMessage(text)
				}
			}
		}
		if len(counts) > 0 {
			if res.Meta == nil {
				res.Meta = mcp.Meta{}
			}
			res.Meta[WithheldMeta] = counts
		}
		return res, err
	}
}

// approvalID names nb's approval input request in a multi round-trip call.
const approvalID = "nb_approval"

func (s *Server) handler(t tool.Tool) mcp.ToolHandler {
	name := t.Spec().Name
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage("{}")
		}
		call := &tool.Call{ID: fmt.Sprintf("mcp-%d", s.calls.Add(1)), Name: name, Args: args}
		at := tool.At{}
		if s.opts.Cwd != nil {
			at.Cwd = s.opts.Cwd()
		}
		inv, err := t.Review(ctx, call, at)
		if err != nil {
			s.audit(name, at, nil, "invalid: "+err.Error())
			return errorResult("error: " + err.Error()), nil
		}
		d := inv.Decision
		switch d.Decision {
		case policy.Allow:
		case policy.Deny:
			s.audit(name, at, d, "denied")
			why := "denied by policy"
			if d.Headless() {
				why = "it needs the user's approval and nb has no terminal to ask"
			}
			return errorResult(refusal(d, why)), nil
		default:
			ok, res := s.approve(req, name, at, args, d)
			if res != nil {
				return res, nil
			}
			if !ok {
				return errorResult(refusal(d, "the user did not approve it")), nil
			}
		}
		res, err := inv.Run(ctx)
		if err != nil {
			s.audit(name, at, d, "failed: "+err.Error())
			return errorResult("error: " + err.Error()), nil
		}
		s.auditResult(name, at, d, "ran", res)
		out := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Content}}, IsError: res.IsError}
		return out, nil
	}
}

// approve settles an "ask" decision. It returns the user's answer, or a
// result to send instead of running: an elicitation round trip or a refusal.
func (s *Server) approve(req *mcp.CallToolRequest, name string, at tool.At, args json.RawMessage, d *policy.Decision) (bool, *mcp.CallToolResult) {
	state := s.sign(name, at, args)
	if resp, ok := req.Params.InputResponses[approvalID]; ok {
		if !hmac.Equal([]byte(req.Params.RequestState), []byte(state)) {
			s.audit(name, at, d, "refused: approval for a different call")
			return false, errorResult("error: the approval answer does not belong to this call; call the tool again")
		}
		er, ok := resp.(*mcp.ElicitResult)
		approved := ok && er.Action == "accept" && er.Content["approve"] == true
		if approved {
			d.DecidedBy = policy.ByUser
			if er.Content["always"] == true && d.OfferAlways && d.Rule != "" && s.opts.Grant != nil {
				if err := s.opts.Grant(d); err != nil {
					s.opts.Logger.Warn("saving grant", "rule", d.Rule, "error", err)
				}
			}
			return true, nil
		}
		s.audit(name, at, d, "refused by the user")
		return false, nil
	}
	if canElicit(req.Session) {
		s.audit(name, at, d, "asking")
		return false, &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{approvalID: elicitation(name, d)},
			RequestState:  state,
		}
	}
	if s.opts.TrustClientApproval {
		d.DecidedBy = policy.ByClient
		return true, nil
	}
	s.audit(name, at, d, "denied: no way to ask")
	return false, errorResult(refusal(d, "it needs the user's approval and this MCP client cannot ask (no elicitation support)"))
}

// sign binds an approval round trip to one tool, its exact arguments and
// the directory it was reviewed in, so an answer cannot be replayed for a
// different call or after the working directory moved.
func (s *Server) sign(name string, at tool.At, args json.RawMessage) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(name))
	m.Write([]byte{0})
	m.Write([]byte(at.Cwd))
	m.Write([]byte{0})
	m.Write(args)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func canElicit(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}

// elicitation is the question put to the user: the tool, the prompt line
// with its warning, and the full text behind it. Everything from the call
// is escaped once (package visible): control characters, carriage returns,
// bidirectional overrides and invisible characters never reach the client
// raw.
func elicitation(name string, d *policy.Decision) *mcp.ElicitParams {
	var b strings.Builder
	b.WriteString(visible.String(name))
	b.WriteString(": ")
	// The display line is the policy's, escaped there with the same
	// function, with the warning sign drawn as nb's own prompt draws it;
	// the full text is shown when the display does not already show all
	// of it.
	b.WriteString(approval.DisplayLine(d))
	if full := strings.TrimRight(truncate(d.Full, 4000), "\n"); full != "" && !shows(d.Display, full) {
		b.WriteString("\n\n")
		b.WriteString(visible.Lines(full))
	}
	if len(d.Reasons) > 0 {
		b.WriteString("\n\n(")
		b.WriteString(visible.String(strings.Join(d.Reasons, "; ")))
		b.WriteString(")")
	}
	def := d.DefaultAnswer != "no"
	props := map[string]any{
		"approve": map[string]any{"type": "boolean", "title": "Run it?", "description": "Allow nb to perform this action", "default": def},
	}
	if d.OfferAlways && d.Rule != "" && !d.Warn {
		rule := visible.String(d.Rule)
		props["always"] = map[string]any{"type": "boolean", "title": "Always allow " + rule, "description": "Allow calls matching " + rule + " without asking until nb mcp serve exits", "default": false}
	}
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: b.String(),
		RequestedSchema: map[string]any{
			"type":       "object",
			"properties": props,
			"required":   []string{"approve"},
		},
	}
}

// shows reports whether display already shows every line of full.
func shows(display, full string) bool {
	for _, l := range strings.Split(full, "\n") {
		if !strings.Contains(display, visible.String(l)) {
			return false
		}
	}
	return true
}

// refusal is the tool error the model receives when a call does not run.
func refusal(d *policy.Decision, why string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "error: not run (%s): %s", d.Display, why)
	if len(d.Reasons) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(d.Reasons, "; "))
	}
	b.WriteString(". Do not retry the same call; ask the user or choose another way.")
	if r := remedy(d); r != "" {
		b.WriteString(" Remedy for the user: ")
		b.WriteString(r)
	}
	return b.String()
}

func remedy(d *policy.Decision) string {
	if d.Remedy != "" {
		return d.Remedy
	}
	if d.Decision == policy.Deny {
		return "a deny rule in the configuration blocks this"
	}
	if d.Rule != "" {
		return fmt.Sprintf("re-run nb mcp serve with --approve '%s', or use a client that supports elicitation", d.Rule)
	}
	return "use a client that supports elicitation, or set approval.trustClientApproval in nb's config to rely on the client's approval"
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[... %d more bytes ...]", len(s)-cut)
}

func (s *Server) audit(name string, at tool.At, d *policy.Decision, outcome string) {
	s.auditResult(name, at, d, outcome, nil)
}

func (s *Server) auditResult(name string, at tool.At, d *policy.Decision, outcome string, res *tool.Result) {
	if s.opts.Audit != nil {
		s.opts.Audit(name, at, d, outcome, res)
	}
}
