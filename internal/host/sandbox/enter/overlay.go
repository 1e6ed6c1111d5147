package enter

import (
	"encoding/json"
	"fmt"
	"os"
)

// OverlayArg is the hidden first argument with which nb re-executes
// itself to mount a preview's overlays in its own user and mount
// namespaces before it executes the sandbox: nb __preview-overlay SPEC --
// argv...
const OverlayArg = "__preview-overlay"

// OverlayMount is one copy-on-write view: Lower seen at Target, its
// writes landing in Upper (Work is overlayfs's own directory).
type OverlayMount struct {
	Lower  string `json:"l"`
	Upper  string `json:"u"`
	Work   string `json:"w"`
	Target string `json:"t"`
}

// overlayHelper mounts the overlays of its spec and executes the rest of
// its arguments; it returns only on failure.
func overlayHelper(args []string) int {
	if len(args) < 4 || args[2] != "--" {
		fmt.Fprintln(os.Stderr, "nb: preview helper: usage: nb "+OverlayArg+" SPEC -- COMMAND...")
		return 126
	}
	var ms []OverlayMount
	if err := json.Unmarshal([]byte(args[1]), &ms); err != nil {
		fmt.Fprintf(os.Stderr, "nb: preview helper: bad spec: %v\n", err)
		return 126
	}
	if err := enterOverlays(ms, args[3:]); err != nil {
		fmt.Fprintf(os.Stderr, "nb: preview: %v\n", err)
		return 126
	}
	return 0
}
