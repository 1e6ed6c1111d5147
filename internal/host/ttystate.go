package host

// TTYState is what the foreground program of a terminal is doing with it,
// as the terminal driver and the process table tell (local terminals on
// Linux; elsewhere it cannot be told).
type TTYState struct {
	// Echo: the terminal shows typed text.
	Echo bool
	// Canonical: line mode, the program reads a whole line at a time (a
	// line editor such as readline turns it off).
	Canonical bool
	// Reading: a process of the foreground process group is blocked
	// reading the terminal.
	Reading bool
}

// SecretRead reports whether the foreground program reads a line that the
// terminal does not echo: a password read (`read -s`, getpass, sudo), the
// one thing a program turns echo off for while waiting for a line.
func (s TTYState) SecretRead() bool { return s.Reading && s.Canonical && !s.Echo }

// WaitsForInput reports whether the foreground program is blocked reading
// the terminal: what is typed next is what it waits for.
func (s TTYState) WaitsForInput() bool { return s.Reading }
