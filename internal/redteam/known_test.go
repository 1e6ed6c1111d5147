package redteam

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// knownBypasses lists security failures found by these tests and handed to
// the policy's owners. They fail the tests like any other unless
// NB_REDTEAM_SKIP_KNOWN=1 is set, which turns them into log lines (for a
// green build while they are being fixed). Keys: the corpus command; for
// the other tests "session:INPUT", "always:COMMAND[ → LATER]",
// "diff:COMMAND", "remedy:COMMAND", "combo:COMMAND", "huge:NAME".
var knownBypasses = map[string]string{}

var knownOut sync.Mutex

// reportBypass fails t with msg, unless key is a known bypass and known
// bypasses are being skipped. With NB_REDTEAM_KNOWN_OUT set, every failing
// key is appended to that file (to refresh knownBypasses).
func reportBypass(t *testing.T, key, msg string) {
	t.Helper()
	if note, ok := knownBypasses[key]; ok && os.Getenv("NB_REDTEAM_SKIP_KNOWN") == "1" {
		t.Logf("known bypass (%s): %s", note, msg)
		return
	}
	if path := os.Getenv("NB_REDTEAM_KNOWN_OUT"); path != "" {
		knownOut.Lock()
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			_, _ = f.WriteString("\t" + strconv.Quote(key) + ": " + strconv.Quote(category(msg)) + ",\n")
			_ = f.Close()
		}
		knownOut.Unlock()
	}
	t.Error(msg)
}

// category is the label at the start of a failure message.
func category(msg string) string {
	c, _, _ := strings.Cut(msg, ":")
	return c
}
