package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/store"
)

// Before a summary replaces older turns, the whole conversation is kept in
// the archive /clear uses: the kept copy is byte-identical to the
// conversation before compaction, the summary names its file, and
// /conversations lists and reopens it.
func TestCompactionKeepsTheTranscript(t *testing.T) {
	state, launch := t.TempDir(), t.TempDir()
	arch := store.NewArchive(state, launch, time.Now)
	var old []llm.Message
	for i := range 10 {
		old = append(old,
			llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d <&> \"quoted\" é %s", i, strings.Repeat("x", 3000))},
			llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d", i), Usage: &llm.Usage{InputTokens: 100, OutputTokens: 3}, Model: "m"})
	}
	before, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	p := &scripted{replies: []func(context.Context, func(llm.Event)) (*llm.Response, error){text("the summary")}}
	a := New(Options{Provider: p, UI: &recUI{}, Model: Model{Window: 16000},
		Archive: func(msgs []llm.Message) (string, error) {
			id, err := arch.Keep(msgs)
			return arch.Path(id), err
		}}, append([]llm.Message(nil), old...))
	if err := a.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	list := arch.List()
	if len(list) != 1 || list[0].Messages != len(old) || !strings.HasPrefix(list[0].Title, "question 0") {
		t.Fatalf("archive lists %+v", list)
	}
	path := arch.Path(list[0].ID)
	if !a.Messages[0].Summary || !strings.Contains(a.Messages[0].Text, "kept in "+path) {
		t.Errorf("the summary does not name the kept conversation: %q", a.Messages[0].Text)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Messages json.RawMessage }
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var kept []llm.Message
	if err := json.Unmarshal(doc.Messages, &kept); err != nil {
		t.Fatal(err)
	}
	if after, _ := json.Marshal(kept); string(after) != string(before) {
		t.Errorf("the kept conversation differs from the one before compaction")
	}
	reopened, err := arch.Take(list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(reopened); string(again) != string(before) {
		t.Errorf("the reopened conversation differs from the one before compaction")
	}
}
