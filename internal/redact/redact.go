// Package redact withholds secrets from text bound for a language model:
// every tool result, attachment, instruction file and error nb sends, and
// every result `nb mcp serve` returns, passes one Detector. It knows the
// values of the secret environment variables nb keeps from commands and
// the values of the token lines of the secret files on this machine, and
// finds them in every spelling a command can give them in one cheap step
// (base64, hex dumps, escapes and codes, reversed, rotated, any case,
// split by separators or interleaved), in part as well as whole; and the shapes of keys and tokens from
// gitleaks' maintained rule set (private keys, cloud keys, forge, chat
// and payment tokens, JWTs), plus credentials in URLs and .netrc lines,
// also in base64 and hex blobs, decoded, and where a cut left half of
// one. A secret found is replaced by a marker naming its kind
// ("[withheld: github-pat]"); the caller decides whether the user may
// release it.
package redact

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Found is one secret withheld from a text.
type Found struct {
	// Kind names it: a rule of the rule set ("github-pat",
	// "private-key"), "url-credentials", "netrc-password", an environment
	// variable ("$GITHUB_TOKEN") or a secret file ("~/.netrc").
	Kind string
	// Value is the text withheld: for releasing it at the user's word,
	// never to be shown, logged or saved.
	Value string
}

// Count is how many secrets of one kind were withheld.
type Count struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// Result is a text with its secrets withheld.
type Result struct {
	// Text is the text with every secret replaced by Marker(kind).
	Text string
	// Found lists what was withheld, in order.
	Found []Found
}

// Counts summarises r.Found by kind, in order of first appearance.
func (r Result) Counts() []Count { return Summarize(r.Found) }

// Summarize counts found by kind, in order of first appearance.
func Summarize(found []Found) []Count {
	var out []Count
	for _, f := range found {
		i := slices.IndexFunc(out, func(c Count) bool { return c.Kind == f.Kind })
		if i < 0 {
			out = append(out, Count{Kind: f.Kind})
			i = len(out) - 1
		}
		out[i].Count++
	}
	return out
}

// genericKind is the rule set's catch-all rule, named only when no
// specific rule found the same secret.
const genericKind = "generic-api-key"

// rank orders the kinds that found one secret by how well they name it:
// where it came from (a variable, a file), then a specific shape, then
// the catch-all.
func rank(kind string) int {
	switch {
	case strings.HasPrefix(kind, "$") || strings.HasPrefix(kind, "~") || strings.HasPrefix(kind, "/") || len(kind) > 2 && kind[1] == ':':
		return 3
	case kind == genericKind:
		return 1
	}
	return 2
}

// mergeKind names a span found as kind and as other: the better name of
// one secret found by several rules, or, when both name where a secret
// came from (two known secrets run together), both, so that releasing
// the span releases nothing the user was not told of.
func mergeKind(kind, other string) string {
	switch rk, ro := rank(kind), rank(other); {
	case rk == 3 && ro == 3:
		if slices.Contains(strings.Split(kind, ", "), other) {
			return kind
		}
		return kind + ", " + other
	case ro > rk:
		return other
	}
	return kind
}

// Merge adds the counts of more to counts, keeping the order of first
// appearance.
func Merge(counts, more []Count) []Count {
	for _, m := range more {
		if i := slices.IndexFunc(counts, func(c Count) bool { return c.Kind == m.Kind }); i >= 0 {
			counts[i].Count += m.Count
		} else {
			counts = append(counts, m)
		}
	}
	return counts
}

// Marker is what replaces a withheld secret of kind.
func Marker(kind string) string { return "[withheld: " + kind + "]" }

// Options configures a Detector.
type Options struct {
	// Values returns known secret values by their kind ("$GITHUB_TOKEN"):
	// the values of the secret environment variables (EnvValues). It is
	// called once, the first time text is scanned (nil: none).
	Values func() []Value
	// Files returns the secret files whose token lines are
	// fingerprinted, with the label each is named by ("~/.netrc"). It is
	// called once, the first time text is scanned (nil: none).
	Files func() []File
}

// Value is a known secret.
type Value struct {
	Kind  string
	Value string
}

// File is a secret file to fingerprint.
type File struct {
	Path  string
	Label string
}

// Detector finds and withholds secrets. It is safe for concurrent use;
// the rule set and the fingerprints are loaded the first time it scans.
type Detector struct {
	opts Options

	once   sync.Once
	rules  *ruleSet
	err    error
	prints *fingerprints
	values valueSet
	known  *knownSet
}

// New returns a detector; it reads nothing until it first scans.
func New(opts Options) *Detector { return &Detector{opts: opts} }

// load reads the rule set and the secret files once.
func (d *Detector) load() {
	d.once.Do(func() {
		d.rules, d.err = loadRules()
		if d.err != nil {
			// nb's own shapes are found without the rule set
			d.rules = &ruleSet{}
			d.rules.addOwn(nil)
		}
		d.known = &knownSet{}
		if d.opts.Values != nil {
			// a value is searched for as it is only when it has no
			// spelling long enough to search for in the text's skeleton
			var exact []Value
			for _, v := range d.opts.Values() {
				if secretLooking(v.Value) && !d.known.add(v.Value, v.Kind) {
					exact = append(exact, v)
				}
			}
			d.values = usableValues(exact)
		}
		var files []File
		if d.opts.Files != nil {
			files = d.opts.Files()
		}
		d.prints = fingerprintFiles(files, d.known)
		d.known.build()
	})
}

// Err reports whether the rule set could not be read (then only known
// values, fingerprints and nb's own shapes are found).
func (d *Detector) Err() error {
	d.load()
	return d.err
}

// Warm loads the rule set and the fingerprints now, so that the first
// scan does not wait for them.
func (d *Detector) Warm() { d.load() }

// span is one finding in a text, before spans are merged.
type span struct {
	start, end int
	kind       string
}

// Redact withholds the secrets of text; of a JSON document (a tool
// result), the secrets of its strings, decoded (jsondoc.go). released,
// when not nil, says which values the user chose to send anyway: a
// finding whose value it reports is left in place.
func (d *Detector) Redact(text string, released func(value string) bool) Result {
	if text == "" {
		return Result{Text: text}
	}
	d.load()
	if res, ok := d.redactJSON(text, released); ok {
		return res
	}
	return d.redactText(text, released)
}

// redactText withholds the secrets of a text as it is.
func (d *Detector) redactText(text string, released func(value string) bool) Result {
	return d.redactDepth(text, 0, new(int), released)
}

// redactDepth withholds the secrets of a text, depth levels of encoding
// below a text nb was given; inflated counts the bytes decompressed for
// that text so far.
func (d *Detector) redactDepth(text string, depth int, inflated *int, released func(value string) bool) Result {
	v := &views{text: text}
	defer v.release()
	var spans []span
	spans = d.values.find(text, spans)
	spans = d.known.find(v, spans)
	spans = d.prints.find(text, spans)
	spans = d.rules.find(text, spans)
	spans = d.rules.findUnescaped(text, spans)
	spans = d.rules.findCut(text, spans)
	spans = d.findEncoded(v, depth, inflated, released, spans)
	if len(spans) == 0 {
		return Result{Text: text}
	}
	return apply(text, spans, released)
}

// apply replaces the spans (widened so that no JSON escape is cut, and
// merged where they overlap) by markers.
func apply(text string, spans []span, released func(string) bool) Result {
	for i := range spans {
		spans[i].start, spans[i].end = escapeSafe(text, spans[i].start, spans[i].end)
	}
	slices.SortFunc(spans, func(a, b span) int {
		// the kind last, so that the name a merged span gets does not
		// depend on the order its findings came in
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end), strings.Compare(a.kind, b.kind))
	})
	var merged []span
	for _, s := range spans {
		if n := len(merged); n > 0 && s.start < merged[n-1].end {
			m := &merged[n-1]
			m.end = max(m.end, s.end)
			m.kind = mergeKind(m.kind, s.kind)
			continue
		}
		merged = append(merged, s)
	}
	var b strings.Builder
	var found []Found
	last := 0
	for _, s := range merged {
		v := text[s.start:s.end]
		if released != nil && released(v) {
			continue
		}
		b.WriteString(text[last:s.start])
		b.WriteString(Marker(s.kind))
		found = append(found, Found{Kind: s.kind, Value: v})
		last = s.end
	}
	if found == nil {
		return Result{Text: text}
	}
	b.WriteString(text[last:])
	return Result{Text: b.String(), Found: found}
}
