package store

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
	"github.com/nb-cli/nb/internal/wintest"
)

// The history lock is LockFileEx: a second nb is refused and told the
// holder's pid, which stays readable beside the locked byte.
func TestWinHistorySaveAndLock(t *testing.T) {
	launch, state := wintest.TempDir(t), wintest.TempDir(t)
	h, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	in := []llm.Message{{Role: llm.RoleUser, Text: "héllo\r\nwörld"}}
	if err := h.Save(in); err != nil {
		t.Fatal(err)
	}
	if err := h.Save(append(in, llm.Message{Role: llm.RoleAssistant, Text: "again"})); err != nil {
		t.Fatalf("second save over the first: %v", err)
	}
	_, err = OpenHistory(launch, state, fixedNow)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "(pid "+strconv.Itoa(os.Getpid())+")") {
		t.Fatalf("second open = %v, want ErrLocked naming pid %d", err, os.Getpid())
	}
	got, warn, err := h.Load()
	if err != nil || warn != "" || len(got) != 2 || got[0].Text != in[0].Text {
		t.Fatalf("load = %+v %q %v", got, warn, err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	h2, err := OpenHistory(launch, state, fixedNow)
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	h2.Close()
}

func TestWinStateDir(t *testing.T) {
	env := map[string]string{"LOCALAPPDATA": `C:\Users\me\AppData\Local`, "USERPROFILE": `C:\Users\me`}
	if got, err := StateDir(func(k string) string { return env[k] }); err != nil || got != `C:\Users\me\AppData\Local\nb\state` {
		t.Errorf("state dir %s, %v", got, err)
	}
}
