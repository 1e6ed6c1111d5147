package winshell

import "strings"

// PowerShell's grouping parentheses inside the plain subset: a pipeline
// or an arithmetic of literals in ( ), followed by members that only
// compute — (Get-Date).AddDays(-1), (Get-ChildItem | Measure-Object
// -Property Length -Sum).Sum, (1MB * 10). The commands inside are
// commands of the script (Via "group"), judged on their own; the value is
// a Computed word. Any other member, or a call with other than literal
// arguments, is outside the subset.

// valueMethods are the methods of the values such groups yield (dates,
// numbers, strings, collections, versions) that compute a new value and
// change nothing, lower case.
var valueMethods = map[string]bool{
	"adddays": true, "addhours": true, "addminutes": true, "addseconds": true, "addmonths": true, "addyears": true,
	"addmilliseconds": true, "addticks": true, "tostring": true, "toupper": true, "tolower": true, "trim": true,
	"trimstart": true, "trimend": true, "split": true, "substring": true, "contains": true, "startswith": true,
	"endswith": true, "indexof": true, "lastindexof": true, "replace": true, "padleft": true, "padright": true,
	"toshortdatestring": true, "tolongdatestring": true, "toshorttimestring": true, "tolongtimestring": true,
	"touniversaltime": true, "tolocaltime": true, "toint32": true, "toint64": true, "todouble": true, "equals": true,
	"compareto": true, "gettype": true, "subtract": true, "join": true,
}

// valueProperties are the properties of such values that only read
// data, lower case.
var valueProperties = map[string]bool{
	"sum": true, "count": true, "length": true, "average": true, "maximum": true, "minimum": true, "name": true,
	"fullname": true, "basename": true, "extension": true, "directoryname": true, "lastwritetime": true,
	"creationtime": true, "lastaccesstime": true, "date": true, "day": true, "month": true, "year": true, "hour": true,
	"minute": true, "second": true, "dayofweek": true, "dayofyear": true, "ticks": true, "totalseconds": true,
	"totalminutes": true, "totalhours": true, "totaldays": true, "totalmilliseconds": true, "days": true,
	"hours": true, "minutes": true, "seconds": true, "major": true, "minor": true, "build": true, "revision": true,
	"path": true, "id": true, "processname": true, "status": true, "displayname": true, "starttype": true,
	"version": true, "psversion": true, "mode": true, "exists": true, "parent": true, "root": true,
	"freespace": true, "size": true, "used": true, "free": true, "ws": true, "cpu": true, "line": true,
	"linenumber": true, "filename": true, "matches": true, "property": true, "lines": true, "words": true,
	"characters": true, "timeofday": true, "kind": true, "hostname": true, "ipaddress": true,
}

// group reads ( … ) at p.i (just past the open parenthesis t) and the
// members after it, as a Computed word; ok is false (p.i unchanged) for
// any other group.
func (p *psParser) group(t ptok) (Word, bool) {
	if t.text != "(" {
		return Word{}, false
	}
	end := p.closing(p.i)
	if end < 0 {
		return Word{}, false
	}
	start := p.i
	if !p.arithmetic(start, end) {
		saved := len(p.s.Unknown)
		if p.depth++; p.depth > maxDepth {
			p.s.unknown("commands nested too deeply")
			p.i = len(p.toks)
			return Word{Dynamic: true, Raw: "(…)", Text: "(…)"}, true
		}
		p.block("group", ")")
		p.depth--
		if len(p.s.Unknown) > saved || p.i != end+1 {
			return Word{Dynamic: true, Raw: "(…)", Text: "(…)"}, true
		}
	}
	p.i = end + 1
	raw := "(…)"
	for p.i < len(p.toks) {
		m := p.toks[p.i]
		if m.kind != pWord || m.spaced || !strings.HasPrefix(m.word.Text, ".") || len(m.word.Text) < 2 {
			break
		}
		name := strings.ToLower(m.word.Text[1:])
		p.i++
		raw += m.word.Raw
		if p.i < len(p.toks) && p.toks[p.i].kind == pOpen && p.toks[p.i].text == "(" && !p.toks[p.i].spaced {
			close := p.closing(p.i + 1)
			if close < 0 || !valueMethods[name] || !p.literals(p.i+1, close) {
				p.s.unknown("a method call (" + m.word.Text + ")")
			}
			raw += "(…)"
			if close < 0 {
				p.i = len(p.toks)
				break
			}
			p.i = close + 1
			continue
		}
		if !valueProperties[name] {
			p.s.unknown("a property (" + m.word.Text + ")")
		}
	}
	return Word{Dynamic: true, Computed: true, Raw: raw, Text: raw}, true
}

// closing is the index of the parenthesis closing the group whose
// contents start at i, or -1.
func (p *psParser) closing(i int) int {
	depth := 1
	for ; i < len(p.toks); i++ {
		switch p.toks[i].kind {
		case pOpen:
			depth++
		case pClose:
			if depth--; depth == 0 {
				if p.toks[i].text != ")" {
					return -1
				}
				return i
			}
		}
	}
	return -1
}

// arithmetic reports tokens from i to end that are numbers, size
// literals (1MB) and arithmetic operators only.
func (p *psParser) arithmetic(i, end int) bool {
	if i >= end {
		return false
	}
	for ; i < end; i++ {
		t := p.toks[i]
		if t.kind != pWord || t.word.Dynamic || t.word.Quoted {
			return false
		}
		if w := t.word.Text; !isNumberish(w) && !isNumberish(strings.TrimLeft(w, "-")) && !strings.Contains("+-*/%", w) {
			return false
		}
	}
	return true
}

// literals reports a method's argument list from i to end made of
// literal words (numbers, quoted text without expansions) and commas.
func (p *psParser) literals(i, end int) bool {
	for ; i < end; i++ {
		t := p.toks[i]
		switch {
		case t.kind == pComma:
		case t.kind == pWord && !t.word.Dynamic && (t.word.Quoted || isNumberish(strings.TrimLeft(t.word.Text, "-"))):
		case t.kind == pWord && strings.HasPrefix(t.word.Raw, "[") && strings.Contains(t.word.Raw, "]::") && !strings.ContainsAny(t.word.Raw, "($"):
			// an enumeration's value ([EnvironmentVariableTarget]::Machine)
		default:
			return false
		}
	}
	return true
}

// callArgs reads the literal arguments of a method called on the word
// before it ([Environment]::GetEnvironmentVariable('Path'), $x.Split(',')):
// values, never commands; true when it did. The call itself is outside
// the subset by the word it is made on.
func (p *psParser) callArgs(t ptok, c *Command) bool {
	if t.text != "(" || t.spaced || len(c.Words) == 0 || !c.Words[len(c.Words)-1].Dynamic {
		return false
	}
	end := p.closing(p.i)
	if end < 0 || !p.literals(p.i, end) {
		return false
	}
	p.i = end + 1
	c.Words[len(c.Words)-1].Raw += "(…)"
	return true
}
