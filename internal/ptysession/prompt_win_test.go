package ptysession

import "testing"

func TestWinShellPrompts(t *testing.T) {
	for line, want := range map[string]bool{
		`C:\>`:                    true,
		`C:\Users\me\My Project>`: true,
		`PS C:\> `:                true,
		`PS C:\Users\me> `:        true,
		`PS Microsoft.PowerShell.Core\FileSystem::\\srv\share> `: true,
		`C:\Users\me>dir`:             false,
		`copied C:\x to C:\y`:         false,
		`echo a > C:\out.txt`:         false,
		`C:\Windows\System32\cmd.exe`: false,
	} {
		if got := isPrompt(line); got != want {
			t.Errorf("isPrompt(%q) = %v, want %v", line, got, want)
		}
	}
}
