package redact

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	toml "github.com/pelletier/go-toml/v2"
	gitleaks "github.com/zricethezav/gitleaks/v8/config"
)

// The shapes of keys and tokens come from gitleaks' default rule set
// (config.DefaultConfig of github.com/zricethezav/gitleaks/v8, the
// version go.mod pins): each rule's regular expression, keywords, secret
// group, entropy threshold and allow-lists, and the global allow-lists.
// Only the matcher is nb's: a keyword prefilter over the text, then each
// rule whose keyword occurs, on the lines around the keyword; the rules
// are read and compiled the first time text is scanned, each regular
// expression only once one of its keywords has been seen.

// ruleFile is the part of the gitleaks configuration nb reads.
type ruleFile struct {
	Rules      []ruleEntry
	AllowList  *allowEntry
	Allowlists []allowEntry
}

type ruleEntry struct {
	ID          string
	Path        string
	Regex       string
	SecretGroup int
	Entropy     float64
	Keywords    []string
	AllowList   *allowEntry
	Allowlists  []allowEntry
	SkipReport  bool
}

type allowEntry struct {
	Condition   string
	RegexTarget string
	Regexes     []string
	StopWords   []string
	Paths       []string
	Commits     []string
}

// rule is one shape with its regular expression compiled on first use.
type rule struct {
	id          string
	source      string
	secretGroup int
	entropy     float64
	keywords    []string
	allow       []*allowlist
	// lines is how many lines after its keyword's a rule matching across
	// lines (a private key block, a curl command continued) may reach; 0
	// for a rule of one line. Set with the expression (compiled).
	lines int
	// assigns is set for the rules of a value assigned to a name holding
	// the keyword (KEY = "…", token: …): their match needs an assignment
	// operator a few bytes after the keyword.
	assigns bool

	once   sync.Once
	re     *regexp.Regexp
	pre    precheck
	hasPre bool
	// at is the rule's expression without its leading run of name
	// characters ([\w.-]{0,50}?), anchored at the keyword (anchor.go);
	// nil when it has no such run.
	at *anchoredRule
}

// compiled returns the rule's expression and precheck, compiled on first
// use.
func (r *rule) compiled() (*regexp.Regexp, *precheck) {
	r.once.Do(func() {
		r.lines = spanLines(r.source)
		r.re = compile(r.source)
		r.pre, r.hasPre = newPrecheck(r.source, r.secretGroup, r.entropy)
		r.at = newAnchored(r.source, r.keywords)
	})
	if !r.hasPre {
		return r.re, nil
	}
	return r.re, &r.pre
}

func (r *rule) regexp() *regexp.Regexp {
	re, _ := r.compiled()
	return re
}

// allowlist is a gitleaks allow-list: a finding it matches is not a
// secret (a placeholder, a variable, a word such as "example").
type allowlist struct {
	and bool
	// target is what its regexes are matched against: "" the secret,
	// "match" the whole match, "line" the line.
	target string
	// unmet is set when the list has a condition nb cannot check (file
	// paths, commits): an AND list with one never allows.
	unmet     bool
	source    []string
	stopwords []string

	once sync.Once
	re   *regexp.Regexp
}

func (a *allowlist) regexp() *regexp.Regexp {
	a.once.Do(func() {
		if len(a.source) == 0 {
			return
		}
		parts := make([]string, len(a.source))
		for i, s := range a.source {
			parts[i] = "(?:" + s + ")"
		}
		a.re = compile(strings.Join(parts, "|"))
	})
	return a.re
}

// compile compiles a regular expression of the rule set; one Go cannot
// read matches nothing (a test checks that every one compiles).
func compile(src string) *regexp.Regexp {
	re, err := regexp.Compile(src)
	if err != nil {
		return nil
	}
	return re
}

// allows reports whether the list lets a finding through as no secret.
func (a *allowlist) allows(secret, match, line string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	re := a.regexp()
	regexOK := re != nil && target != "" && re.MatchString(target)
	stopOK := false
	if len(a.stopwords) > 0 && secret != "" {
		lower := strings.ToLower(secret)
		for _, w := range a.stopwords {
			if strings.Contains(lower, w) {
				stopOK = true
				break
			}
		}
	}
	if !a.and {
		return regexOK || stopOK
	}
	if a.unmet {
		return false
	}
	if len(a.source) > 0 && !regexOK || len(a.stopwords) > 0 && !stopOK {
		return false
	}
	return len(a.source) > 0 || len(a.stopwords) > 0
}

// assignment is the part of the rule set's expressions for a value
// assigned to a name: after the name, up to 20 characters of [ \t\w.-]
// and 3 blanks or quotes, one of these operators.
const assignment = `(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// ruleSet is the loaded rule set with its keyword index.
type ruleSet struct {
	rules  []*rule
	global []*allowlist
	index  *keywordIndex
	// byKeyword lists, for each keyword of the index, the rules it
	// triggers; own, for nb's own keywords, the shape they announce.
	byKeyword [][]int
	own       []ownShape
	// unanchored runs every rule on windows, as gitleaks' expressions
	// are written (the differential test's reference).
	unanchored bool
	// ran, when set (tests), is told the bytes each run of a rule reads.
	ran func(r *rule, n int)
}

// ownShape is a shape of nb's own (shapes.go) a keyword announces.
type ownShape int

const (
	noShape ownShape = iota
	netrcShape
	keyEdgeShape
	urlShape
)

// ownKeywords announce nb's own shapes.
var ownKeywords = map[string]ownShape{
	"password": netrcShape, "passwd": netrcShape, "-----begin": keyEdgeShape, "-----end": keyEdgeShape, "://": urlShape,
}

// addOwn adds nb's own keywords to a rule set (loaded or empty) and
// builds its keyword index.
func (rs *ruleSet) addOwn(keywords []string) {
	rs.own = make([]ownShape, len(keywords))
	for k, shape := range ownKeywords {
		id := slices.Index(keywords, k)
		if id < 0 {
			id = len(keywords)
			keywords = append(keywords, k)
			rs.byKeyword = append(rs.byKeyword, nil)
			rs.own = append(rs.own, noShape)
		}
		rs.own[id] = shape
	}
	rs.index = newKeywordIndex(keywords)
}

// loadRules reads gitleaks' default configuration. Rules that apply only
// to some file paths (nb scans output, not files) and rules gitleaks does
// not report are left out.
func loadRules() (*ruleSet, error) {
	var f ruleFile
	if err := toml.Unmarshal([]byte(gitleaks.DefaultConfig), &f); err != nil {
		return nil, fmt.Errorf("gitleaks rules: %w", err)
	}
	rs := &ruleSet{}
	if f.AllowList != nil {
		f.Allowlists = append(f.Allowlists, *f.AllowList)
	}
	for _, a := range f.Allowlists {
		rs.global = append(rs.global, newAllowlist(a))
	}
	kwID := map[string]int{}
	var keywords []string
	for _, e := range f.Rules {
		if e.Regex == "" || e.Path != "" || e.SkipReport {
			continue
		}
		r := &rule{id: e.ID, source: e.Regex, secretGroup: e.SecretGroup, entropy: e.Entropy,
			assigns: strings.Contains(e.Regex, assignment)}
		if e.AllowList != nil {
			e.Allowlists = append(e.Allowlists, *e.AllowList)
		}
		for _, a := range e.Allowlists {
			r.allow = append(r.allow, newAllowlist(a))
		}
		idx := len(rs.rules)
		rs.rules = append(rs.rules, r)
		for _, k := range e.Keywords {
			k = strings.ToLower(k)
			if k == "" {
				continue
			}
			r.keywords = append(r.keywords, k)
			id, ok := kwID[k]
			if !ok {
				id = len(keywords)
				kwID[k] = id
				keywords = append(keywords, k)
				rs.byKeyword = append(rs.byKeyword, nil)
			}
			rs.byKeyword[id] = append(rs.byKeyword[id], idx)
		}
		if len(r.keywords) == 0 {
			return nil, fmt.Errorf("gitleaks rules: rule %s has no keyword", e.ID)
		}
	}
	rs.addOwn(keywords)
	return rs, nil
}

func newAllowlist(a allowEntry) *allowlist {
	l := &allowlist{and: strings.EqualFold(a.Condition, "AND"), target: a.RegexTarget, source: a.Regexes,
		unmet: len(a.Paths) > 0 || len(a.Commits) > 0}
	for _, w := range a.StopWords {
		l.stopwords = append(l.stopwords, strings.ToLower(w))
	}
	return l
}
