package sandbox

import "github.com/nb-cli/nb/internal/runlater"

// RunLater are entries of a workspace that programs run outside the
// sandbox later (runlater.Names). Existing ones are read-only inside the
// workspace sandbox, at any depth (a nested repository, a subproject's
// .envrc); new ones a command creates are moved to the quarantine after
// it (quarantine.go).
var RunLater = runlater.Names

// runLaterDirs are the RunLater entries that are directories (runlater.Dirs).
var runLaterDirs = runlater.Dirs
