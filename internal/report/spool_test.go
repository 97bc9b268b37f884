package report

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestSpool writes a small report and one past the memory threshold: both
// come back whole, the large one went to a temporary file, and neither
// leaves anything in TMPDIR.
func TestSpool(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, n := range []int{100, 3 * spoolInMemory / 64} {
		s := NewSpool()
		var want bytes.Buffer
		line := strings.Repeat("x", 63) + "\n"
		for range n {
			want.WriteString(line)
			if _, err := s.Write([]byte(line)); err != nil {
				t.Fatal(err)
			}
		}
		if big := want.Len() > spoolInMemory; big != (s.f != nil) {
			t.Errorf("%d bytes: on a temporary file %v, want %v", want.Len(), s.f != nil, big)
		}
		var got bytes.Buffer
		if err := s.CopyTo(&got); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d bytes written, %d read back", want.Len(), got.Len())
		}
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("the spool left %v", ents)
		}
	}
}

// fullFile is a temporary file on a disk that fills up: writes past room
// bytes fail, as on a full $TMPDIR.
type fullFile struct {
	*os.File
	room int
}

func (f *fullFile) Write(p []byte) (int, error) {
	if len(p) <= f.room {
		f.room -= len(p)
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:f.room])
	f.room = 0
	return n, errors.New("no space left on device")
}

// TestSpoolFullDisk (found by a review): when the temporary file stops
// taking writes part-way, the spool brings what it wrote back to memory
// and goes on there; the report comes back whole and the spool does not
// try another file.
func TestSpoolFullDisk(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s := NewSpool()
	defer s.Close()
	var want bytes.Buffer
	line := strings.Repeat("y", 99) + "\n"
	write := func(n int) {
		for range n {
			want.WriteString(line)
			if _, err := s.Write([]byte(line)); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(spoolInMemory/100 + 1) // past the threshold: on a file now
	f, ok := s.f.(*os.File)
	if !ok {
		t.Fatal("the spool did not move to a temporary file")
	}
	s.f = &fullFile{File: f, room: 3*spoolBuffer + 1234}
	write(10000)
	if s.f != nil || !s.noFile {
		t.Errorf("the spool is still on its file after the disk filled up")
	}
	write(100)
	var got bytes.Buffer
	if err := s.CopyTo(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("%d bytes written, %d read back", want.Len(), got.Len())
	}
}

// TestSpoolSection reads parts of a spool back, in memory and in its
// temporary file (with bytes not yet flushed to it), and refuses a part
// beyond its end.
func TestSpoolSection(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, n := range []int{1000, spoolInMemory + spoolBuffer/2} {
		s := NewSpool()
		want := make([]byte, n)
		for i := range want {
			want[i] = byte(i % 251)
		}
		for p := want; len(p) > 0; {
			k := min(len(p), 777)
			_, _ = s.Write(p[:k])
			p = p[k:]
		}
		if got := s.Len(); got != int64(n) {
			t.Fatalf("%d bytes: Len = %d", n, got)
		}
		if n > spoolInMemory && s.f == nil {
			t.Fatalf("%d bytes: the spool did not go to a file", n)
		}
		for _, part := range [][2]int64{{0, int64(n)}, {5, 10}, {int64(n) - 3, 3}, {int64(n), 0}} {
			r, err := s.Section(part[0], part[1])
			if err != nil {
				t.Fatalf("%d bytes: Section(%d, %d): %v", n, part[0], part[1], err)
			}
			var got bytes.Buffer
			if _, err := got.ReadFrom(r); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want[part[0]:part[0]+part[1]]) {
				t.Errorf("%d bytes: Section(%d, %d) read %d other bytes", n, part[0], part[1], got.Len())
			}
		}
		if _, err := s.Section(int64(n)-1, 2); err == nil {
			t.Errorf("%d bytes: a section past the end was read", n)
		}
		s.Close()
	}
}
