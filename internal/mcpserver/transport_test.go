package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// rpcPeer drives ServeStdio over pipes with raw lines.
type rpcPeer struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startStdio(t *testing.T, h *harness) *rpcPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	p := &rpcPeer{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := h.srv.ServeStdio(ctx, inR, outW)
		outW.Close()
		p.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Error("stdio server did not stop at end of input")
		}
		outR.Close()
		cancel()
	})
	return p
}

func (p *rpcPeer) send(t *testing.T, line string) map[string]any {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	return p.recv(t)
}

func (p *rpcPeer) recv(t *testing.T) map[string]any {
	t.Helper()
	type res struct {
		line string
		err  error
	}
	ch := make(chan res, 1)
	go func() { l, err := p.out.ReadString('\n'); ch <- res{l, err} }()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("read: %v", r.err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(r.line), &m); err != nil {
			t.Fatalf("server wrote non-JSON %q", r.line)
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no answer from the server")
	}
	return nil
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

func TestMalformedInputKeepsServing(t *testing.T) {
	h := newHarness(t, false)
	p := startStdio(t, h)
	m := p.send(t, `{"jsonrpc":"2.0","id":1,"method":`)
	if errCode(m) != -32700 || m["id"] != nil {
		t.Fatalf("truncated JSON: %v", m)
	}
	m = p.send(t, `hello`)
	if errCode(m) != -32700 {
		t.Fatalf("garbage: %v", m)
	}
	m = p.send(t, `[1,2]`)
	if errCode(m) != -32600 {
		t.Fatalf("batch: %v", m)
	}
	m = p.send(t, `{"jsonrpc":"2.0","id":7}`)
	if errCode(m) != -32600 || m["id"] != float64(7) {
		t.Fatalf("no method: %v", m)
	}
	m = p.send(t, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	r, _ := m["result"].(map[string]any)
	if r == nil || r["protocolVersion"] != "2025-06-18" {
		t.Fatalf("initialize after garbage: %v", m)
	}
	if _, err := io.WriteString(p.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	m = p.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`)
	if errCode(m) != -32602 || !strings.Contains(m["error"].(map[string]any)["message"].(string), "unknown tool") {
		t.Fatalf("unknown tool: %v", m)
	}
	m = p.send(t, `{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`)
	if errCode(m) != -32601 {
		t.Fatalf("unknown method: %v", m)
	}
	m = p.send(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fake_allow","arguments":{"command":"ok"}}}`)
	r, _ = m["result"].(map[string]any)
	if r == nil || !strings.Contains(toJSON(r), "ran ok") {
		t.Fatalf("call after errors: %v", m)
	}
}

func toJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestCheckLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{"127.0.0.1:0": true, "[::1]:8080": true, "localhost:1": true, "0.0.0.0:80": false, ":80": false, "192.168.1.2:1": false, "example.com:1": false, "nonsense": false} {
		if err := CheckLoopback(addr); (err == nil) != ok {
			t.Errorf("%s: %v", addr, err)
		}
	}
}

// TestCheckLoopbackSaysWhatToGive: a port alone, or an address that is not
// loopback, gets an example to copy.
func TestCheckLoopbackSaysWhatToGive(t *testing.T) {
	for addr, want := range map[string]string{
		"7777":       `listen address "7777": give a loopback host and the port, e.g. 127.0.0.1:7777`,
		":7777":      "only loopback addresses (127.0.0.1, [::1], localhost) are allowed, e.g. 127.0.0.1:7777",
		"0.0.0.0:80": "e.g. 127.0.0.1:80",
		"nonsense":   "(e.g. 127.0.0.1:7777)",
	} {
		if err := CheckLoopback(addr); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", addr, err, want)
		}
	}
}
