package report

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime"
)

// Spool holds a report until it can be written: what a streamer writes
// before it can write what comes first (the totals on JUnit's root
// element), or a report for standard output, written there only once
// the run is done (docs/output.md). It is a temporary file, unlinked
// at once where the system allows it so that nothing is left behind, or
// memory when no temporary file can be made. What it holds is the
// report's own text, never read back by anything else.
type Spool struct {
	f   *os.File
	w   *bufio.Writer
	mem bytes.Buffer
}

// NewSpool returns an empty spool; Close lets go of it.
func NewSpool() *Spool {
	s := &Spool{}
	if f, err := os.CreateTemp("", "ckptlint-report-*"); err == nil {
		if runtime.GOOS != "windows" {
			_ = os.Remove(f.Name()) // open files stay readable; nothing is left if the run dies
		}
		s.f, s.w = f, bufio.NewWriterSize(f, 64<<10)
	}
	return s
}

func (s *Spool) Write(p []byte) (int, error) {
	if s.f == nil {
		return s.mem.Write(p)
	}
	return s.w.Write(p)
}

// CopyTo writes what the spool holds to w.
func (s *Spool) CopyTo(w io.Writer) error {
	if s.f == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	if err := s.w.Flush(); err != nil {
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.f)
	return err
}

// Close lets go of the spool.
func (s *Spool) Close() {
	if s.f != nil {
		name := s.f.Name()
		_ = s.f.Close()
		if runtime.GOOS == "windows" {
			_ = os.Remove(name)
		}
		s.f = nil
	}
	s.mem = bytes.Buffer{}
}
