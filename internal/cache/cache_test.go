package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
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
	// A Put over the entry replaces it (on Linux the names are exchanged
	// and the old entry removed: replace_linux.go).
	if err := s.Put(k, []byte("findings, again")); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Get(k); !ok || string(got) != "findings, again" {
		t.Fatalf("Get after a second Put = %q, %v; want the new payload", got, ok)
	}
	// No temporary file (nor the old entry under one) is left beside it.
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
	write := func(t *testing.T, b []byte) *Store {
		t.Helper()
		s, err := Open(t.TempDir(), 0)
		if err != nil {
			t.Fatal(err)
		}
		p := s.path(k)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// The entry undamaged is a hit: each damaged one below is refused
	// for its damage, not for a framing the test got wrong.
	if got, ok := write(t, bytes.Clone(good)).Get(k); !ok || !bytes.Equal(got, payload) {
		t.Fatalf("the undamaged entry: %q, %v", got, ok)
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			if got, ok := write(t, damage(bytes.Clone(good))).Get(k); ok {
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
	// A temporary file a killed run left: its header's magic and key are
	// written first (TestTrimDeletesOnlyItsOwn).
	k0 := key("a")
	stale := filepath.Join(dir, k0.String()[:2], ".tmp-"+k0.String()+"-42")
	if err := os.WriteFile(stale, encode(k0, nil)[:len(magic)+len(k0)], 0o600); err != nil {
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

// encode frames a payload as PutWith writes it without a secret: magic,
// key, length, the XXH64 of the payload big-endian and padded with zeros
// to 32 bytes, the payload (the tests' own statement of the format).
func encode(k Key, payload []byte) []byte {
	b := make([]byte, 0, headerSize+len(payload))
	b = append(b, magic[:]...)
	b = append(b, k[:]...)
	b = binary.BigEndian.AppendUint64(b, uint64(len(payload)))
	b = binary.BigEndian.AppendUint64(b, xxhash.Sum64(payload))
	b = append(b, make([]byte, 24)...)
	return append(b, payload...)
}

// TestTrimDeletesOnlyItsOwn: a cache directory may be shared
// (CKPTLINT_CACHE_DIR=$HOME/.cache, /tmp): Trim removes only what it can
// prove it wrote — files named as its entries (or its temporary files) in
// its two-hex-digit subdirectories whose header carries its magic and the
// key their name says — however old the others are and however far over
// the bound the directory is (issue 25: it removed every `.tmp-*` older
// than an hour and every file named `*-e`, anywhere below the directory).
func TestTrimDeletesOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 1) // every entry is over the bound
	if err != nil {
		t.Fatal(err)
	}
	k := key("a")
	h := k.String()
	old := time.Now().Add(-48 * time.Hour)
	foreign := map[string][]byte{
		".tmp-abc":                   []byte("another tool's temporary file"),
		"other-tool/.tmp-x":          []byte("x"),
		"other-tool/big-e":           make([]byte, 4096),
		"notes-e":                    []byte("a user's file"),
		"zz/data-e":                  []byte("not a hex directory"),
		h[:2] + "/readme-e":          []byte("not an entry name"),
		h[:2] + "/" + h + "-e.bak":   []byte("not an entry name"),
		h[:2] + "/.tmp-" + h + "-1x": []byte("not a temporary name"),
		// Named exactly as an entry and as a temporary file of this
		// store, but not written by it: no magic, or another key's.
		key("b").String()[:2] + "/" + key("b").String() + "-e":       make([]byte, 100),
		key("c").String()[:2] + "/" + key("c").String() + "-e":       encode(key("d"), []byte("x")),
		key("c").String()[:2] + "/.tmp-" + key("c").String() + "-12": make([]byte, headerSize),
	}
	for name, b := range foreign {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	// One stale temporary file of this store's (a killed PutWith leaves
	// its header's magic and key), and an old entry of its own.
	stale := filepath.Join(dir, h[:2], ".tmp-"+h+"-123")
	if err := os.WriteFile(stale, encode(k, nil)[:len(magic)+len(k)], 0o600); err != nil {
		t.Fatal(err)
	}
	own := key("own")
	if err := s.Put(own, []byte("old findings")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{stale, s.path(own)} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Put(k, []byte("findings")); err != nil {
		t.Fatal(err)
	}
	if err := s.Trim(); err != nil {
		t.Fatal(err)
	}
	for name, b := range foreign {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("Trim removed or changed %s, which it did not write (%v)", name, err)
		}
	}
	for _, p := range []string{stale, s.path(own)} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("Trim kept %s, its own and old", p)
		}
	}
}

// TestEntryPathNotARegularFile: a FIFO at an entry's path is a miss at
// once (it was opened blocking, and the run hung until a writer came), and
// so is a symlink, even to a valid entry: it is not followed to read, and
// Get's refresh of the eviction order does not touch the file it points at.
func TestEntryPathNotARegularFile(t *testing.T) {
	s, err := Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	k := key("a")
	p := s.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(p); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	done := make(chan bool)
	go func() {
		_, ok := s.Get(k)
		done <- ok
	}()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("a FIFO was read as an entry")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Get blocked on a FIFO at the entry's path")
	}
	if err := s.Put(k, []byte("x")); err != nil {
		t.Fatalf("Put over a FIFO: %v", err)
	}

	// A symlink to a valid entry outside the cache.
	outside := filepath.Join(t.TempDir(), "entry")
	if err := os.WriteFile(outside, encode(k, []byte("planted")), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
	if err := os.Chtimes(outside, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, p); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Get(k); ok {
		t.Errorf("Get followed a symlink at the entry's path: %q", got)
	}
	if st, err := os.Stat(outside); err != nil || !st.ModTime().Equal(old) {
		t.Errorf("the symlink's target was touched: %v, %v", st.ModTime(), err)
	}
	// Put replaces the link, never writes through it.
	if err := s.Put(k, []byte("mine")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); !bytes.Equal(b, encode(k, []byte("planted"))) {
		t.Error("Put wrote through a symlink at the entry's path")
	}
	if got, ok := s.Get(k); !ok || string(got) != "mine" {
		t.Errorf("Get = %q, %v; want the entry Put wrote", got, ok)
	}
}

// TestSubdirectorySymlinkNotFollowed: a symlink planted at one of the
// store's subdirectories (DIR/ab) is not followed to write entries, or
// temporary files, into the directory it names.
func TestSubdirectorySymlinkNotFollowed(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	k := key("a")
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Dir(s.path(k))); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(k, []byte("x")); err == nil {
		t.Error("Put through a symlinked subdirectory succeeded")
	}
	if names, _ := os.ReadDir(outside); len(names) != 0 {
		t.Errorf("Put wrote %d file(s) through a symlinked subdirectory", len(names))
	}
	// Nor read through it.
	if err := os.WriteFile(filepath.Join(outside, filepath.Base(s.path(k))), encode(k, []byte("planted")), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Get(k); ok {
		t.Errorf("Get read through a symlinked subdirectory: %q", got)
	}
}

// TestOpenRefusesSymlinkOutOfTheWorkTree: a cache directory inside the git
// work tree of the working directory (`--cache-dir .ckptlint-cache` in a
// CI job, where the pull request's checkout can plant a symlink at that
// path or at one of its parents) must resolve inside that work tree.
func TestOpenRefusesSymlinkOutOfTheWorkTree(t *testing.T) {
	repo := t.TempDir()
	outside := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{".ckptlint-cache", ".cache"} {
		if err := os.Symlink(outside, filepath.Join(repo, l)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(repo, "real"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(repo, "inside")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	for _, d := range []string{".ckptlint-cache", ".cache/ckptlint", filepath.Join(repo, ".cache", "a", "b")} {
		if _, err := Open(d, 0); err == nil || !strings.Contains(err.Error(), "outside") {
			t.Errorf("Open(%s) = %v; want it refused as resolving outside the repository", d, err)
		}
	}
	if names, _ := os.ReadDir(outside); len(names) != 0 {
		t.Errorf("Open made %d file(s) outside the repository", len(names))
	}
	// A symlink that stays inside is a directory like any other; so is one
	// outside the work tree (the user's own ~/.cache on another disk).
	if _, err := Open("inside/cache", 0); err != nil {
		t.Errorf("Open through a symlink inside the repository: %v", err)
	}
	elsewhere := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(outside, elsewhere); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(elsewhere, "ckptlint"), 0); err != nil {
		t.Errorf("Open through a symlink outside any work tree: %v", err)
	}
}

// TestKeyedStoreRefusesForeignEntries: a store opened with a secret
// (OpenKeyed: a cache directory inside the repository) reads only entries
// written under that secret; one a pull request committed, however well
// framed, is a miss (issue 25: a committed entry that reports nothing
// would pass the gate).
func TestKeyedStoreRefusesForeignEntries(t *testing.T) {
	dir := t.TempDir()
	k := NewHasher("test").String("entry").Sum()
	plain, err := Open(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.Put(k, []byte("forged: no findings")); err != nil {
		t.Fatal(err)
	}
	keyed, err := OpenKeyed(dir, 0, []byte("secret A"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := keyed.Get(k); ok {
		t.Fatal("an entry written without the secret was read")
	}
	if err := keyed.Put(k, []byte("real")); err != nil {
		t.Fatal(err)
	}
	if b, ok := keyed.Get(k); !ok || string(b) != "real" {
		t.Fatalf("the keyed entry does not read back: %q %v", b, ok)
	}
	other, _ := OpenKeyed(dir, 0, []byte("secret B"))
	if _, ok := other.Get(k); ok {
		t.Error("an entry written under another secret was read")
	}
	if _, ok := plain.Get(k); ok {
		t.Error("a keyed entry was read without the secret")
	}
}
