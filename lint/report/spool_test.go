package report

import (
	"bytes"
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
