package sandbox

import "time"

// fileStat is what the index compares of a file: its identity, size and
// times (nanoseconds), and whether its file system's times can be trusted.
type fileStat struct {
	dir                     bool
	ino, size, mtime, ctime int64
	cacheable               bool
}

// racy reports a change too recent, at now, to trust the times.
func (st fileStat) racy(now time.Time) bool {
	latest := max(st.mtime, st.ctime)
	return now.UnixNano()-latest < int64(racyWindow)
}
