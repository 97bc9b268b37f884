package report

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime"
)

// spoolInMemory is how much a Spool holds in memory before it moves to a
// temporary file: a report of a few config sets never touches the disk.
const spoolInMemory = 1 << 20

// Spool holds a report until it can be written: what a streamer renders
// before the run is done (docs/output.md). Up to spoolInMemory bytes are
// kept in memory; beyond that they go to a temporary file, unlinked at
// once where the system allows it so that nothing is left behind, and
// stay in memory only when no temporary file can be made. What it holds
// is the report's own text, never read back by anything else.
type Spool struct {
	f   *os.File
	w   *bufio.Writer
	mem bytes.Buffer
}

// NewSpool returns an empty spool; Close lets go of it.
func NewSpool() *Spool { return &Spool{} }

func (s *Spool) Write(p []byte) (int, error) {
	if s.f == nil && s.mem.Len()+len(p) > spoolInMemory {
		s.toFile()
	}
	if s.f == nil {
		return s.mem.Write(p)
	}
	return s.w.Write(p)
}

// toFile moves what the spool holds to a temporary file, if one can be
// made.
func (s *Spool) toFile() {
	f, err := os.CreateTemp("", "ckptlint-report-*")
	if err != nil {
		return
	}
	if runtime.GOOS != "windows" {
		_ = os.Remove(f.Name()) // open files stay readable; nothing is left if the run dies
	}
	w := bufio.NewWriterSize(f, 64<<10)
	if _, err := w.Write(s.mem.Bytes()); err != nil {
		s.closeFile(f)
		return
	}
	s.f, s.w = f, w
	s.mem = bytes.Buffer{}
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
		s.closeFile(s.f)
		s.f, s.w = nil, nil
	}
	s.mem = bytes.Buffer{}
}

func (s *Spool) closeFile(f *os.File) {
	name := f.Name()
	_ = f.Close()
	if runtime.GOOS == "windows" {
		_ = os.Remove(name)
	}
}
