package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	oa "github.com/openai/openai-go/v3"

	"github.com/nb-cli/nb/internal/llm"
)

// What an OpenAI-compatible server says of its models beyond the API:
// their list (/models, asked through the SDK) and the context window it
// runs one with, which for a local server is its own setting, not the
// model's: vLLM's max_model_len in /models, llama.cpp's n_ctx in /props,
// Ollama's context length of a loaded model (/api/ps) or the num_ctx of
// its parameters (/api/show). Each is read only when the server answers
// it as JSON; anything else means "not said".

// serverAccess reaches a compatible server's own endpoints.
type serverAccess struct {
	base, key string
	headers   map[string]string
	client    *http.Client
}

// maxServerBody bounds what nb reads of a server's answer about itself.
const maxServerBody = 4 << 20

// Models lists the models the server offers (GET /models).
func (p *Provider) Models(ctx context.Context) ([]llm.ModelInfo, error) {
	svc := oa.NewModelService(p.opts...)
	page, err := svc.List(ctx)
	if err != nil {
		return nil, p.classify(ctx, err, nil)
	}
	var out []llm.ModelInfo
	for _, m := range page.Data {
		info := llm.ModelInfo{ID: m.ID}
		for _, key := range []string{"max_model_len", "context_length"} {
			if f, ok := m.JSON.ExtraFields[key]; ok {
				if n, err := strconv.Atoi(f.Raw()); err == nil && n > 0 {
					info.Window, info.WindowFrom = n, key+" in /models"
					break
				}
			}
		}
		out = append(out, info)
	}
	return out, nil
}

// ServerWindow asks a compatible server the context window it runs model
// with; 0 when it does not say, an error when it cannot be asked (no
// answer to /models).
func (p *Provider) ServerWindow(ctx context.Context, model string) (int, string, error) {
	if !p.compatible || p.server.base == "" {
		return 0, "", nil
	}
	list, err := p.Models(ctx)
	var le *llm.Error
	if errors.As(err, &le) && (le.Kind == llm.ErrNetwork || le.Kind == llm.ErrTimeout || le.Kind == llm.ErrServer) {
		return 0, "", err
	}
	for _, m := range list {
		if m.ID == model && m.Window > 0 {
			return m.Window, m.WindowFrom, nil
		}
	}
	var props struct {
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if p.server.get(ctx, "GET", "/props", nil, &props) == nil && props.Settings.NCtx > 0 {
		return props.Settings.NCtx, "n_ctx in /props", nil
	}
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if p.server.get(ctx, "GET", "/api/ps", nil, &ps) == nil {
		for _, m := range ps.Models {
			if (m.Name == model || m.Model == model) && m.ContextLength > 0 {
				return m.ContextLength, "context_length in /api/ps", nil
			}
		}
	}
	var show struct {
		Parameters string `json:"parameters"`
	}
	if p.server.get(ctx, "POST", "/api/show", map[string]string{"model": model}, &show) == nil {
		if m := numCtx.FindStringSubmatch(show.Parameters); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n, "num_ctx in /api/show", nil
			}
		}
	}
	return 0, "", nil
}

// numCtx finds num_ctx in Ollama's parameters text ("num_ctx 8192").
var numCtx = regexp.MustCompile(`(?m)^\s*num_ctx\s+(\d+)\s*$`)

// get sends a request to path at the server's root (the base URL without
// its /v1) and decodes its JSON answer into out.
func (s serverAccess) get(ctx context.Context, method, path string, body any, out any) error {
	root := strings.TrimSuffix(strings.TrimSuffix(s.base, "/"), "/v1")
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, root+path, rd)
	if err != nil {
		return err
	}
	if s.key != "" && s.key != "none" {
		req.Header.Set("Authorization", "Bearer "+s.key)
	}
	for k, v := range s.headers {
		req.Header.Set(k, v)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := s.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxServerBody))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d", method, path, resp.StatusCode)
	}
	return json.Unmarshal(data, out)
}
