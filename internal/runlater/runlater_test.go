package runlater

import "testing"

func TestEntry(t *testing.T) {
	for path, want := range map[string]string{
		"/w/.git/hooks/pre-commit":       ".git",
		"/w/sub/.envrc":                  ".envrc",
		`C:\w\.VSCode\tasks.json`:        ".vscode",
		"/w/gradle/wrapper/x.properties": "gradle/wrapper",
		"/w/.config/mise/tasks/build":    ".config/mise",
		"/w/wrapper/gradle":              "",
		"/w/gradle":                      "",
		"/w/src/main.go":                 "",
		"/w/.gitignore":                  "",
		"/w/my.git/x":                    "",
	} {
		if got := Entry(path); got != want {
			t.Errorf("Entry(%q) = %q, want %q", path, got, want)
		}
	}
}

// Every directory entry is among the names.
func TestDirsAreNames(t *testing.T) {
	names := map[string]bool{}
	for _, n := range Names {
		names[n] = true
	}
	for d := range Dirs {
		if !names[d] {
			t.Errorf("%s is a directory entry but not a name", d)
		}
	}
}
