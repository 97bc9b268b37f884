package report

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
)

const (
	// spoolInMemory is how much a Spool holds in memory before it moves
	// to a temporary file: a report of a few config sets never touches
	// the disk.
	spoolInMemory = 1 << 20
	// spoolBuffer is how much it gathers before a write to the file.
	spoolBuffer = 64 << 10
)

// Spool holds a report until it can be written: what a streamer renders
// before the run is done (docs/output.md). Up to spoolInMemory bytes are
// kept in memory; beyond that they go to a temporary file, unlinked at
// once where the system allows it (not on Windows) so that nothing is
// left behind. When no temporary file can be made, or writing to it fails
// (a full $TMPDIR), the spool holds everything in memory instead: a
// report is never lost to its spool. What it holds is the report's own
// text, never read back by anything else.
type Spool struct {
	f       spoolFile
	written int64  // bytes on f
	buf     []byte // bytes for f not yet written to it
	mem     bytes.Buffer
	noFile  bool // memory only: no temporary file could be made or written
}

// spoolFile is the temporary file a Spool writes to (an *os.File; a test
// puts in one whose writes fail).
type spoolFile interface {
	io.Writer
	io.ReaderAt
	Close() error
	Name() string
}

// NewSpool returns an empty spool; Close lets go of it.
func NewSpool() *Spool { return &Spool{} }

// Write never fails.
func (s *Spool) Write(p []byte) (int, error) {
	if s.f == nil && !s.noFile && s.mem.Len()+len(p) > spoolInMemory {
		s.toFile()
	}
	if s.f == nil {
		return s.mem.Write(p)
	}
	s.buf = append(s.buf, p...)
	if len(s.buf) >= spoolBuffer {
		s.flush()
	}
	return len(p), nil
}

// toFile moves what the spool holds to a temporary file, if one can be
// made.
func (s *Spool) toFile() {
	f, err := os.CreateTemp("", "ckptlint-report-*")
	if err != nil {
		s.noFile = true
		return
	}
	if runtime.GOOS != "windows" {
		_ = os.Remove(f.Name()) // open files stay readable; nothing is left if the run dies
	}
	s.f, s.buf = f, append(make([]byte, 0, spoolBuffer), s.mem.Bytes()...)
	s.mem = bytes.Buffer{}
	s.flush()
}

// flush writes the buffer to the file; when that fails, everything comes
// back to memory and stays there.
func (s *Spool) flush() {
	n, err := s.f.Write(s.buf)
	s.written += int64(n)
	if err == nil {
		s.buf = s.buf[:0]
		return
	}
	s.buf = s.buf[n:]
	back := make([]byte, s.written, s.written+int64(len(s.buf)))
	if _, rerr := s.f.ReadAt(back, 0); rerr != nil && !errors.Is(rerr, io.EOF) {
		// The file can be neither written nor read: what it held is lost,
		// which a report must not be. Keep trying to write it at the end.
		return
	}
	s.mem = *bytes.NewBuffer(append(back, s.buf...))
	s.closeFile()
	s.buf, s.written, s.noFile = nil, 0, true
}

// CopyTo writes what the spool holds to w.
func (s *Spool) CopyTo(w io.Writer) error {
	if s.f == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	if len(s.buf) > 0 {
		s.flush()
		if s.f == nil { // it came back to memory
			_, err := w.Write(s.mem.Bytes())
			return err
		}
		if len(s.buf) > 0 {
			return io.ErrShortWrite
		}
	}
	if _, err := io.Copy(w, io.NewSectionReader(s.f, 0, s.written)); err != nil {
		return err
	}
	return nil
}

// Close lets go of the spool.
func (s *Spool) Close() {
	s.closeFile()
	s.buf, s.written = nil, 0
	s.mem = bytes.Buffer{}
}

func (s *Spool) closeFile() {
	if s.f == nil {
		return
	}
	name := s.f.Name()
	_ = s.f.Close()
	if runtime.GOOS == "windows" {
		_ = os.Remove(name)
	}
	s.f = nil
}

// Len is the number of bytes the spool holds.
func (s *Spool) Len() int64 {
	if s.f == nil {
		return int64(s.mem.Len())
	}
	return s.written + int64(len(s.buf))
}

// Section returns a reader of the n bytes the spool holds from off, for a
// streamer that reads back parts of what it spooled (SARIF's runs of
// results, merged at Close). Nothing may be written to the spool while the
// reader is in use.
func (s *Spool) Section(off, n int64) (io.Reader, error) {
	if off < 0 || n < 0 || off+n > s.Len() {
		return nil, errors.New("spool: section out of range")
	}
	if s.f != nil && len(s.buf) > 0 {
		s.flush()
		if s.f != nil && len(s.buf) > 0 {
			return nil, io.ErrShortWrite
		}
	}
	if s.f == nil {
		return bytes.NewReader(s.mem.Bytes()[off : off+n]), nil
	}
	return io.NewSectionReader(s.f, off, n), nil
}
