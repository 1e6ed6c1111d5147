package config

import "path/filepath"

// platformConfigDir is %APPDATA%\nb, where Windows programs keep the
// settings that roam with the user.
func platformConfigDir(getenv func(string) string) string {
	if d := getenv("APPDATA"); d != "" {
		return filepath.Join(d, "nb")
	}
	if d := getenv("USERPROFILE"); d != "" {
		return filepath.Join(d, "AppData", "Roaming", "nb")
	}
	return ""
}
