package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadDefaultsAndComments(t *testing.T) {
	path := write(t, `{
	// a comment with "quotes" and a // inside
	"activeProvider": "local", /* block
	comment */
	"providers": {"local": {"type": "openai-compatible", "baseUrl": "http://127.0.0.1:1/v1", "model": "m",},},
	"terminalIntegration": {"defaultTimeout": 60, "detectTools": ["git"]},
	"note": "// not a comment"
}`)
	_, err := Load(path, true)
	if err == nil || !strings.Contains(err.Error(), "note: unknown key") {
		t.Fatalf("want unknown key error for note, got %v", err)
	}
	path = write(t, strings.Replace(string(mustRead(t, path)), `"note": "// not a comment"`, `"maxToolCalls": 7`, 1))
	cfg, err := Load(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxToolCalls != 7 || cfg.TerminalIntegration.DefaultTimeout != 60 || cfg.TerminalIntegration.OutputThresholdBytes != 10240 {
		t.Errorf("cfg = %+v", cfg.TerminalIntegration)
	}
	if got := cfg.TerminalIntegration.DetectTools; len(got) != 1 || got[0] != "git" {
		t.Errorf("detectTools = %v", got)
	}
	if cfg.Providers["local"].BaseURL != "http://127.0.0.1:1/v1" {
		t.Errorf("providers = %+v", cfg.Providers)
	}
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLoadErrorsNameFileKeyProblem(t *testing.T) {
	cases := []struct{ content, want string }{
		{`{"terminalIntegration": {"defualtTimeout": 5}}`, `terminalIntegration.defualtTimeout: unknown key (did you mean "defaultTimeout"?)`},
		{`{"terminalIntegration": {"defaultTimeout": "5"}}`, `terminalIntegration.defaultTimeout: must be a number, not string`},
		{`{"terminalIntegration": {"defaultTimeout": -1}}`, `terminalIntegration.defaultTimeout: must be a positive number (got -1)`},
		{`{"maxToolCalls": 0}`, `maxToolCalls: must be at least 1`},
		{`{"providers": {"x": {"type": "opneai"}}}`, `providers.x.type: must be one of`},
		{`{"providers": {"x": {"type": "openai-compatible"}}}`, `providers.x.baseUrl: is required`},
		{`{"activeProvider": "nope"}`, `activeProvider: "nope" names no configured provider`},
		{"{\n  \"maxToolCalls\": 3\n  \"x\": 1\n}", `invalid JSON at line 3`},
		{`[1]`, `must be a JSON object`},
		{`{"mcpServers": {"fs": {"args": ["x"]}}}`, `mcpServers.fs: needs "command"`},
		{`{"terminal": {"providers": {"box": {"type": "ssh"}}}}`, `terminal.providers.box.host: is required for ssh`},
		{`{"terminal": {"env": {"pass": ["GITHUB_*", "A B"]}}}`, `terminal.env.pass: "A B" is not a variable pattern`},
		{`{"terminal": {"env": {"exclude": ["[AB]*"]}}}`, `terminal.env.exclude: "[AB]*" is not a variable pattern`},
		{`{"terminal": {"env": {"pas": []}}}`, `terminal.env.pas: unknown key`},
		{`{"approval": {"autoApproveSafe": "yes"}}`, `approval.autoApproveSafe: must be true or false, not string`},
		{`{"terminal": {"readOnlySandbox": {"mechanism": "docker"}}}`, `terminal.readOnlySandbox.mechanism: must be auto, namespaces, bwrap or landlock`},
		{`{"terminal": {"readOnlySandbox": {"homeVisible": ["/etc"]}}}`, `terminal.readOnlySandbox.homeVisible: "/etc" must be a path inside the home directory`},
		{`{"terminal": {"readOnlySandbox": {"homeVisible": ["../x"]}}}`, `terminal.readOnlySandbox.homeVisible: "../x" must be a path inside`},
		{`{"terminal": {"readOnlySandbox": {"homeVisible": ["."]}}}`, `terminal.readOnlySandbox.homeVisible: "." must be a path inside`},
		{`{"terminal": {"readOnlySandbox": {"homeVisible": ["~"]}}}`, `terminal.readOnlySandbox.homeVisible: "~" must be a path inside`},
		{`{"terminal": {"readOnlySandbox": {"homeVisible": [".m2/../.."]}}}`, `terminal.readOnlySandbox.homeVisible: ".m2/../.." must be a path inside`},
		{`{"terminal": {"readOnlySandbox": {"homeVisible": ".m2"}}}`, `terminal.readOnlySandbox.homeVisible: must be a list of strings, not string`},
		{`{"terminal": {"readOnlySandbox": {"approved": 1}}}`, `terminal.readOnlySandbox.approved: must be true or false, not number`},
		{`{"terminal": {"readOnlySandbox": "on"}}`, `terminal.readOnlySandbox: must be an object, not string`},
		{`{"changes": {"edits": "auto"}}`, `changes.edits: must be "ask" or "workspace" (got "auto")`},
		{`{"changes": {"edits": true}}`, `changes.edits: must be a string, not bool`},
		{`{"changes": {"previw": true}}`, `changes.previw: unknown key (did you mean "preview"?)`},
		{`{"maxToolCalls": 1.5}`, `maxToolCalls: must be a whole number (got 1.5)`},
		{`{"maxToolCalls": 1e400}`, `maxToolCalls: must be a whole number (got 1e400)`},
		{`{"conversation": {"compactAt": 1e400}}`, `conversation.compactAt: must be a number`},
		{`{"maxToolCalls": 3} {"x": 1}`, `invalid JSON`},
		{"\xff\xfe{\x00}\x00", `is UTF-16 or UTF-32 text; save it as UTF-8`},
		{`{"terminal": {"readOnlySandbox": {"env": ["A-B"]}}}`, `terminal.readOnlySandbox.env: "A-B" is not a variable pattern`},
		{`{"terminal": {"readOnlySandbox": {"enabeld": false}}}`, `terminal.readOnlySandbox.enabeld: unknown key (did you mean "enabled"?)`},
	}
	for _, c := range cases {
		path := write(t, c.content)
		_, err := Load(path, true)
		if err == nil {
			t.Errorf("%s: no error", c.content)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s:\n got %v\nwant file %s and %q", c.content, err, path, c.want)
		}
	}
}

// A file an editor saved with a UTF-8 byte order mark is read as without.
func TestByteOrderMark(t *testing.T) {
	cfg, err := Load(write(t, "\xef\xbb\xbf{\"maxToolCalls\": 7}"), true)
	if err != nil || cfg.MaxToolCalls != 7 {
		t.Fatalf("config with a byte order mark: %v", err)
	}
}

func TestMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.json")
	if _, err := Load(missing, false); err != nil {
		t.Errorf("optional missing file: %v", err)
	}
	if _, err := Load(missing, true); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("required missing file: %v", err)
	}
}

func TestProjectMayOnlyTighten(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".nb"), 0o755)
	put := func(s string) { os.WriteFile(filepath.Join(dir, ".nb", "config.json"), []byte(s), 0o600) }

	put(`{"approval": {"allow": ["rm *"]}}`)
	if err := LoadProject(Default(), dir); err == nil || !strings.Contains(err.Error(), "approval.allow: a project may only add approval.deny rules") {
		t.Errorf("allow rule in project: %v", err)
	}
	put(`{"approval": {"autoApproveSafe": true}}`)
	if err := LoadProject(Default(), dir); err == nil {
		t.Error("project turned auto-approval on")
	}
	put(`{"approval": {"deny": ["git push *"], "autoApproveSafe": false}}`)
	cfg := Default()
	cfg.Approval.Deny = []string{"sudo *"}
	if err := LoadProject(cfg, dir); err != nil {
		t.Fatal(err)
	}
	if cfg.Approval.AutoApproveSafe || strings.Join(cfg.Approval.Deny, ",") != "sudo *,git push *" {
		t.Errorf("approval = %+v", cfg.Approval)
	}
	put(`{"terminalIntegration": {"shell": "/bin/evil"}}`)
	if err := LoadProject(Default(), dir); err == nil {
		t.Error("project set a non-approval key")
	}
}

func TestFleetConfig(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.json")
	if err := os.WriteFile(p, []byte(`{"fleet": {"inventory": ["~/inv/hosts.yml"], "concurrency": 4} // ok
}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.Fleet.Concurrency != 4 || c.Fleet.ConnectTimeout != 10 || len(c.Fleet.Inventory) != 1 {
		t.Errorf("fleet %+v", c.Fleet)
	}
	for body, want := range map[string]string{
		`{"fleet": {"concurrency": 0}}`:     "fleet.concurrency: must be between 1 and 1024",
		`{"fleet": {"connectTimeout": -1}}`: "fleet.connectTimeout",
		`{"fleet": {"inventory": [""]}}`:    "fleet.inventory[0]: is empty",
		`{"fleet": {"inventroy": ["x"]}}`:   `fleet.inventroy: unknown key (did you mean "inventory"?)`,
	} {
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(p, true); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// The read-only sandbox is on by default; a file turning it off, or
// naming more, keeps the other defaults.
func TestReadOnlySandboxConfig(t *testing.T) {
	if rs := Default().Terminal.ReadOnlySandbox; !rs.Enabled || rs.Approved || rs.Mechanism != "auto" {
		t.Errorf("default %+v", rs)
	}
	cfg, err := Load(write(t, `{"terminal": {"readOnlySandbox": {"enabled": false, "homeVisible": ["~/.config/helix", ".m2/repository"], "env": ["GOPATH", "CARGO_*"]}}}`), true)
	if err != nil {
		t.Fatal(err)
	}
	rs := cfg.Terminal.ReadOnlySandbox
	if rs.Enabled || rs.Mechanism != "auto" || len(rs.HomeVisible) != 2 || len(rs.Env) != 2 || cfg.Terminal.MaxSessions != 8 {
		t.Errorf("loaded %+v", rs)
	}
}

// TestLoadErrorsNameTheLine: a problem with a key names the line of the
// file that sets it, whatever found it (the decoder, an unknown key, the
// validation), and the whole key, map entries and list items included.
func TestLoadErrorsNameTheLine(t *testing.T) {
	cases := []struct{ content, want string }{
		{"{\n  \"maxToolCals\": 3\n}", `:2: maxToolCals: unknown key (did you mean "maxToolCalls"?)`},
		{"{\n  // a comment\n  \"approval\": {\n    \"autoApproveSafe\": \"yes\"\n  }\n}", `:4: approval.autoApproveSafe: must be true or false, not string`},
		{"{\n  \"providers\": {\"work\": {\"type\": \"openai\",\n    \"model\": 5}}\n}", `:3: providers.work.model: must be a string, not number`},
		{"{\"mcpServers\": {\"fs\": {\"command\": \"x\", \"args\": [\"a\",\n  3]}}}", `:2: mcpServers.fs.args[1]: must be a string, not number`},
		{"{\n\n  \"terminalIntegration\": {\"defaultTimeout\": -5}\n}", `:3: terminalIntegration.defaultTimeout: must be a positive number`},
		{"{\"fleet\": {\"inventory\": [\"a\",\n  \"\"]}}", `:2: fleet.inventory[1]: is empty`},
		{"{\"maxToolCalls\": 3,\n \"maxToolCalls\": 4}", `:2: maxToolCalls: is set twice (lines 1 and 2)`},
		{"{\"providers\": {\"a\": {\"type\": \"openai\"}},\n \"providers\": {}}", `:2: providers: is set twice (lines 1 and 2)`},
		{"{\"activeProvider\": \"work\"}", `:1: activeProvider: "work" names no configured provider: none is configured under "providers"`},
		{"{\"providers\": {\"wrok\": {\"type\": \"openai\", \"apiKey\": \"k\"}},\n \"activeProvider\": \"work\"}", `:2: activeProvider: "work" names no configured provider (did you mean "wrok"?)`},
	}
	for _, c := range cases {
		path := write(t, c.content)
		_, err := Load(path, true)
		if err == nil || !strings.Contains(err.Error(), path+c.want) {
			t.Errorf("%s:\n got %v\nwant %s%s", c.content, err, path, c.want)
		}
	}
	// A project's file names its lines too.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".nb"), 0o755); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, ".nb", "config.json")
	if err := os.WriteFile(project, []byte("{\"approval\": {\n  \"autoApproveSafe\": true}}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := LoadProject(Default(), dir); err == nil || !strings.Contains(err.Error(), project+":2: approval.autoApproveSafe: a project may only") {
		t.Errorf("project file: %v", err)
	}
}

// TestProjectKeyOfTheUser: a project file setting a key of the user's
// configuration is told that a project may not set it, not that the key is
// unknown; a misspelt key is still unknown, with the key meant.
func TestProjectKeyOfTheUser(t *testing.T) {
	for content, want := range map[string]string{
		"{\"approval\": {\n  \"allow\": [\"ls\"]}}": `:2: approval.allow: a project may only add approval.deny rules or turn approval.autoApproveSafe or approval.autoApproveInSandbox off; set this in your own configuration`,
		"{\"maxToolCalls\": 3}":                     `:1: maxToolCalls: a project may only add approval.deny rules`,
		"{\"providers\": {\"x\": {}}}":              `:1: providers: a project may only add approval.deny rules`,
		"{\"approval\": {\"dney\": []}}":            `:1: approval.dney: unknown key (did you mean "deny"?)`,
		"{\"nosuch\": 1}":                           `:1: nosuch: unknown key`,
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, ".nb"), 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, ".nb", "config.json")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := LoadProject(Default(), dir); err == nil || !strings.Contains(err.Error(), path+want) {
			t.Errorf("%s:\n got %v\nwant %s%s", content, err, path, want)
		}
	}
}
