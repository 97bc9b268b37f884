package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func key(s string) Key { return NewHasher("test").String(s).Sum() }

func TestRoundTrip(t *testing.T) {
	s, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	k := key("a")
	if _, ok := s.Get(k); ok {
		t.Fatal("Get on an empty store hit")
	}
	if err := s.Put(k, []byte("findings")); err != nil {
		t.Fatal(err)
	}
	got, ok := s.Get(k)
	if !ok || string(got) != "findings" {
		t.Fatalf("Get = %q, %v; want the payload", got, ok)
	}
	if _, ok := s.Get(key("b")); ok {
		t.Fatal("Get of another key hit")
	}
	// No temporary file is left beside the entry.
	tmps, _ := filepath.Glob(filepath.Join(s.Dir(), "*", ".tmp-*"))
	if len(tmps) != 0 {
		t.Fatalf("temporary files left: %v", tmps)
	}
}

func TestHasherSeparatesFields(t *testing.T) {
	// "ab"+"c" and "a"+"bc" must not collide: fields are length-prefixed.
	a := NewHasher("k").String("ab").String("c").Sum()
	b := NewHasher("k").String("a").String("bc").Sum()
	if a == b {
		t.Fatal("Hasher concatenates fields without framing")
	}
	if NewHasher("k1").String("x").Sum() == NewHasher("k2").String("x").Sum() {
		t.Fatal("Hasher ignores its kind")
	}
}

// TestDamagedEntriesAreIgnored: the cache directory is untrusted; any entry
// that is not exactly what Put wrote for that key is a miss, never an error
// or a panic.
func TestDamagedEntriesAreIgnored(t *testing.T) {
	k := key("a")
	payload := []byte("a payload of some length")
	good := encode(k, payload)
	cases := map[string]func([]byte) []byte{
		"truncated header":  func(b []byte) []byte { return b[:headerSize-1] },
		"truncated payload": func(b []byte) []byte { return b[:len(b)-3] },
		"extra bytes":       func(b []byte) []byte { return append(b, 'x') },
		"flipped payload byte": func(b []byte) []byte {
			b[len(b)-1] ^= 1
			return b
		},
		"other magic": func(b []byte) []byte {
			b[0] = 'X'
			return b
		},
		"another key's entry": func([]byte) []byte { return encode(key("other"), payload) },
		"length over the limit": func(b []byte) []byte {
			off := len(magic) + len(k)
			for i := range 8 {
				b[off+i] = 0xff
			}
			return b
		},
		"empty": func([]byte) []byte { return nil },
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := Open(t.TempDir(), 0)
			if err != nil {
				t.Fatal(err)
			}
			p := s.path(k)
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, damage(bytes.Clone(good)), 0o600); err != nil {
				t.Fatal(err)
			}
			if got, ok := s.Get(k); ok {
				t.Fatalf("damaged entry trusted: %q", got)
			}
		})
	}
}

func TestEntryThatIsNotAFileIsAMiss(t *testing.T) {
	s, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	k := key("a")
	if err := os.MkdirAll(s.path(k), 0o700); err != nil { // a directory where the entry goes
		t.Fatal(err)
	}
	if _, ok := s.Get(k); ok {
		t.Fatal("a directory was read as an entry")
	}
	if err := s.Put(k, []byte("x")); err == nil {
		t.Fatal("Put replaced a directory")
	}
}

func TestPutRefusesOversizedPayload(t *testing.T) {
	s, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put(key("a"), make([]byte, MaxEntry+1)); err == nil {
		t.Fatal("Put stored an entry over MaxEntry")
	}
}

// TestTrimEvictsLeastRecentlyUsed: over the bound, the oldest entries go
// first, down to three quarters of it; a fresh entry stays.
func TestTrimEvictsLeastRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	const n, size = 8, 1000
	s, err := Open(dir, int64(n*(size+headerSize))/2) // room for half of them
	if err != nil {
		t.Fatal(err)
	}
	base := time.Now().Add(-48 * time.Hour)
	for i := range n {
		k := key(string(rune('a' + i)))
		if err := s.Put(k, make([]byte, size)); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(s.path(k), mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	stale := filepath.Join(dir, ".tmp-left-by-a-killed-run")
	if err := os.WriteFile(stale, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(stale, base, base); err != nil {
		t.Fatal(err)
	}
	if err := s.Trim(); err != nil {
		t.Fatal(err)
	}
	kept := 0
	for i := range n {
		_, err := os.Stat(s.path(key(string(rune('a' + i)))))
		present := err == nil
		if present {
			kept++
		}
		if i == n-1 && !present {
			t.Fatal("the most recently used entry was evicted")
		}
		if i == 0 && present {
			t.Fatal("the least recently used entry was kept")
		}
	}
	if kept == 0 || kept > n*3/8 {
		t.Fatalf("kept %d of %d entries; want at most three quarters of the bound (%d)", kept, n, n*3/8)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Fatal("a stale temporary file survived Trim")
	}
}

func TestTrimWithoutWritesDoesNothing(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := Open(dir, 0)
	if err := other.Put(key("a"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.Trim(); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(key("a")); !ok {
		t.Fatal("Trim of a store that wrote nothing evicted an entry")
	}
}

// TestPutWithFailureLeavesNothing: a payload writer that fails leaves
// the old entry (or none) and no temporary file; one streamed in pieces
// reads back whole.
func TestPutWithFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	k := key("a")
	if err := s.PutWith(k, func(w io.Writer) error {
		for _, p := range []string{"find", "in", "gs"} {
			if _, err := io.WriteString(w, p); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Get(k); !ok || string(got) != "findings" {
		t.Fatalf("Get = %q, %v; want the streamed payload", got, ok)
	}
	boom := errors.New("boom")
	if err := s.PutWith(k, func(w io.Writer) error {
		_, _ = io.WriteString(w, "half of a new")
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("PutWith = %v, want the writer's error", err)
	}
	if got, ok := s.Get(k); !ok || string(got) != "findings" {
		t.Errorf("after a failed PutWith, Get = %q, %v; want the old entry", got, ok)
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}
}

// encode frames a payload as PutWith writes it: magic, key, length, the
// SHA-256 of the payload, the payload (the tests' own statement of the
// format).
func encode(k Key, payload []byte) []byte {
	b := make([]byte, 0, headerSize+len(payload))
	b = append(b, magic[:]...)
	b = append(b, k[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(len(payload)))
	sum := sha256.Sum256(payload)
	b = append(b, sum[:]...)
	return append(b, payload...)
}
