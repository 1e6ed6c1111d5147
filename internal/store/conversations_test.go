package store

import (
	"os"
	"strconv"
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

// TestArchiveOpenApart: a conversation of its own, for a second nb in a
// directory, is saved in the archive after every turn, listed as open
// while its nb runs, never taken by another meanwhile, and an ordinary
// archived conversation once it ends; empty, it is not kept.
func TestArchiveOpenApart(t *testing.T) {
	state := t.TempDir()
	a := NewArchive(state, "/projects/app", fixedNow)
	h, err := a.Open()
	if err != nil {
		t.Fatal(err)
	}
	if !h.Apart() {
		t.Fatal("not apart")
	}
	if msgs, _, err := h.Load(); err != nil || len(msgs) != 0 {
		t.Fatalf("a new conversation holds %v, %v", msgs, err)
	}
	if len(a.List()) != 0 {
		t.Fatal("an empty conversation is listed")
	}
	msgs := []llm.Message{{Role: llm.RoleUser, Text: "second window"}, {Role: llm.RoleAssistant, Text: "hi"}}
	if err := h.Save(msgs); err != nil {
		t.Fatal(err)
	}
	// Another nb of the same directory opens its own, distinct one.
	h2, err := NewArchive(state, "/projects/app", fixedNow).Open()
	if err != nil || h2.Path() == h.Path() {
		t.Fatalf("third nb: %v, %v", h2.Path(), err)
	}
	h2.Close()
	list := a.List()
	if len(list) != 1 || list[0].Title != "second window" || !list[0].InUse || list[0].Holder != "pid "+strconv.Itoa(os.Getpid()) {
		t.Fatalf("list while open = %+v", list)
	}
	if _, err := a.Take(list[0].ID); err == nil || !strings.Contains(err.Error(), "has it open") {
		t.Fatalf("took a conversation another nb has open: %v", err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if list := a.List(); len(list) != 1 || list[0].InUse {
		t.Fatalf("list after the nb ended = %+v", list)
	}
	if got, err := a.Take(list[0].ID); err != nil || len(got) != 2 {
		t.Fatalf("take after the nb ended = %v, %v", got, err)
	}
	// Cleared to nothing, a conversation apart leaves nothing behind.
	h3, _ := a.Open()
	h3.Save(msgs)
	h3.Save(nil)
	h3.Close()
	if entries, _ := os.ReadDir(a.dir); len(entries) != 0 || len(a.List()) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
}
