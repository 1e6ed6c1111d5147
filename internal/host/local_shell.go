package host

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/nb-cli/nb/internal/sysinfo"
)

// invocation is how one script reaches a shell.
type invocation struct {
	argv []string
	// cmdLine, when set, is the exact Windows command line (cmd.exe parses
	// its own command line, by rules no argv quoting matches).
	cmdLine string
	env     []string
}

// cmdCwdHelper is the batch file cmd.exe calls after the user's script: it
// keeps the script's exit status and writes the directory, in UTF-8, to
// NB_CWD_FILE. Each line is parsed when it runs, so %errorlevel% is the
// script's.
const cmdCwdHelper = "@set __nb_rc=%errorlevel%\r\n" +
	"@chcp 65001 >nul 2>nul\r\n" +
	"@cd >\"%NB_CWD_FILE%\" 2>nul\r\n" +
	"@exit %__nb_rc%\r\n"

// cmdUTF8 switches cmd.exe's console (its own, CREATE_NO_WINDOW) to UTF-8
// before the script; "&" binds loosest, so it runs whatever the script is.
const cmdUTF8 = "chcp 65001>nul 2>nul& "

// psPrologue and psEpilogue surround the user's script for PowerShell: the
// directory is written however the script ends (an error, `exit N`), and a
// failing last command still fails the run.
const (
	psPrologue = "$__nb_cwd = $env:NB_CWD_FILE; Remove-Item Env:NB_CWD_FILE -ErrorAction Ignore\n" +
		// output, and what native programs print, as UTF-8
		"try { [Console]::OutputEncoding = [Text.UTF8Encoding]::new($false); $OutputEncoding = [Console]::OutputEncoding } catch {}\n" +
		"try {\n"
	psEpilogue = "\n} finally { $__nb_ok = $?; try { [IO.File]::WriteAllText($__nb_cwd, (Get-Location).ProviderPath) } catch {} }\n" +
		"if (-not $__nb_ok) { if ($LASTEXITCODE) { exit $LASTEXITCODE }; exit 1 }\n"
)

// shellInvocation builds the run of script by shell, measuring the final
// directory into NB_CWD_FILE (already in env). rt holds the helper files.
//
// bash: `bash -c SCRIPT` with BASH_ENV sourcing the prologue. Other POSIX
// shells: `sh -c WRAPPER sh SCRIPT`. cmd.exe: the command line
// `cmd.exe /d /s /c "SCRIPT& call "HELPER""`; /s makes cmd.exe take
// everything between the outer quotes verbatim, and `&` binds loosest, so
// the helper runs after the whole script. A script with an odd number of
// double quotes would swallow the helper into a string, so it runs alone
// and the directory is not measured. PowerShell: -EncodedCommand (UTF-16LE
// base64, the documented way to pass any text unescaped) of the script
// inside try/finally.
func shellInvocation(shell, script, rt string, env []string) invocation {
	switch sysinfo.KindOf(shell) {
	case sysinfo.ShellBash:
		if v, ok := lookupEnv(env, "BASH_ENV"); ok {
			env = append(env, "NB_USER_BASH_ENV="+v)
		}
		env = append(env, "BASH_ENV="+filepath.Join(rt, "prologue.bash"))
		return invocation{argv: []string{shell, "-c", script}, env: env}
	case sysinfo.ShellCmd:
		// The code page is set first: built-ins (dir, type, echo) write in
		// it, and the output is read as UTF-8.
		body := cmdUTF8 + script
		if strings.Count(script, `"`)%2 == 0 {
			// no space before &: it would end the script's last argument
			body += `& call "` + filepath.Join(rt, "cwd.cmd") + `"`
		}
		return invocation{argv: []string{shell}, cmdLine: quoteExe(shell) + ` /d /s /c "` + body + `"`, env: env}
	case sysinfo.ShellPowerShell:
		return invocation{argv: []string{shell, "-NoLogo", "-NoProfile", "-NonInteractive", "-EncodedCommand",
			encodePS(psPrologue + script + psEpilogue)}, env: env}
	}
	return invocation{argv: []string{shell, "-c", shWrapper, filepath.Base(shell), script}, env: env}
}

// quoteExe quotes a program path for a Windows command line (paths cannot
// contain double quotes).
func quoteExe(p string) string { return `"` + p + `"` }

// encodePS encodes a script for PowerShell's -EncodedCommand.
func encodePS(s string) string {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}
