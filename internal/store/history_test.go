package store

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

func TestHistoryRoundTrip(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	msgs, warn, err := h.Load()
	if err != nil || warn != "" || len(msgs) != 0 {
		t.Fatalf("empty Load = %v, %q, %v", msgs, warn, err)
	}
	in := []llm.Message{
		{Role: llm.RoleUser, Text: "hi", Images: []llm.Image{{MediaType: "image/png", Data: []byte{0x89, 'P', 'N', 'G', 0}}}},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "run_cmd", Arguments: `{"command":"ls"}`}}},
		{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "run_cmd", Text: `{"exitCode":0}`},
	}
	if err := h.Save(in); err != nil {
		t.Fatal(err)
	}
	got, _, err := h.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || string(got[0].Images[0].Data) != string(in[0].Images[0].Data) || got[1].ToolCalls[0].Arguments != in[1].ToolCalls[0].Arguments || got[2].ToolCallID != "c1" {
		t.Errorf("round trip = %+v", got)
	}
	data, _ := os.ReadFile(filepath.Join(launch, HistoryFile))
	if !strings.Contains(string(data), `"version": 1`) || !strings.Contains(string(data), `"format": "nb-conversation"`) {
		t.Errorf("file lacks version/format: %s", data)
	}
	entries, _ := os.ReadDir(launch)
	if len(entries) != 1 {
		t.Errorf("launch dir holds %d entries, want only the history (no temp or lock files)", len(entries))
	}
}

func TestHistoryLock(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenHistory(launch, state, fixedNow)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "another nb") {
		t.Fatalf("second open = %v, want ErrLocked", err)
	}
	h.Close()
	h2, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	h2.Close()
}

func TestHistoryCorruptOrForeignIsSetAside(t *testing.T) {
	for name, content := range map[string]string{
		"truncated": `{"format":"nb-conversation","version":1,"messages":[{"ro`,
		"foreign":   `[{"role":"user","content":"hi"}]`,
		"future":    `{"format":"nb-conversation","version":99,"messages":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			launch, state := t.TempDir(), t.TempDir()
			path := filepath.Join(launch, HistoryFile)
			os.WriteFile(path, []byte(content), 0o600)
			h, err := OpenHistory(launch, state, fixedNow)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			msgs, warn, err := h.Load()
			if err != nil || len(msgs) != 0 || !strings.Contains(warn, "moved it to") {
				t.Fatalf("Load = %v, %q, %v", msgs, warn, err)
			}
			aside := path + ".bad-20260102T030405"
			if data, err := os.ReadFile(aside); err != nil || string(data) != content {
				t.Errorf("set-aside file = %q, %v", data, err)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("original still present: %v", err)
			}
		})
	}
}

func TestWriteFileAtomicLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for i := 0; i < 3; i++ {
		if err := WriteFileAtomic(path, []byte("v"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("dir holds %d entries", len(entries))
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("perm = %v", st.Mode().Perm())
	}
}

func TestHistoryFileLocks(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// --history naming the directory's own file shares its lock
	if _, err := OpenHistoryFile(filepath.Join(launch, HistoryFile), state, fixedNow); !errors.Is(err, ErrLocked) {
		t.Errorf("same file through --history = %v, want ErrLocked", err)
	}
	// another file in the same directory has its own lock and file
	other := filepath.Join(launch, "ci.json")
	h2, err := OpenHistoryFile(other, state, fixedNow)
	if err != nil {
		t.Fatalf("another file: %v", err)
	}
	defer h2.Close()
	if _, err := OpenHistoryFile(other, state, fixedNow); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "--no-history") {
		t.Errorf("second open of ci.json = %v, want ErrLocked with the --no-history hint", err)
	}
	if err := h2.Save([]llm.Message{{Role: llm.RoleUser, Text: "in ci.json"}}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(other); !strings.Contains(string(data), "in ci.json") {
		t.Errorf("ci.json = %s", data)
	}
	if _, err := os.Stat(filepath.Join(launch, HistoryFile)); !os.IsNotExist(err) {
		t.Errorf("saving ci.json touched the default history: %v", err)
	}
}

func TestNoHistory(t *testing.T) {
	var h *History // --no-history
	if msgs, warn, err := h.Load(); msgs != nil || warn != "" || err != nil {
		t.Errorf("Load = %v, %q, %v", msgs, warn, err)
	}
	if err := h.Save([]llm.Message{{Role: llm.RoleUser, Text: "x"}}); err != nil || h.Path() != "" || h.Close() != nil {
		t.Errorf("a run without history saves nothing and fails nothing: %v", err)
	}
}

// TestHistoryCloseRaces: a signal's shutdown and the normal exit both close
// the history; under -race neither may touch the locks unguarded, and the
// history is free afterwards.
func TestHistoryCloseRaces(t *testing.T) {
	launch, state := t.TempDir(), t.TempDir()
	for i := 0; i < 20; i++ {
		h, err := OpenHistory(launch, state, fixedNow)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		start := make(chan struct{})
		errs := make(chan error, 4)
		for j := 0; j < 4; j++ {
			go func() {
				<-start
				errs <- h.Close()
			}()
		}
		close(start)
		for j := 0; j < 4; j++ {
			if err := <-errs; err != nil {
				t.Fatalf("close %d: %v", i, err)
			}
		}
	}
}

// A message with an unknown or missing role loads with a warning naming
// the file, the message and /clear.
func TestHistoryUnknownRoleWarns(t *testing.T) {
	for _, role := range []string{`"role":"system",`, ``} {
		dir := t.TempDir()
		path := filepath.Join(dir, HistoryFile)
		doc := `{"format":"nb-conversation","version":1,"messages":[{"role":"user","text":"hi"},{` + role + `"text":"be brief"}]}`
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		h, err := OpenHistory(dir, t.TempDir(), time.Now)
		if err != nil {
			t.Fatal(err)
		}
		msgs, warning, err := h.Load()
		h.Close()
		if err != nil || len(msgs) != 2 {
			t.Fatalf("load: %d messages, %v", len(msgs), err)
		}
		if !strings.Contains(warning, path) || !strings.Contains(warning, "message 2 has") || !strings.Contains(warning, "/clear") {
			t.Errorf("warning %q", warning)
		}
	}
}

// Fields and keys another version of nb wrote are kept when the
// conversation is saved again, also after it changed.
func TestHistoryKeepsUnknownFields(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, HistoryFile)
	doc := `{"format":"nb-conversation","version":1,"saved":"2026-01-02T03:04:05Z","project":{"id":7},
 "messages":[{"role":"user","text":"hi","attachments":[{"name":"a.txt"}]},{"role":"assistant","text":"hello","latencyMs":120,"model":"m"}]}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := OpenHistory(dir, t.TempDir(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	msgs, warning, err := h.Load()
	if err != nil || warning != "" || len(msgs) != 2 {
		t.Fatalf("load: %d messages, %q, %v", len(msgs), warning, err)
	}
	msgs = append(msgs, llm.Message{Role: llm.RoleUser, Text: "more"})
	if err := h.Save(msgs); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Project  map[string]int
		Messages []map[string]any
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatalf("saved file is not JSON: %v\n%s", err, data)
	}
	if got.Project["id"] != 7 || len(got.Messages) != 3 || got.Messages[0]["attachments"] == nil || got.Messages[1]["latencyMs"] != 120.0 || got.Messages[1]["model"] != "m" {
		t.Errorf("unknown fields lost:\n%s", data)
	}
	// Loaded again, they are still there, and the file is indented as
	// every history is.
	msgs, _, err = h.Load()
	if err != nil || len(msgs) != 3 || string(msgs[1].Extra["latencyMs"]) != "120" {
		t.Errorf("reload: %v %+v", err, msgs)
	}
	if !strings.Contains(string(data), "\n \"messages\": [\n  {\n   \"role\": \"user\"") {
		t.Errorf("not indented like a history:\n%s", data)
	}
}
