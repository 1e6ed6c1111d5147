package policy

import "testing"

// TestWinSystemPathAnyProfile: the places of a profile that run or admit
// code at sign-in (the start menu's Startup folder, PowerShell's
// profiles, .ssh) are system locations for every account, not only for
// the profile nb runs in; other files of another profile are not.
func TestWinSystemPathAnyProfile(t *testing.T) {
	home := `C:\Users\me`
	for p, want := range map[string]bool{
		"/c/users/me/appdata/roaming/microsoft/windows/start menu/programs/startup/x.lnk":    true,
		"/c/users/other/appdata/roaming/microsoft/windows/start menu/programs/startup/x.lnk": true,
		"/c/users/other/documents/windowspowershell/profile.ps1":                             true,
		"/c/users/other/.ssh/authorized_keys":                                                true,
		"/c/users/other":                                                                     true,
		"/d/users/other/.ssh/authorized_keys":                                                true,
		"/c/users/other/documents/notes.txt":                                                 false,
		"/c/users/me/projects/app/main.go":                                                   false,
		"/c/work/users/x/.ssh/config":                                                        false,
	} {
		if got := winSystemPath(p, home); got != want {
			t.Errorf("winSystemPath(%q) = %v, want %v", p, got, want)
		}
	}
}
