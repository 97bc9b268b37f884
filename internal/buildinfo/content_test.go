package buildinfo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestContentIsTheGoBuildID: the running binary (this test binary, linked
// by the go command) is named by its build ID, the one `go tool buildid`
// prints.
func TestContentIsTheGoBuildID(t *testing.T) {
	got := Content()
	id, ok := strings.CutPrefix(got, "go-buildid:")
	if !ok || !goBuildID.MatchString(id) {
		t.Fatalf("Content() = %q, want the go command's build ID", got)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	if want := strings.TrimSpace(string(out)); id != want {
		t.Errorf("Content() = %q; go tool buildid says %q", id, want)
	}
}

// TestContentOf: another build ID is another name; a binary without a
// build ID of the go command's form is named by its bytes; what is not an
// executable at all is named by its bytes too, and what cannot be read by
// nothing.
func TestContentOf(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	id, ok := strings.CutPrefix(contentOf(exe), "go-buildid:")
	if !ok {
		t.Fatalf("contentOf(%s) = %q", exe, contentOf(exe))
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := []byte(id)
	other[0] ^= 'A' ^ 'B'
	if !goBuildID.Match(other) {
		other[0] = 'A'
	}
	if got := contentOf(write("other", bytes.ReplaceAll(bin, []byte(id), other))); got != "go-buildid:"+string(other) {
		t.Errorf("another build ID: contentOf = %q, want %q", got, other)
	}
	for name, b := range map[string][]byte{
		"redacted":   bytes.ReplaceAll(bin, []byte(id), []byte(strings.Repeat("x", len(id)))),
		"not an exe": []byte("#!/bin/sh\necho hello\n"),
		"empty":      nil,
	} {
		sum := sha256.Sum256(b)
		if got, want := contentOf(write(name, b)), "sha256:"+hex.EncodeToString(sum[:]); got != want {
			t.Errorf("%s: contentOf = %q, want %q", name, got, want)
		}
	}
	if got := contentOf(filepath.Join(dir, "missing")); got != "" {
		t.Errorf("a missing file: contentOf = %q, want \"\"", got)
	}
}

// TestReadRaw: the text-segment form of the build ID (Mach-O, PE), as
// cmd/link's textbuildid writes it.
func TestReadRaw(t *testing.T) {
	const id = "aaaaaaaaaaaaaaaaaaaa/bbbbbbbbbbbbbbbbbbbb/cccccccccccccccccccc/dddddddddddddddddddd"
	data := append(make([]byte, 0x600), "\xff Go build ID: \""+id+"\"\n \xff"...)
	data = append(data, make([]byte, 100)...)
	if got, err := readRaw(data); err != nil || got != id {
		t.Errorf("readRaw = %q, %v; want %q", got, err, id)
	}
	if _, err := readRaw(data[:0x610]); err == nil {
		t.Error("readRaw of a cut build ID succeeded")
	}
}

// BenchmarkContentOf: what naming the binary costs a run, by its build ID
// and (redacted) by its bytes (docs/cache.md).
func BenchmarkContentOf(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	bin, err := os.ReadFile(exe)
	if err != nil {
		b.Fatal(err)
	}
	id, _ := strings.CutPrefix(contentOf(exe), "go-buildid:")
	redacted := filepath.Join(b.TempDir(), "redacted")
	if err := os.WriteFile(redacted, bytes.ReplaceAll(bin, []byte(id), []byte(strings.Repeat("x", len(id)))), 0o600); err != nil {
		b.Fatal(err)
	}
	for name, p := range map[string]string{"buildid": exe, "sha256": redacted} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(bin)))
			for b.Loop() {
				contentOf(p)
			}
		})
	}
}
