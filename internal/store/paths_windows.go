package store

import "path/filepath"

// platformStateDir is %LOCALAPPDATA%\nb\state: machine-local, not roamed.
func platformStateDir(getenv func(string) string) string {
	if d := getenv("LOCALAPPDATA"); d != "" {
		return filepath.Join(d, "nb", "state")
	}
	if d := getenv("USERPROFILE"); d != "" {
		return filepath.Join(d, "AppData", "Local", "nb", "state")
	}
	return ""
}
