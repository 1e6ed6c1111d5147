package secrets

import "slices"

// systemTrees are absolute directories and files that hold secrets, or
// lead to them (every home, /proc, /dev): reading one of them, or a
// directory above one, recursively reaches secrets.
var systemTrees = []string{
	"/etc/ssh", "/etc/ssl/private", "/etc/security/opasswd", "/etc/mysql/debian.cnf",
	"/etc/NetworkManager/system-connections", "/etc/wpa_supplicant", "/etc/kubernetes",
	"/etc/letsencrypt", "/etc/pki", "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d",
	"/etc/ipsec.secrets", "/etc/ppp", "/etc/openvpn", "/etc/wireguard", "/var/lib/docker", "/var/lib/kubelet",
	"/etc/rancher", "/var/lib/rancher", // k3s' and RKE2's kubeconfigs and cluster tokens
	"/root", "/home", "/proc", "/sys", "/dev", "/run", "/var/backups",
}

// SystemTrees returns the absolute secret locations.
func SystemTrees() []string { return slices.Clone(systemTrees) }

// HomeTrees returns the locations below a home directory that a
// recursive read must not reach: the secret locations and the whole
// configuration directory, where programs keep their tokens.
func HomeTrees() []string { return append(HomePaths(), ".config") }

// below are path fragments below which every file is a secret.
var below = []string{
	"/.config/gh/", "/.config/gcloud/", "/.config/hub", "/.local/share/keyrings/", "/.mozilla/",
	"/.config/google-chrome/", "/.config/chromium/", "/.config/nb/", "/.local/state/nb/",
	"/.config/rclone/", "/.m2/settings", "/.config/op/", "/.config/Bitwarden", "/.config/keybase/",
	"/etc/NetworkManager/system-connections/", "/etc/wpa_supplicant/", "/etc/kubernetes/",
	"/etc/ssl/private/", "/etc/letsencrypt/", "/etc/wireguard/", "/etc/openvpn/", "/etc/security/opasswd/",
	"/etc/mysql/debian.cnf/", "/etc/rancher/", "/var/lib/rancher/",
	"/appdata/local/nb/", "/appdata/roaming/nb/", // nb's state and config on Windows (slashPath lower-cases)
}

// Below returns the path fragments ("/.config/gh/") below which every
// file is a secret, slash-separated, lower-case where Windows compares
// without case.
func Below() []string { return slices.Clone(below) }

// windowsBelow are the locations below a Windows profile or system that
// hold credentials, slash-separated and lower-case.
var windowsBelow = []string{
	"/appdata/roaming/microsoft/credentials", "/appdata/local/microsoft/credentials",
	"/appdata/roaming/microsoft/protect", "/appdata/roaming/microsoft/vault", "/appdata/local/microsoft/vault",
	"/appdata/local/google/chrome/user data", "/appdata/local/microsoft/edge/user data",
	"/appdata/roaming/mozilla/firefox/profiles", "/appdata/roaming/microsoft/windows/powershell/psreadline",
	"/appdata/local/nb", "/appdata/roaming/nb", "/windows/system32/config", "/windows/panther",
	// gh's token on Windows; FileZilla's saved passwords
	"/appdata/roaming/github cli", "/appdata/roaming/filezilla",
	// other browsers' and mail's passwords and cookies
	"/appdata/local/chromium/user data", "/appdata/local/bravesoftware/brave-browser/user data",
	"/appdata/local/vivaldi/user data", "/appdata/roaming/opera software", "/appdata/roaming/thunderbird/profiles",
	// private keys (the machine's and the user's), Wi-Fi keys, IIS's
	// application pool passwords, Group Policy's cached passwords,
	// Subversion's saved passwords, old copies of the hives
	"/programdata/microsoft/crypto", "/appdata/roaming/microsoft/crypto", "/appdata/roaming/microsoft/systemcertificates/my",
	"/programdata/microsoft/wlansvc/profiles", "/windows/system32/inetsrv/config",
	"/programdata/microsoft/group policy/history", "/appdata/roaming/subversion/auth", "/windows/repair",
	"/windows/minidump", "/windows/livekernelreports",
}

// WindowsBelow returns the Windows credential locations, slash-separated
// and lower-case ("/appdata/roaming/microsoft/credentials").
func WindowsBelow() []string { return slices.Clone(windowsBelow) }

// windowsNames are Windows files that hold secrets wherever they are
// (the PowerShell history, registry hives, answer files).
var windowsNames = []string{"consolehost_history.txt", "ntuser.dat", "sam", "security", "unattend.xml",
	"_netrc", "_git-credentials",
	// memory written to disk: the paging and hibernation files, crash
	// dumps, a dump of lsass (the credentials of every signed-in user)
	"pagefile.sys", "hiberfil.sys", "swapfile.sys", "memory.dmp", "lsass.dmp"}

// WindowsName reports whether a lower-case file name is one of them.
func WindowsName(name string) bool { return slices.Contains(windowsNames, name) }
