package askpass

import "context"

// Passwords are the sudo passwords of one fleet run, by host. Wipe them
// once the run ended.
type Passwords struct {
	s  *Sudo
	pw map[string][]byte
}

// For is the password for host (nil: none).
func (p *Passwords) For(host string) []byte {
	if p == nil {
		return nil
	}
	return p.pw[host]
}

// Refused says sudo on host did not accept its password: a remembered
// one is forgotten, so the next run asks again.
func (p *Passwords) Refused(host string) {
	if p != nil {
		p.s.mem.forget(hostKey(host))
	}
}

// Wipe zeroes every password.
func (p *Passwords) Wipe() {
	if p == nil {
		return
	}
	for h, pw := range p.pw {
		Wipe(pw)
		delete(p.pw, h)
	}
}

// hostKey is the memory's key for a fleet host.
func hostKey(host string) string { return "host " + host }

// Passwords finds the sudo password of each of hosts (those whose sudo
// needs one) for command: the remembered ones, and for the others the
// user's answer, once for all of them or, at the user's choice, one per
// host (an empty answer there is the previous host's password).
func (s *Sudo) Passwords(ctx context.Context, command string, hosts []string) (*Passwords, error) {
	if s == nil {
		return nil, ErrNoTerminal
	}
	p := &Passwords{s: s, pw: map[string][]byte{}}
	var ask []string
	for _, h := range hosts {
		if pw := s.mem.get(hostKey(h)); pw != nil {
			p.pw[h] = pw
		} else {
			ask = append(ask, h)
		}
	}
	if len(ask) == 0 {
		return p, nil
	}
	ans, err := s.ask(ctx, Question{Command: command, Hosts: ask, PerHost: len(ask) > 1})
	if err != nil {
		p.Wipe()
		return nil, err
	}
	if !ans.PerHost {
		for _, h := range ask {
			p.pw[h] = append([]byte(nil), ans.Password...)
			if ans.Remember {
				s.mem.put(hostKey(h), ans.Password)
			}
		}
		Wipe(ans.Password)
		return p, nil
	}
	var prev []byte
	for i, h := range ask {
		a, err := s.ask(ctx, Question{Command: command, Hosts: []string{h}, Previous: i > 0})
		if err != nil {
			p.Wipe()
			return nil, err
		}
		pw := a.Password
		if len(pw) == 0 && prev != nil {
			pw = append([]byte(nil), prev...)
		}
		p.pw[h], prev = pw, pw
		if a.Remember || ans.Remember {
			s.mem.put(hostKey(h), pw)
		}
	}
	return p, nil
}
