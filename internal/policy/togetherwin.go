package policy

import (
	"regexp"
	"strings"
	"sync"

	"github.com/nb-cli/nb/internal/cmdbase"
	"github.com/nb-cli/nb/internal/shellparse"
	"github.com/nb-cli/nb/internal/winshell"
)

// Step 3 for what the commands of a cmd.exe or PowerShell script do
// together: a pipeline whose last stage changes or reads what the first
// names, code from the network run, a download then run, the .NET
// methods a script calls.

// winTogether judges the script's pipelines and .NET calls into the
// facts of its leaves.
func (e *Engine) winTogether(s *script, sec *winSecrets, as *assessment) {
	sends := false
	for _, l := range s.Leaves {
		if w := as.info.of(l).win; w != nil && fetches(w) {
			sends = true
		}
		for _, w := range l.Words {
			if cmdbase.DotNetFetches(w.Raw) {
				sends = true
			}
		}
	}
	var upstream []*shellparse.Leaf
	downloaded := "" // a file saved from the network earlier in the script
	for _, l := range s.Leaves {
		info := as.info.of(l)
		if !l.StdinFromPipe {
			upstream = nil
		}
		if info.win != nil {
			downloaded = e.winStage(l, info, upstream, downloaded, sends, s.cc, sec, as)
		}
		upstream = append(upstream, l)
		if !l.StdoutToPipe {
			upstream = nil
		}
	}
	if s.Dialect == shellparse.PowerShell && strings.Contains(s.Source, "::") {
		winDotNet(s, as)
	}
}

// winStage judges one stage of a pipeline (or a command alone) by what
// came before it; it returns the file downloaded so far.
func (e *Engine) winStage(l *shellparse.Leaf, info *leafInfo, upstream []*shellparse.Leaf, downloaded string, sends bool, cc CommandContext, sec *winSecrets, as *assessment) string {
	w := info.win
	j := w.j
	// download, then run: iwr … -OutFile x; Start-Process x
	if downloaded != "" && (j.Does == cmdbase.Runs || j.Does == cmdbase.Unknown && !j.Portable) && info.danger == "" {
		info.setDanger("runs what was downloaded (" + downloaded + ")")
	}
	// curl … -o x.bat, iwr … -OutFile x, curl … > x.bat
	if saves(l, w) || fetches(w) && redirWrites(l) {
		downloaded = l.Name()
	}
	// iwr … | Out-File x.ps1 (or Set-Content, Tee-Object, > x.ps1)
	if l.StdinFromPipe && (j.Does == cmdbase.Writes || w.writes || redirWrites(l)) {
		for _, up := range upstream {
			if uw := as.info.of(up).win; uw != nil && fetches(uw) {
				downloaded = up.Name()
			}
		}
	}
	if j.Does == cmdbase.Changes {
		winRegistryDanger(j, info)
	}
	if l.StdinFromPipe && info.danger == "" {
		winPipedChange(l, w, upstream, cc, as, info)
	}
	evaluates := j.Spec != nil && j.Spec.Code
	shell := j.Spec != nil && j.Spec.Shell || w.portable && cmdbase.Unix(j.Name).RunsCode()
	if sends && (evaluates || shell && l.StdinFromPipe) {
		info.setDanger("code from the network is run (" + l.Name() + ")")
		info.noRule = info.danger
	}
	if l.StdinFromPipe && j.Spec != nil && j.Spec.PipedPaths {
		e.winPipedReads(l, w, upstream, cc, sec, as, info)
	}
	return downloaded
}

// setDanger makes the leaf dangerous for why.
func (info *leafInfo) setDanger(why string) {
	info.danger = why
	info.notSafe(why)
	info.exactOnly = true
}

// saves says a command saves something from the network to a file.
func saves(l *shellparse.Leaf, w *winInfo) bool {
	if w.portable {
		return cmdbase.Unix(w.j.Name).Has(cmdbase.Network) && hasOutput(cmdbase.Unix(w.j.Name), l.Args())
	}
	if w.j.Spec == nil {
		return false
	}
	for _, opt := range w.j.Spec.Saves {
		if opt == "" || hasParam(l, strings.ToLower(opt), 4) {
			return true
		}
	}
	return false
}

// fetches says a command talks to the network (what it prints came from
// there).
func fetches(w *winInfo) bool {
	return w.j.Does == cmdbase.Sends || w.portable && isNetworkTool(w.j.Name)
}

// redirWrites reports a redirection of the leaf that writes a file.
func redirWrites(l *shellparse.Leaf) bool {
	for _, r := range l.Redirs {
		if r.Write && !harmlessTarget(r.Target.Text) {
			return true
		}
	}
	return false
}

// winRegistryDanger: a change to the keys that start programs (in any
// hive), or to the machine-wide registry (HKLM, HKCR) or every account's
// (HKU), is dangerous.
func winRegistryDanger(j cmdbase.Judgement, info *leafInfo) {
	for _, k := range append(j.Operands[:len(j.Operands):len(j.Operands)], j.Values...) {
		if a := autostartKey(k); a != "" && info.danger == "" {
			info.setDanger("makes a program start by itself (" + a + ")")
		}
	}
	for _, k := range append(j.Operands[:len(j.Operands):len(j.Operands)], j.Values...) {
		if machineKey(k) && info.danger == "" {
			info.setDanger("changes the machine-wide registry or every account's (" + k + ")")
		}
	}
}

// winPipedChange: a stage that changes what its pipeline names (gci
// C:\Windows | Remove-Item) is dangerous when that is a system location
// or the machine-wide registry, or when it deletes everything a
// recursive listing names.
func winPipedChange(l *shellparse.Leaf, w *winInfo, upstream []*shellparse.Leaf, cc CommandContext, as *assessment, info *leafInfo) {
	j := w.j
	for _, up := range upstream {
		uw := as.info.of(up).win
		if uw == nil {
			continue
		}
		if j.Spec != nil && j.Spec.ChangesPiped {
			for _, t := range append(uw.j.Files[:len(uw.j.Files):len(uw.j.Files)], uw.j.Operands...) {
				if winSystemPath(winAbs(t, cc.Cwd, cc.Home), cc.Home) || machineKey(t) {
					info.setDanger(j.Name + " changes what its pipeline names, a system location (" + t + ")")
				}
			}
		}
		if j.Cat == cmdbase.CatDelete && uw.j.Spec != nil && uw.j.Spec.Lists && hasParam(up, "-recurse", 2) {
			info.setDanger("deletes everything a recursive listing names")
		}
	}
}

// winPipedReads: a reader of the files its pipeline names (Get-ChildItem
// -Recurse | Select-String x) reads the lister's tree; the objects of any
// other producer (Import-Csv rows, processes) may name any file.
func (e *Engine) winPipedReads(l *shellparse.Leaf, w *winInfo, upstream []*shellparse.Leaf, cc CommandContext, sec *winSecrets, as *assessment, info *leafInfo) {
	if up := pipeProducer(upstream, as); up != nil && !lists(up) && !textProducer(up) {
		info.notSafe(w.j.Name + " reads the files " + up.j.Name + " names, which are not known")
	}
	for _, ul := range upstream {
		up := as.info.of(ul).win
		if up == nil || !lists(up) {
			continue
		}
		for _, p := range up.j.Patterns {
			if sec.secret(p, cc, true) {
				info.sensitive = "reads " + p
				info.notSafe("reads a sensitive path: " + p)
			}
		}
		roots := up.j.Files
		if len(roots) == 0 {
			roots = []string{"."}
		}
		for _, r := range roots {
			if sec.secret(r, cc, strings.ContainsAny(r, "*?")) {
				info.sensitive = "reads " + r
				info.notSafe("reads a sensitive path: " + r)
			} else if why := e.winTree(r, cc); why != "" {
				info.notSafe(why)
			}
		}
	}
}

func lists(w *winInfo) bool { return w.j.Spec != nil && w.j.Spec.Lists }

// pipeProducer is the command whose objects reach the end of upstream,
// past the cmdlets that pass objects through.
func pipeProducer(upstream []*shellparse.Leaf, as *assessment) *winInfo {
	for i := len(upstream) - 1; i >= 0; i-- {
		up := as.info.of(upstream[i]).win
		if up == nil {
			return nil
		}
		if s := up.j.Spec; s != nil && s.PassThrough && !anyParam(upstream[i], s.Reshapes) {
			continue
		}
		return up
	}
	return nil
}

// anyParam reports one of the parameters among the leaf's words.
func anyParam(l *shellparse.Leaf, params []string) bool {
	for _, p := range params {
		if hasParam(l, strings.ToLower(p), 2) {
			return true
		}
	}
	return false
}

// textProducer says a command's output is text: lines of a file (which
// carry that file's path), a program's output, strings.
func textProducer(w *winInfo) bool {
	if w.j.Spec == nil {
		return w.j.Portable
	}
	return w.j.Spec.In == cmdbase.Both || w.j.Spec.TextOut
}

// dotNetCall finds [Type]::Method( calls, their first string argument and
// whether a second argument is $true.
var dotNetCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\[\s*([a-z][a-z0-9_.]*)\s*\]\s*::\s*([a-z_][a-z0-9_]*)\s*\(\s*(?:['"‘’“”]([^'"‘’“”]*)['"‘’“”])?(\s*,\s*\$true)?`)
})

// winDotNet judges the .NET methods a PowerShell script calls
// ([IO.File]::Delete('x'), outside the plain subset) by the base: they
// write, delete or run code like the cmdlets that do the same.
func winDotNet(s *script, as *assessment) {
	if len(s.Leaves) == 0 {
		return
	}
	for _, m := range dotNetCall().FindAllStringSubmatch(s.Source, -1) {
		call, ok := cmdbase.DotNet(m[1], m[2])
		if !ok {
			continue
		}
		at := s.Leaves[0]
		for _, l := range s.Leaves {
			if len(l.Words) > 0 && strings.Contains(strings.ToLower(l.Words[0].Raw), "::"+strings.ToLower(m[2])) {
				at = l
				break
			}
		}
		info := as.info.of(at)
		what := "[" + m[1] + "]::" + m[2]
		info.notSafe(what + " " + call.Why)
		if call.DangerArg != "" && strings.Contains(strings.ToLower(callArgs(s.Source, m[0])), call.DangerArg) {
			info.setDanger(what + " " + call.DangerWhy)
		}
		switch call.Does {
		case cmdbase.Writes:
			info.win.writes = true
			info.warns = true
			switch {
			case call.Recursive && m[4] != "":
				info.setDanger(what + " deletes a whole tree")
			case m[3] != "" && winSystemPath(winAbs(m[3], s.cc.Cwd, s.cc.Home), s.cc.Home):
				info.setDanger(what + " changes a system location (" + m[3] + ")")
			}
		case cmdbase.Runs:
			info.noAlways = true
		}
	}
}

// callArgs is the text of a .NET call's argument list: from the call's
// start (as the regular expression matched it) to its closing
// parenthesis.
func callArgs(src, call string) string {
	i := strings.Index(src, call)
	if i < 0 {
		return call
	}
	depth := 0
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return src[i : j+1]
			}
		}
	}
	return src[i:]
}

// concat joins PowerShell's string pieces added together ('Remove-' +
// 'Item'); nameOf finds the words of a script.
var (
	concat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`['"‘’“”]\s*\+\s*['"‘’“”]`) })
	nameOf = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_.\\-]+`) })
)

// builtDanger says why a script outside the plain subset may run a
// dangerous command whose name it builds at run time, or "": a command
// of the base that can destroy or weaken (Remove-Item, format, rd)
// named in its text where no leaf runs it as itself — in a string, after
// & or Get-Command, in pieces added together, behind cmd.exe's delayed
// expansion (!a!!b! after set a=for, set b=mat). A guess that can only
// make the answer more careful: it warns, it never allows.
func builtDanger(s *script) string {
	text := winshell.ExpandDelayed(concat().ReplaceAllString(s.Source, ""))
	run := map[string]bool{}
	for _, l := range s.Leaves {
		if n := l.Name(); n != "" {
			run[strings.ToLower(n)] = true
		}
	}
	for _, w := range nameOf().FindAllString(text, -1) {
		lw := strings.ToLower(w)
		if run[lw] || !cmdbase.MayDestroy(w) {
			continue
		}
		return "a command built at run time may run " + w
	}
	return ""
}

// hasOutput says p writes a file through one of its output options.
func hasOutput(p *cmdbase.Prog, args []cmdbase.Word) bool {
	_, ok := p.OutputFile(args)
	return ok
}
