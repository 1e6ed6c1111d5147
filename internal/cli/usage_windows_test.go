package cli

import (
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm/providers"
)

// On Windows the help and the no-provider message name the configuration
// file Windows reads and the syntax its shells set variables with.
func TestWinHelpAndNoProviderSpeakWindows(t *testing.T) {
	u := usageText
	if !strings.Contains(u, `%APPDATA%\nb\config.json`) || strings.Contains(u, "~/.config") {
		t.Errorf("help: %s", u)
	}
	msg := providers.ErrNoProvider.Error()
	for _, w := range []string{`%APPDATA%\nb\config.json`, "set OPENAI_API_KEY=", `$env:OPENAI_API_KEY=`} {
		if !strings.Contains(msg, w) {
			t.Errorf("no-provider message lacks %q: %s", w, msg)
		}
	}
	if strings.Contains(msg, "~/.config") {
		t.Errorf("no-provider message names ~/.config: %s", msg)
	}
}
