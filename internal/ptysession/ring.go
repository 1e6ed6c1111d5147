package ptysession

// ring keeps the most recent output of a session, addressed by absolute
// byte positions counted from the session's start.
type ring struct {
	buf   []byte
	max   int
	start int64 // absolute position of buf[0]
}

func newRing(max int) *ring {
	if max < 1024 {
		max = 1024
	}
	return &ring{max: max}
}

// end is the absolute position just after the last byte written.
func (r *ring) end() int64 { return r.start + int64(len(r.buf)) }

// write appends p, dropping the oldest bytes beyond max. Bytes are dropped a
// quarter of the buffer at a time so that a chatty program does not cause a
// full copy on every write.
func (r *ring) write(p []byte) {
	if len(p) >= r.max {
		r.start += int64(len(r.buf) + len(p) - r.max)
		r.buf = append(r.buf[:0], p[len(p)-r.max:]...)
		return
	}
	if over := len(r.buf) + len(p) - r.max; over > 0 {
		drop := max(over, r.max/4)
		drop = min(drop, len(r.buf))
		n := copy(r.buf, r.buf[drop:])
		r.buf = r.buf[:n]
		r.start += int64(drop)
	}
	r.buf = append(r.buf, p...)
}

// read returns a copy of the bytes from position from to the end, and how
// many bytes after from were already dropped.
func (r *ring) read(from int64) (data []byte, lost int64) {
	if from < r.start {
		lost = r.start - from
		from = r.start
	}
	if from >= r.end() {
		return nil, lost
	}
	return append([]byte(nil), r.buf[from-r.start:]...), lost
}

// tail returns up to n of the last bytes written at or after from, without
// copying.
func (r *ring) tail(from int64, n int) []byte {
	from = max(from, r.start, r.end()-int64(n))
	if from >= r.end() {
		return nil
	}
	return r.buf[from-r.start:]
}
