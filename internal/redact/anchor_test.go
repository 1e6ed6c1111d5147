package redact

import (
	"strings"
	"testing"
)

// TestAnchoredSameAsRules: the rules anchored at their keywords find, on
// real output (the recorded outputs, the README) and on assignments of
// every such rule's keywords in the usual spellings, exactly what the
// rule set's expressions find on the windows around the keywords.
func TestAnchoredSameAsRules(t *testing.T) {
	anchored, err := loadRules()
	if err != nil {
		t.Fatal(err)
	}
	reference, _ := loadRules()
	reference.unanchored = true
	var texts []string
	for _, o := range recordedOutputs(t) {
		texts = append(texts, o.text)
	}
	texts = append(texts, benchText(t, 60<<10))
	for _, c := range shapes() {
		texts = append(texts, c.text)
	}
	n := 0
	for i, r := range anchored.rules {
		if r.compiled(); r.at == nil {
			continue
		}
		n++
		for j, kw := range r.keywords {
			v := canary("", alnum, 32, uint64(100*i+j))
			up := strings.ToUpper(kw)
			texts = append(texts, strings.Join([]string{
				kw + " = " + v, "export MY_" + up + "_TOKEN=" + v, `  "` + kw + `_key": "` + v + `",`, kw + ": " + v,
				"config." + kw + "Secret := '" + v + "'", up + "_API_KEY=" + v + " other=x", "set " + kw + "=" + v + "; " + kw + "_id=" + v[:12],
				"x " + kw + kw + " => " + v, "pre-" + kw + "-token: `" + v + "`",
			}, "\n")+"\n")
		}
	}
	for i, r := range anchored.rules {
		if r.at == nil || r.at.most > 0 {
			continue
		}
		// a rule that begins with its keyword: the keyword, then
		// characters its value may hold, alone, in a word, after a word
		for j, kw := range r.keywords {
			v := canary("", alnum, 300, uint64(7000+100*i+j))
			texts = append(texts, kw+v+"\n", "x"+kw+v[:60]+" "+kw+"."+v[:50]+"\n", "see "+strings.ToUpper(kw)+v[:100]+"\n")
		}
	}
	v := canary("", alnum, 24, 90)
	texts = append(texts, pemKey(91), "a\n"+pemKey(92)+pemKey(93),
		"curl -u admin:"+v+" https://example.com\n", "curl -s \\\n  --user 'admin:"+v+"' \\\n  https://x\n",
		`curl -H "Authorization: Bearer `+v+`" https://x`+"\n", "curl https://x\ncurl -H 'X-Api-Key: "+v+"' -u u:"+v+" y\n", "xcurl -u a:"+v+"\n")
	if n < 50 {
		t.Fatalf("only %d rules anchored", n)
	}
	found := 0
	for _, text := range texts {
		got, want := apply(text, anchored.find(text, nil), nil), apply(text, reference.find(text, nil), nil)
		found += len(want.Found)
		if got.Text != want.Text {
			t.Errorf("anchored %v, rule set %v, in %q", got.Found, want.Found, text[:min(len(text), 400)])
		}
	}
	t.Logf("%d anchored rules, %d texts, %d findings", n, len(texts), found)
}
