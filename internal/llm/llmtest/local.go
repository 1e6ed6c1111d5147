package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// A fake of the OpenAI wire may also play a local server's part, as
// llama.cpp's, vLLM's or Ollama's server does behind its OpenAI-compatible
// endpoint: it lists its models (GET /v1/models), says the context window
// it runs with (llama.cpp's /props, vLLM's max_model_len in the list),
// answers 404 for a model it does not serve, and may apply a strict chat
// template (Gemma 2's: user and assistant turns alternating, no system or
// tool role) and parse the arguments of the tool calls sent back, as
// llama.cpp does, answering HTTP 500 when they are not JSON.

// Local is what a fake local server does besides the script.
type Local struct {
	// Models are listed by GET /v1/models; a request for any other model
	// gets HTTP 404. None: one model, DefaultModel, and any model name is
	// answered.
	Models []LocalModel `json:"models,omitempty"`
	// NCtx, when set, is the n_ctx GET /props reports (llama.cpp).
	NCtx int `json:"nCtx,omitempty"`
	// Ollama's: the context length of the loaded models (GET /api/ps),
	// and the num_ctx of the models' parameters (POST /api/show).
	OllamaLoaded int `json:"ollamaLoaded,omitempty"`
	OllamaNumCtx int `json:"ollamaNumCtx,omitempty"`
	// StrictRoles rejects, with HTTP 400, a request whose roles are not
	// user and assistant alternating from a user turn on (no system or
	// tool role), in the words of such templates.
	StrictRoles bool `json:"strictRoles,omitempty"`
	// ParseArguments answers HTTP 500, as llama.cpp does, to a request
	// holding tool-call arguments that are not a JSON object.
	ParseArguments bool `json:"parseArguments,omitempty"`
}

// LocalModel is one model a local server lists.
type LocalModel struct {
	ID string `json:"id"`
	// MaxModelLen is vLLM's window in the list (0: not said).
	MaxModelLen int `json:"maxModelLen,omitempty"`
}

// DefaultModel is the one model a fake OpenAI server lists when its
// Local says none.
const DefaultModel = "llama3.2"

// Rejections of the local server, as real ones word them.
const (
	rolesMessage = "Conversation roles must alternate user/assistant/user/assistant/..."
	argsMessage  = "Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] parse error"
)

// SetLocal makes the server play a local server (see Local).
func (s *Server) SetLocal(l Local) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.local = l
}

// serveSide answers the requests a client makes of a server besides chat
// completions (its models, its settings); it reports whether r was one.
// They are not scripted turns and are not recorded among the requests.
func (s *Server) serveSide(w http.ResponseWriter, r *http.Request) bool {
	if s.kind != "openai" {
		return false
	}
	s.mu.Lock()
	l := s.local
	s.side = append(s.side, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		models := l.Models
		if len(models) == 0 {
			models = []LocalModel{{ID: DefaultModel}}
		}
		var data []map[string]any
		for _, m := range models {
			entry := map[string]any{"id": m.ID, "object": "model", "created": 1700000000, "owned_by": "local"}
			if m.MaxModelLen > 0 {
				entry["max_model_len"] = m.MaxModelLen
			}
			data = append(data, entry)
		}
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
	case r.Method == http.MethodGet && r.URL.Path == "/props" && l.NCtx > 0:
		writeJSON(w, http.StatusOK, map[string]any{"default_generation_settings": map[string]any{"n_ctx": l.NCtx}, "total_slots": 1})
	case r.Method == http.MethodGet && r.URL.Path == "/api/ps" && l.OllamaLoaded > 0:
		var loaded []map[string]any
		for _, m := range l.Models {
			loaded = append(loaded, map[string]any{"name": m.ID, "model": m.ID, "context_length": l.OllamaLoaded})
		}
		writeJSON(w, http.StatusOK, map[string]any{"models": loaded})
	case r.Method == http.MethodPost && r.URL.Path == "/api/show" && l.OllamaNumCtx > 0:
		writeJSON(w, http.StatusOK, map[string]any{"parameters": fmt.Sprintf("stop \"<end>\"\nnum_ctx %d", l.OllamaNumCtx), "model_info": map[string]any{"llama.context_length": 131072}})
	case r.URL.Path == "/props" || strings.HasPrefix(r.URL.Path, "/api/"):
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": 404, "message": "File Not Found", "type": "not_found_error"}})
	default:
		return false
	}
	return true
}

// SideRequests are the requests answered besides chat completions
// ("GET /v1/models", "GET /props", …), in order.
func (s *Server) SideRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.side...)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(v)
	w.Write(b)
}

// rejectLocal is the error a local server answers req with before any
// turn of the script is consulted (nil: none).
func (s *Server) rejectLocal(req *Request, body []byte) *Turn {
	s.mu.Lock()
	l := s.local
	s.mu.Unlock()
	if len(l.Models) > 0 {
		found := false
		for _, m := range l.Models {
			found = found || m.ID == req.Model
		}
		if !found {
			return &Turn{Status: http.StatusNotFound, Message: fmt.Sprintf("model %q not found", req.Model)}
		}
	}
	var raw struct {
		Messages []struct {
			Role      string `json:"role"`
			ToolCalls []struct {
				Function struct {
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &raw) != nil {
		return nil
	}
	if l.ParseArguments {
		for _, m := range raw.Messages {
			for _, c := range m.ToolCalls {
				var obj map[string]any
				if json.Unmarshal([]byte(c.Function.Arguments), &obj) != nil {
					return &Turn{Status: http.StatusInternalServerError, Message: argsMessage}
				}
			}
		}
	}
	if l.StrictRoles {
		for i, m := range raw.Messages {
			want := "user"
			if i%2 == 1 {
				want = "assistant"
			}
			if m.Role != want {
				return &Turn{Status: http.StatusBadRequest, Message: rolesMessage}
			}
		}
	}
	return nil
}
