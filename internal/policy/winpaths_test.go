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

// TestWinRegistryRoots: every spelling of the registry's roots names its
// key: HKU's accounts (whose HKCU they are), the classes root as the
// machine's classes, where a change to it goes.
func TestWinRegistryRoots(t *testing.T) {
	for key, want := range map[string]string{
		`HKLM\Software`:                              `hklm\software`,
		`HKCU:\Environment`:                          `hkcu\environment`,
		`Registry::HKEY_USERS\S-1-5-18\x`:            `hku\s-1-5-18\x`,
		`HKU\.DEFAULT\Environment`:                   `hku\.default\environment`,
		`hkey_users`:                                 `hku\`,
		`HKCR\exefile\shell`:                         `hklm\software\classes\exefile\shell`,
		`Registry::HKEY_CLASSES_ROOT\.txt`:           `hklm\software\classes\.txt`,
		`Microsoft.PowerShell.Core\Registry::HKCU\x`: `hkcu\x`,
		`HKCC`:        `hklm\system\currentcontrolset\hardware profiles\current\`,
		`HKUX\x`:      "",
		`Registry::x`: "",
		`README.md`:   "",
	} {
		if got := registryKey(key); got != want {
			t.Errorf("registryKey(%q) = %q, want %q", key, got, want)
		}
	}
	for _, c := range []struct {
		key         string
		tree, lists bool
		want        bool
	}{
		{`HKU\S-1-5-21-1\Environment`, false, false, true},
		{`HKU\S-1-5-21-1`, true, false, true},
		{`HKU\S-1-5-21-1`, false, true, true},
		{`HKU`, true, false, true},
		{`HKU`, false, true, false},
		{`HKU\S-1-5-21-1\Software\Classes`, true, false, false},
		{`HKU\S-1-5-21-1\Software`, true, false, true},
		{`HKLM:\Software\Microsoft\Windows*NT\CurrentVersion\*`, false, false, true},
		{`HKLM:\Software\Microsoft\Windows\CurrentVersion\*`, false, false, false},
	} {
		if got := credentialHive(c.key, c.tree, c.lists); got != c.want {
			t.Errorf("credentialHive(%q, tree %v, lists %v) = %v, want %v", c.key, c.tree, c.lists, got, c.want)
		}
	}
	for key, want := range map[string]bool{`HKU\.DEFAULT\x`: true, `HKCR\x`: true, `HKLM\x`: true, `HKCU\x`: false, `HKCU\Software\Classes\x`: false} {
		if got := machineKey(key); got != want {
			t.Errorf("machineKey(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestWinWildcards: a wildcard is matched as Windows matches it, short
// names included.
func TestWinWildcards(t *testing.T) {
	for _, c := range []struct {
		pat, name string
		want      bool
	}{
		{".env?", ".env", true}, {".env??", ".env", true}, {".e<", ".env", true}, {".e>v", ".env", true},
		{"*.loc", "env~1.loc", true}, {"a?c", "abc", true}, {"a?c", "abxc", false}, {"*.log", ".env", false},
		{"x*y*z", "xaaybbz", true}, {"x*y*z", "xaaybb", false},
	} {
		var buf []bool
		if got := dosMatch(c.pat, c.name, &buf); got != c.want {
			t.Errorf("dosMatch(%q, %q) = %v, want %v", c.pat, c.name, got, c.want)
		}
	}
	for name, want := range map[string]string{".env.local": "env~1.loc", "credentials": "creden~1", "id_rsa": "",
		"secrets.json": "secret~1.jso", "my key.pem": "mykey~1.pem", ".env": "env~1"} {
		if got := shortName(name); got != want {
			t.Errorf("shortName(%q) = %q, want %q", name, got, want)
		}
	}
	for seg, want := range map[string]bool{"*.loc": true, "[.]env": true, ".env?": true, "*.log": false, "main.go": false, "x?.log": false} {
		if got := winWildcardSecret(seg); got != want {
			t.Errorf("winWildcardSecret(%q) = %v, want %v", seg, got, want)
		}
	}
}

// TestWinSegMay: a name of a path may be another as Windows opens it.
func TestWinSegMay(t *testing.T) {
	for _, c := range []struct {
		seg, name string
		want      bool
	}{
		{"windows", "windows", true}, {"win*", "windows", true}, {"w?ndows", "windows", true},
		{"progra~1", "program files", true}, {"progra~2", "program files", true}, {"pr3c1a~1", "program files", true},
		{"startm~1", "start menu", true}, {"ssh~1", ".ssh", true}, {"window~1", "windows", false},
		{"docume~1", "documents", true}, {"proj", "windows", false}, {"x~1", "windows", false},
	} {
		if got := segMay(c.seg, c.name); got != c.want {
			t.Errorf("segMay(%q, %q) = %v, want %v", c.seg, c.name, got, c.want)
		}
	}
}
