package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestServerModelsAndChoice: what a server said of a model, and the model
// chosen in a directory, are there for the next run; without a state
// directory nothing is kept and nothing fails.
func TestServerModelsAndChoice(t *testing.T) {
	state := t.TempDir()
	m := NewServerModels(state)
	if _, ok := m.Get("http://h/v1", "a"); ok {
		t.Fatal("remembered before anything was put")
	}
	if err := m.Put("http://h/v1", "a", ServerModel{Window: 8192, From: "n_ctx in /props", Seen: fixedNow()}); err != nil {
		t.Fatal(err)
	}
	m.Put("http://h/v1", "b", ServerModel{Hinted: true, StrictRoles: true})
	if got, ok := NewServerModels(state).Get("http://h/v1", "a"); !ok || got.Window != 8192 || got.From == "" {
		t.Errorf("a: %+v %v", got, ok)
	}
	if got, _ := NewServerModels(state).Get("http://h/v1", "b"); !got.Hinted || !got.StrictRoles || got.Window != 0 {
		t.Errorf("b: %+v", got)
	}
	if _, ok := LoadChoice(state, "/p"); ok {
		t.Fatal("a choice before any")
	}
	if err := SaveChoice(state, "/p", Choice{Provider: "openai", Model: "qwen"}); err != nil {
		t.Fatal(err)
	}
	if c, ok := LoadChoice(state, "/p"); !ok || c.Model != "qwen" || c.Provider != "openai" {
		t.Errorf("choice %+v %v", c, ok)
	}
	if _, ok := LoadChoice(state, "/other"); ok {
		t.Error("another directory has the choice")
	}
	// A damaged file is no choice, and no failure.
	os.WriteFile(filepath.Join(ProjectDir(state, "/p"), "model.json"), []byte("{"), 0o600)
	if _, ok := LoadChoice(state, "/p"); ok {
		t.Error("damaged choice read")
	}
	none := NewServerModels("")
	if err := none.Put("x", "y", ServerModel{Window: 1}); err != nil || SaveChoice("", "/p", Choice{Provider: "a", Model: "b"}) != nil {
		t.Error("without a state directory")
	}
}
