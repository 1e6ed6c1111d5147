package askpass

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// The bridge's protocol, over one connection per password request:
//
//	helper → nb   one JSON line: request
//	nb → helper   "R\n" (ready) or "N" reason (refused, then closed)
//	helper → nb   "G\n" once it made itself untraceable
//	nb → helper   "P" password, or "N" reason; then closed
//
// The peer is checked before "R", while the helper can still be read
// through /proc.
type request struct {
	Token  string `json:"token"`
	Prompt string `json:"prompt"`
	// SudoCommand is the helper's SUDO_COMMAND (nil: not set).
	SudoCommand *string `json:"sudoCommand"`
}

// Limits of the protocol.
const (
	maxRequest = 16 << 10
	// stepTimeout bounds each exchange that is not the user typing.
	stepTimeout = 10 * time.Second
)

// serve accepts the helpers' connections until the listener closes.
func (s *Sudo) serve(ln net.Listener) {
	defer s.conns.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		s.conns.Add(1)
		go func() {
			defer s.conns.Done()
			defer c.Close()
			s.handle(c)
		}()
	}
}

// handle answers one request.
func (s *Sudo) handle(c net.Conn) {
	_ = c.SetDeadline(time.Now().Add(stepTimeout))
	sudoPid, perr := peer(c)
	br := bufio.NewReader(io.LimitReader(c, maxRequest))
	line, err := br.ReadBytes('\n')
	if err != nil {
		return
	}
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		refuse(c, "bad request")
		return
	}
	s.mu.Lock()
	r := s.runs[req.Token]
	s.mu.Unlock()
	if r == nil {
		refuse(c, "no command of this nb is waiting for sudo's password")
		return
	}
	if perr == nil {
		perr = s.sameSudoCommand(req.SudoCommand)
	}
	if perr != nil {
		r.mu.Lock()
		r.out.Refused = append(r.out.Refused, perr.Error())
		r.mu.Unlock()
		refuse(c, perr.Error())
		return
	}
	if _, err := io.WriteString(c, "R\n"); err != nil {
		return
	}
	if g, err := br.ReadString('\n'); err != nil || g != "G\n" {
		return
	}
	// The user may take their time; the question is withdrawn when the
	// helper goes (its sudo was killed: the helper dies with it).
	_ = c.SetDeadline(time.Time{})
	ctx, cancel := context.WithCancel(r.ctx)
	defer cancel()
	s.conns.Add(1)
	go func() {
		defer s.conns.Done()
		var b [1]byte
		_, _ = br.Read(b[:]) // the helper says nothing more: this ends when it closes
		cancel()
	}()
	pw, err := s.answer(ctx, r, req.Prompt, sudoPid)
	if err != nil {
		refuse(c, reason(err))
		return
	}
	msg := make([]byte, 0, len(pw)+1)
	msg = append(append(msg, 'P'), pw...)
	Wipe(pw)
	_ = c.SetDeadline(time.Now().Add(stepTimeout))
	_, _ = c.Write(msg)
	Wipe(msg)
}

// sameSudoCommand checks that the helper has the SUDO_COMMAND nb has:
// sudo's askpass program inherits nb's environment, while a command sudo
// runs (sudo -u "$USER" nb __sudo-askpass) is given its own.
func (s *Sudo) sameSudoCommand(v *string) error {
	switch {
	case v == nil && s.sudoCommand == nil:
		return nil
	case v != nil && s.sudoCommand != nil && *v == *s.sudoCommand:
		return nil
	}
	return errors.New("the helper runs as a command of sudo, not as its askpass program")
}

// reason is what the helper prints when nb gives no password.
func reason(err error) string {
	if errors.Is(err, ErrNoTerminal) {
		return NoTerminalAdvice
	}
	return err.Error()
}

func refuse(c net.Conn, why string) {
	_, _ = fmt.Fprintf(c, "N%s", why)
}
