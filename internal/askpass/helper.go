package askpass

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

// MaybeHelper runs nb's askpass helper when args (nb's arguments without
// the program name) start with HelperArg: sudo runs it (through the
// script SUDO_ASKPASS names) as nb __sudo-askpass ADDRESS PROMPT and
// reads the password from its standard output. handled is false for
// every other command line. Call it first thing in main.
func MaybeHelper(args []string) (handled bool, exitCode int) {
	if len(args) == 0 || args[0] != HelperArg {
		return false, 0
	}
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "nb: the sudo password helper answers only sudo run by nb")
		return true, 1
	}
	addr, prompt := args[1], ""
	if len(args) > 2 {
		prompt = args[2]
	}
	if err := dieWithParent(); err != nil {
		fmt.Fprintln(os.Stderr, "nb: "+err.Error())
		return true, 1
	}
	v, set := os.LookupEnv("SUDO_COMMAND")
	var sudoCommand *string
	if set {
		sudoCommand = &v
	}
	if err := helper(addr, os.Getenv(EnvBridge), prompt, sudoCommand, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "nb: "+err.Error())
		return true, 1
	}
	return true, 0
}

// helper asks the bridge at addr for the password of the run token and
// writes it, with a newline, to out.
func helper(addr, token, prompt string, sudoCommand *string, out io.Writer) error {
	if token == "" || addr == "" {
		return errors.New("the sudo password helper answers only sudo run by nb")
	}
	c, err := net.DialTimeout("unix", addr, stepTimeout)
	if err != nil {
		return fmt.Errorf("cannot reach nb for the sudo password: %w", err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(stepTimeout))
	line, err := json.Marshal(request{Token: token, Prompt: prompt, SudoCommand: sudoCommand})
	if err != nil {
		return err
	}
	if _, err := c.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("cannot reach nb for the sudo password: %w", err)
	}
	var first [2]byte
	if _, err := io.ReadFull(c, first[:1]); err != nil {
		return errors.New("nb gave no answer")
	}
	switch first[0] {
	case 'N':
		return refusal(c)
	case 'R':
		if _, err := io.ReadFull(c, first[1:]); err != nil || first[1] != '\n' {
			return errors.New("nb gave no answer")
		}
	default:
		return errors.New("nb's answer is not understood")
	}
	// From here the password may be in this process: nothing else of this
	// user may read its memory.
	if err := untraceable(); err != nil {
		return fmt.Errorf("cannot protect the password: %w", err)
	}
	if _, err := io.WriteString(c, "G\n"); err != nil {
		return errors.New("nb gave no answer")
	}
	_ = c.SetDeadline(time.Time{}) // the user is typing
	var buf [MaxPassword + 2]byte  // 'P', the password, room for '\n'
	defer Wipe(buf[:])
	n, err := readAll(c, buf[:len(buf)-1])
	if err != nil {
		return err
	}
	switch {
	case n > 0 && buf[0] == 'N':
		return errors.New(string(buf[1:n]))
	case n == 0 || buf[0] != 'P':
		return errors.New("nb gave no answer")
	}
	buf[n] = '\n'
	if _, err := out.Write(buf[1 : n+1]); err != nil {
		return fmt.Errorf("cannot hand the password to sudo: %w", err)
	}
	return nil
}

// readAll reads r to its end into buf; a longer answer is an error.
func readAll(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("reading nb's answer: %w", err)
		}
	}
	var one [1]byte
	for {
		m, err := r.Read(one[:])
		if m > 0 {
			Wipe(one[:])
			return n, errors.New("nb's answer is too long")
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("reading nb's answer: %w", err)
		}
	}
}

// refusal reads why nb refused.
func refusal(r io.Reader) error {
	b, _ := io.ReadAll(io.LimitReader(r, 4096))
	if len(b) == 0 {
		return errors.New("nb refused to give the password")
	}
	return errors.New(string(b))
}
