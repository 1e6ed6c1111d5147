package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/nb-cli/nb/internal/iostreams"
)

// externalEditor returns the editor Ctrl+G opens on the message: $VISUAL,
// else $EDITOR, else vi (notepad on Windows). The message goes in a
// temporary file; what the editor saves there comes back.
func externalEditor(streams *iostreams.IO) func(string) (string, error) {
	return func(text string) (string, error) {
		command := strings.TrimSpace(streams.Getenv("VISUAL"))
		if command == "" {
			command = strings.TrimSpace(streams.Getenv("EDITOR"))
		}
		if command == "" {
			command = "vi"
			if runtime.GOOS == "windows" {
				command = "notepad"
			}
		}
		dir, err := os.MkdirTemp("", "nb-message-")
		if err != nil {
			return "", fmt.Errorf("editor: %w", err)
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "message.md")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			return "", fmt.Errorf("editor: %w", err)
		}
		cmd := editorCommand(command, path)
		// The editor gets the terminal: nb's own standard streams.
		cmd.Stdin, cmd.Stdout, cmd.Stderr = streams.In, terminalOut(streams), streams.Err
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s: %w", command, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("editor: %w", err)
		}
		return string(data), nil
	}
}

// editorCommand runs command (which may hold arguments: "code -w") on
// path, through the shell where there is one.
func editorCommand(command, path string) *exec.Cmd {
	if runtime.GOOS == "windows" {
		f := strings.Fields(command)
		return exec.Command(f[0], append(f[1:], path)...)
	}
	return exec.Command("/bin/sh", "-c", command+` "$1"`, "nb-editor", path)
}

// terminalOut is where the input is drawn: stdout, or stderr when stdout
// is redirected.
func terminalOut(streams *iostreams.IO) io.Writer {
	if !streams.OutTTY && streams.ErrTTY {
		return streams.Err
	}
	return streams.Out
}
