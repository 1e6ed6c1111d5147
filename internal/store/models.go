package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// What nb remembers of models between runs, in its state directory: the
// context window a server said it runs a model with (servers.json), so
// that it is said once and known when the server is not asked again; and
// the model chosen with /model in a launch directory (model.json in the
// directory's state).

// maxModelFile bounds the files read here.
const maxModelFile = 1 << 20

// ServerModel is what is remembered of one model of one server.
type ServerModel struct {
	// Window is the context window the server said (0: it did not say);
	// From says where.
	Window int    `json:"window,omitempty"`
	From   string `json:"from,omitempty"`
	// Hinted: the user was told how to set the window nb does not know.
	Hinted bool `json:"hinted,omitempty"`
	// StrictRoles: the server rejected a request for its roles; tool
	// calls and results go to it as text (llm.RoleFolder).
	StrictRoles bool      `json:"strictRoles,omitempty"`
	Seen        time.Time `json:"seen"`
}

// ServerModels remembers models of servers by base URL and model name.
type ServerModels struct{ path string }

// NewServerModels is the memory of stateDir ("" remembers nothing).
func NewServerModels(stateDir string) *ServerModels {
	if stateDir == "" {
		return &ServerModels{}
	}
	return &ServerModels{path: filepath.Join(stateDir, "servers.json")}
}

func serverKey(base, model string) string { return base + " " + model }

func (m *ServerModels) load() map[string]ServerModel {
	all := map[string]ServerModel{}
	if m.path == "" {
		return all
	}
	if data, err := readSmall(m.path); err == nil {
		_ = json.Unmarshal(data, &all)
	}
	return all
}

// Get returns what is remembered of model at the server base.
func (m *ServerModels) Get(base, model string) (ServerModel, bool) {
	sm, ok := m.load()[serverKey(base, model)]
	return sm, ok
}

// Put remembers sm for model at the server base.
func (m *ServerModels) Put(base, model string, sm ServerModel) error {
	if m.path == "" {
		return nil
	}
	all := m.load()
	all[serverKey(base, model)] = sm
	data, err := json.MarshalIndent(all, "", " ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(m.path, append(data, '\n'), 0o600)
}

// Choice is the model chosen with /model in a launch directory.
type Choice struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

func choicePath(stateDir, launchDir string) string {
	return filepath.Join(ProjectDir(stateDir, launchDir), "model.json")
}

// LoadChoice returns the model chosen in launchDir, if any.
func LoadChoice(stateDir, launchDir string) (Choice, bool) {
	var c Choice
	if stateDir == "" {
		return c, false
	}
	data, err := readSmall(choicePath(stateDir, launchDir))
	if err != nil || json.Unmarshal(data, &c) != nil || c.Provider == "" || c.Model == "" {
		return Choice{}, false
	}
	return c, true
}

// SaveChoice remembers the model chosen in launchDir.
func SaveChoice(stateDir, launchDir string, c Choice) error {
	if stateDir == "" {
		return nil
	}
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if err := WriteFileAtomic(choicePath(stateDir, launchDir), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("remember the model: %w", err)
	}
	return nil
}

// readSmall reads a small state file (bounded; a missing one is
// fs.ErrNotExist).
func readSmall(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxModelFile {
		return nil, errors.New(path + ": not a small regular file")
	}
	return os.ReadFile(path)
}
