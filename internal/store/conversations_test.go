package store

import (
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/llm"
)

func TestArchiveKeepListTake(t *testing.T) {
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := NewArchive(t.TempDir(), "/projects/app", func() time.Time { return clock })
	if id, err := a.Keep(nil); id != "" || err != nil {
		t.Fatalf("empty conversation kept: %q %v", id, err)
	}
	first := []llm.Message{{Role: llm.RoleUser, Text: "why is the disk full?\nmore"}, {Role: llm.RoleAssistant, Text: "logs"}}
	second := []llm.Message{{Role: llm.RoleUser, Text: strings.Repeat("long question ", 10)}}
	id1, err := a.Keep(first)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := a.Keep(second) // same clock: a distinct id
	if err != nil || id2 == id1 {
		t.Fatalf("second keep: %q %v", id2, err)
	}
	list := a.List()
	if len(list) != 2 || list[0].ID != id2 || list[1].Title != "why is the disk full?" || list[1].Messages != 2 {
		t.Fatalf("list = %+v", list)
	}
	if r := []rune(list[0].Title); len(r) != 60 {
		t.Errorf("long title not shortened: %q", list[0].Title)
	}
	got, err := a.Take(id1)
	if err != nil || len(got) != 2 || got[0].Text != first[0].Text {
		t.Fatalf("take = %+v, %v", got, err)
	}
	if len(a.List()) != 1 {
		t.Errorf("a reopened conversation stays in the archive")
	}
	if _, err := a.Take(id1); err == nil {
		t.Errorf("took a conversation twice")
	}
}
