package cli

import (
	"bufio"
	"fmt"
	"strings"

	gossh "golang.org/x/crypto/ssh"
)

// askHostKey asks the user whether to trust an ssh host key nb has not
// seen. Without a terminal the key is refused: never silently accepted.
func (a *app) askHostKey(hostport string, key gossh.PublicKey) (bool, error) {
	if !a.io.InTTY {
		return false, fmt.Errorf("unknown ssh host key for %s (%s %s) and no terminal to ask; add it to known_hosts first (ssh-keyscan)", hostport, key.Type(), gossh.FingerprintSHA256(key))
	}
	if a.pauseKeys != nil {
		// Keys typed during the turn stay away from this question.
		defer a.pauseKeys()()
	}
	fmt.Fprintf(a.io.Err, "The authenticity of host %s cannot be established.\n%s key fingerprint is %s.\nTrust it and add it to known_hosts? [y/N] ", hostport, key.Type(), gossh.FingerprintSHA256(key))
	line, err := bufio.NewReader(a.io.In).ReadString('\n')
	if err != nil {
		return false, fmt.Errorf("host key prompt: %w", err)
	}
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes", nil
}
