// Package regular opens files for reading only when they are regular
// files, without ever blocking: a FIFO, socket or device named where a file
// is expected (/insert, the MCP file tools, the history) gets a clear error
// instead of a read that never ends or never starts.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the error for anything but a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by ReadFile's error for a file over its limit.
var ErrTooLarge = errors.New("file too large")

// Open opens path for reading when it is a regular file (after symlinks).
// Opening does not wait for a FIFO's writer; the kind of anything else is
// named in the error, which wraps ErrNotRegular. A directory's error wraps
// ErrNotRegular too.
func Open(path string) (*os.File, error) {
	return open(path, func() (*os.File, error) { return os.OpenFile(path, os.O_RDONLY|nonBlock, 0) }, func() (fs.FileInfo, error) { return os.Stat(path) })
}

// OpenIn is Open for name inside root: the kernel resolves name beneath
// root, so neither "..", nor a symlink, nor a directory swapped for a
// symlink while it is opened can take it out of root.
func OpenIn(root *os.Root, name string) (*os.File, error) {
	return open(name, func() (*os.File, error) { return root.OpenFile(name, os.O_RDONLY|nonBlock, 0) }, func() (fs.FileInfo, error) { return root.Stat(name) })
}

func open(path string, openFile func() (*os.File, error), stat func() (fs.FileInfo, error)) (*os.File, error) {
	f, err := openFile()
	if err != nil {
		// Sockets cannot be opened at all (ENXIO): name them too.
		if fi, serr := stat(); serr == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is %s: %w", path, Kind(fi.Mode()), ErrNotRegular)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is %s: %w", path, Kind(fi.Mode()), ErrNotRegular)
	}
	if err := setBlocking(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file path, at most max bytes: a longer file
// (or one that grows past max, or a /proc file that never ends) is an
// error wrapping ErrTooLarge.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if fi, err := f.Stat(); err == nil {
		if fi.Size() > max {
			return nil, fmt.Errorf("%s is %d bytes, over the limit of %d: %w", path, fi.Size(), max, ErrTooLarge)
		}
		size = fi.Size()
	}
	// One buffer of the file's size (and a byte to see it end) instead of
	// a doubling one: a long history is read without copies.
	data := make([]byte, 0, size+1)
	r := io.LimitReader(f, max+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // the file grew
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is over the limit of %d bytes: %w", path, max, ErrTooLarge)
	}
	return data, nil
}

// Kind names the type of file mode m for a message: "a directory", "a
// FIFO (named pipe)", "a socket", "a device", "a regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}
