package openai

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/nb-cli/nb/internal/llm"
)

// readIn reads r in reads of n bytes.
func readIn(t *testing.T, r io.Reader, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	p := make([]byte, n)
	for {
		k, err := r.Read(p)
		out.Write(p[:k])
		if err == io.EOF {
			return out.Bytes()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestBodyReader: the body read as it is written is the body Body makes
// with "stream": true added as the SDK adds it, of exactly the size sent
// as Content-Length, however it is read, and again for a retry.
func TestBodyReader(t *testing.T) {
	long := strings.Repeat("line \"quoted\" \\ \t\n", 6000)
	var msgs []llm.Message
	for i := range 300 {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d", i)},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: fmt.Sprint("c", i), Name: "run_cmd", Arguments: `{"command":"ls"}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: fmt.Sprint("c", i), Text: long[:i*i/10]},
			llm.Message{Role: llm.RoleAssistant, Text: "answer"})
	}
	msgs = append(msgs, llm.Message{Role: llm.RoleUser, Text: "look", Images: []llm.Image{{MediaType: "image/png", Data: []byte{1, 2, 3}}}})
	for _, req := range []*llm.Request{
		{System: "sys", Facts: "facts", Messages: msgs},
		{Messages: msgs[:1]},
		{Messages: []llm.Message{{Role: llm.RoleTool, ToolCallID: "x", Text: long}}},
		{},
	} {
		p := New(Config{Model: "m", Compatible: true})
		plain, err := p.Body(req)
		if err != nil {
			t.Fatal(err)
		}
		want := append(plain[:len(plain)-1:len(plain)-1], `,"stream":true}`...)
		if len(plain) == 2 {
			want = []byte(`{"stream":true}`)
		}
		b, err := p.newBody(req, true)
		if err != nil {
			t.Fatal(err)
		}
		if b.size != int64(len(want)) {
			t.Errorf("%d messages: size %d, the body has %d bytes", len(req.Messages), b.size, len(want))
		}
		for _, n := range []int{3, 4096, 1 << 20} {
			if got := readIn(t, b.reader(), n); !bytes.Equal(got, want) {
				t.Fatalf("%d messages, reads of %d: got %d bytes\n%.300s\nwant %d bytes\n%.300s", len(req.Messages), n, len(got), got, len(want), want)
			}
		}
	}
}

func BenchmarkBodyToolHeavy(b *testing.B) {
	var msgs []llm.Message
	for i := range 2500 {
		id := fmt.Sprintf("call_%d", i)
		out := fmt.Sprintf(`{"stdout":%q,"stderr":"","exitCode":0,"cwd":"/src","durationMs":12,"timedOut":false}`, strings.Repeat(fmt.Sprintf("src/pkg%d/file.go:12: TODO tidy this\n", i), 60))
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("question %d: %s", i, strings.Repeat("why is the build slow? ", 8))},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "run_cmd", Arguments: fmt.Sprintf(`{"command":"grep -rn TODO src/pkg%d","description":"find the TODOs"}`, i)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "run_cmd", Text: out},
			llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d: %s", i, strings.Repeat("the cache is cold. ", 12))})
	}
	p := New(Config{Model: "m", Compatible: true})
	req := &llm.Request{System: "sys", Facts: "facts", Messages: msgs}
	b.ReportAllocs()
	for b.Loop() {
		body, err := p.newBody(req, true)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, body.reader())
	}
}
