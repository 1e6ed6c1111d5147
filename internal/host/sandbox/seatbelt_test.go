package sandbox

import (
	"slices"
	"strings"
	"testing"
)

// The Seatbelt profile is generated from the same layout the Linux
// mechanisms enforce. It cannot run here: its text is checked rule by
// rule, with the order that decides (the last matching rule wins).
func TestSeatbeltProfile(t *testing.T) {
	l := Layout{
		Hidden:  []string{"/Users/u/.ssh", "/Users/u/.config"},
		Visible: []string{"/Users/u/.config/git/ignore"},
		Masked:  []string{"/Users/u/proj/.env", `/Users/u/proj/we"ird) (allow default`},
		Keep:    []string{"/private/tmp/proj"},
		Scratch: []string{"/private/var/folders/xy/T/nb-sandbox-1/run", "/private/var/folders/xy/T/nb-sandbox-1/tmp"},
	}
	profile, params := seatbeltProfile(l)
	if !strings.HasPrefix(profile, "(version 1)\n(deny default)\n") {
		t.Errorf("not closed by default:\n%s", profile)
	}
	for _, forbidden := range []string{"/Users/", "/private/tmp/proj", "weird", "(allow default", "network-outbound", "system-socket", "file-write* (subpath (param \"WRITABLE"} {
		if strings.Contains(strings.SplitN(profile, "(allow file-read*)\n", 2)[1], forbidden) {
			t.Errorf("profile holds %q:\n%s", forbidden, profile)
		}
	}
	want := []string{
		"(allow file-read*)\n",
		"(deny file-read*\n  (subpath (param \"HIDDEN_0\"))\n  (subpath (param \"HIDDEN_1\")))\n",
		"(deny file-read*\n  (subpath (param \"TEMP_0\"))\n  (subpath (param \"TEMP_1\")))\n",
		"(allow file-read*\n  (subpath (param \"VISIBLE_0\")))\n",
		"(allow file-read*\n  (subpath (param \"KEEP_0\")))\n",
		"(allow file-read*\n  (subpath (param \"SCRATCH_0\"))\n  (subpath (param \"SCRATCH_1\")))\n",
		"(deny file-read*\n  (subpath (param \"MASKED_0\"))\n  (subpath (param \"MASKED_1\")))\n",
		"(allow file-write*\n  (subpath (param \"SCRATCHW_0\"))\n  (subpath (param \"SCRATCHW_1\")))\n",
		"(deny file-write*\n  (subpath (param \"MASKEDW_0\"))\n  (subpath (param \"MASKEDW_1\")))\n",
	}
	at := 0
	for _, w := range want {
		i := strings.Index(profile[at:], w)
		if i < 0 {
			t.Fatalf("profile lacks, in order, %q:\n%s", w, profile)
		}
		at += i + len(w)
	}
	for _, p := range []string{"HIDDEN_0=/Users/u/.ssh", "VISIBLE_0=/Users/u/.config/git/ignore", "TEMP_0=/private/tmp", "TEMP_1=/private/var/folders",
		`MASKED_1=/Users/u/proj/we"ird) (allow default`, "KEEP_0=/private/tmp/proj", "SCRATCHW_1=/private/var/folders/xy/T/nb-sandbox-1/tmp"} {
		if !slices.Contains(params, p) {
			t.Errorf("params lack %q: %q", p, params)
		}
	}
	// The base: processes see and signal only their own, no service but
	// the user directory, no file written but the null devices.
	for _, rule := range []string{"(allow signal (target same-sandbox))", "(allow process-info* (target same-sandbox))",
		`(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))`} {
		if !strings.Contains(profile, rule+"\n") {
			t.Errorf("base lacks %s", rule)
		}
	}
	if n := strings.Count(profile, "(allow mach-lookup"); n != 1 {
		t.Errorf("%d service lookups allowed", n)
	}

	// The workspace profile: writable trees with their protections after
	// them, and the network without unix sockets when allowed.
	w := Layout{Writable: []string{"/Users/u/proj"}, ReadOnly: []string{"/Users/u/proj/.git", "/Users/u/proj/.envrc"}, Network: true}
	profile, params = seatbeltProfile(w)
	i := strings.Index(profile, "(allow file-write*\n  (subpath (param \"WRITABLE_0\")))")
	j := strings.Index(profile, "(deny file-write*\n  (subpath (param \"READONLY_0\"))\n  (subpath (param \"READONLY_1\")))")
	if i < 0 || j < i {
		t.Errorf("writable tree and its protections out of order:\n%s", profile)
	}
	if !strings.Contains(profile, "(allow network-outbound (remote ip))\n") || strings.Contains(profile, "unix-socket") || strings.Contains(profile, "(allow network*") {
		t.Errorf("network rules:\n%s", profile)
	}
	if !slices.Contains(params, "READONLY_1=/Users/u/proj/.envrc") {
		t.Errorf("params %q", params)
	}
	argv := seatbeltArgv(w, []string{"/bin/bash", "-c", "ls"})
	if argv[0] != seatbeltExec || argv[1] != "-p" || argv[2] != profile || argv[3] != "-D" || !slices.Equal(argv[len(argv)-4:], []string{"--", "/bin/bash", "-c", "ls"}) {
		t.Errorf("argv %q", argv)
	}
}
