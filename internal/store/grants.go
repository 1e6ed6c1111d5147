package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// GrantsFile keeps the "always" grants of one launch directory in nb's
// state directory (policy.GrantStore).
type GrantsFile struct {
	Path string
}

// ProjectGrants is the grants file of launchDir in state.
func ProjectGrants(state, launchDir string) *GrantsFile {
	return &GrantsFile{Path: filepath.Join(ProjectDir(state, launchDir), "grants.json")}
}

type grantsData struct {
	Version int      `json:"version"`
	Rules   []string `json:"rules"`
}

// Load returns the saved rules; a missing file holds none.
func (g *GrantsFile) Load() ([]string, error) {
	data, err := os.ReadFile(g.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read grants: %w", err)
	}
	var d grantsData
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("read grants %s: %w", g.Path, err)
	}
	return d.Rules, nil
}

// Save replaces the saved rules (mode 0600, atomically).
func (g *GrantsFile) Save(rules []string) error {
	data, err := json.MarshalIndent(grantsData{Version: 1, Rules: rules}, "", "  ")
	if err != nil {
		return fmt.Errorf("save grants: %w", err)
	}
	if err := WriteFileAtomic(g.Path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("save grants: %w", err)
	}
	return nil
}

// NoGrants is the grant store when nb has no state directory: nothing is
// loaded, and saving says why it cannot be done.
type NoGrants struct {
	Reason error
}

// Load implements policy.GrantStore.
func (NoGrants) Load() ([]string, error) { return nil, nil }

// Save implements policy.GrantStore.
func (n NoGrants) Save([]string) error {
	return fmt.Errorf("grants cannot be saved: %w", n.Reason)
}
