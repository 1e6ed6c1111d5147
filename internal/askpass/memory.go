package askpass

import "sync"

// memory holds the passwords the user chose to remember for the session,
// by where they are for ("" this machine, else a fleet host). Each is a
// private copy, zeroed when forgotten.
type memory struct {
	mu sync.Mutex
	pw map[string][]byte
}

// get returns a copy of the password kept for key, or nil.
func (m *memory) get(key string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.pw[key]
	if !ok {
		return nil
	}
	return append(make([]byte, 0, len(p)+1), p...)
}

// put keeps a copy of pw for key.
func (m *memory) put(key string, pw []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pw == nil {
		m.pw = map[string][]byte{}
	}
	if old, ok := m.pw[key]; ok {
		Wipe(old)
	}
	m.pw[key] = append([]byte(nil), pw...)
}

// forget zeroes and drops the password of key.
func (m *memory) forget(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.pw[key]; ok {
		Wipe(p)
		delete(m.pw, key)
	}
}

// clear zeroes and drops every password.
func (m *memory) clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, p := range m.pw {
		Wipe(p)
		delete(m.pw, k)
	}
}

// has reports whether a password is kept for key.
func (m *memory) has(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.pw[key]
	return ok
}
