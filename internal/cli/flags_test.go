package cli

import (
	"strings"
	"testing"
)

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"--approve", "ls", "--approve=git log *", "--model", "m", "--no-tools", "explain", "ls", "-la", "--verbose"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(o.Approve, "|") != "ls|git log *" || o.Model != "m" || !o.NoTools || o.Verbose {
		t.Errorf("opts = %+v", o)
	}
	if strings.Join(o.Words, " ") != "explain ls -la --verbose" {
		t.Errorf("words = %q: flags after the first word belong to the message", o.Words)
	}
	o, err = parseFlags([]string{"--", "--help", "me"})
	if err != nil || o.Help || strings.Join(o.Words, " ") != "--help me" {
		t.Errorf("-- handling: %+v, %v", o, err)
	}
	for args, want := range map[string]string{
		"--aprove x": "did you mean --approve?",
		"--modle x":  "did you mean --model?",
		"--model":    "needs a value",
		"-x hi":      "unknown flag -x",
		"--help=1":   "takes no value",
	} {
		_, err := parseFlags(strings.Fields(args))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", args, err, want)
		}
		if _, ok := err.(*usageError); !ok {
			t.Errorf("%s: %T is not a usage error", args, err)
		}
	}
}

func TestReadBounded(t *testing.T) {
	small := strings.Repeat("a", 100)
	if got, _ := readBounded(strings.NewReader(small), 1000); got != small {
		t.Errorf("small input changed")
	}
	big := "HEAD" + strings.Repeat("x", 1<<20) + "TAIL"
	got, err := readBounded(strings.NewReader(big), 4096)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "HEAD") || !strings.HasSuffix(got, "TAIL") || !strings.Contains(got, "input cut") || len(got) > 4096+200 {
		t.Errorf("bounded read: len %d, head %q, tail %q", len(got), got[:10], got[len(got)-10:])
	}
}

func TestFenceCannotBeClosedByContent(t *testing.T) {
	got := fence("a\n```\nb")
	if !strings.HasPrefix(got, "````\n") || !strings.HasSuffix(got, "\n````") {
		t.Errorf("fence = %q", got)
	}
}

func TestUnknownSlashSuggests(t *testing.T) {
	if got := unknownSlash("/claer"); !strings.Contains(got, "/clear") {
		t.Errorf("got %q", got)
	}
	if got := unknownSlash("/zzzzzzzz"); !strings.Contains(got, "/help") {
		t.Errorf("got %q", got)
	}
}

func TestParseScriptingFlags(t *testing.T) {
	o, err := parseFlags([]string{"--output-format", "stream-json", "--ephemeral", "hi"})
	if err != nil || o.OutputFormat != FormatStreamJSON || !o.NoHistory {
		t.Errorf("opts %+v, %v", o, err)
	}
	o, err = parseFlags([]string{"--no-history", "--output-format=json", "hi"})
	if err != nil || o.OutputFormat != FormatJSON || !o.NoHistory {
		t.Errorf("opts %+v, %v", o, err)
	}
	if o, _ := parseFlags([]string{"hi"}); o.OutputFormat != FormatText {
		t.Errorf("default format %q, want text", o.OutputFormat)
	}
	if o, _ := parseFlags([]string{"--history", "h.json", "hi"}); o.History != "h.json" {
		t.Errorf("history %q", o.History)
	}
	for args, want := range map[string]string{
		"--output-format yaml hi":          "use text, json or stream-json",
		"--history h --no-history hi":      "cannot be used together",
		"--output-format":                  "needs a value",
		"--ephemeral=1 hi":                 "takes no value",
		"--output-fromat json hi":          "did you mean --output-format?",
		"--history= hi":                    "needs a file name",
		"--no-history --history=x.json hi": "cannot be used together",
	} {
		_, err := parseFlags(strings.Fields(args))
		if _, ok := err.(*usageError); !ok || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want a usage error with %q", args, err, want)
		}
	}
}

func TestGlobalFlagsBeforeSubcommands(t *testing.T) {
	o, err := parseFlags([]string{"--config", "c.json", "--approve", "ls *", "policy", "check", "--", "ls"})
	if err != nil || o.forcedChat || strings.Join(o.Words, " ") != "policy check -- ls" {
		t.Fatalf("opts %+v, %v", o, err)
	}
	if err := o.only("policy", "config", "approve"); err != nil {
		t.Errorf("config and approve apply to policy: %v", err)
	}
	if err := o.only("tool", "config"); err == nil || !strings.Contains(err.Error(), "--approve does not apply to nb tool") {
		t.Errorf("tool refuses --approve: %v", err)
	}
	o, _ = parseFlags([]string{"--", "tool", "x"})
	if !o.forcedChat {
		t.Errorf("-- must force chat")
	}
}

func TestRemedyLine(t *testing.T) {
	if got := remedyLine("not run (needs approval): run: make\n  re-run with --approve 'make'"); got != "re-run with --approve 'make'" {
		t.Errorf("got %q", got)
	}
	if got := remedyLine("run nb interactively to approve this command"); got != "run nb interactively to approve this command" {
		t.Errorf("got %q", got)
	}
}
