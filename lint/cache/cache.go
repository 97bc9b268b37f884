// Package cache is the on-disk store of ckptlint's result cache
// (docs/cache.md): entries addressed by a SHA-256 key, each written
// atomically (a temporary file renamed into place), checked on every read
// (format, key, length and a SHA-256 of the payload) and bounded in size,
// with the least recently used entries evicted when the directory grows
// past its bound. An entry that fails a check is ignored, never trusted:
// the directory lives on the machine that runs ckptlint (a CI runner
// restores it from actions/cache), so its bytes are input like any other.
//
// What an entry holds, and what its key covers, is the lint package's
// business (lint/cached.go); this package only stores bytes.
package cache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// EnvDir names the environment variable that sets the cache directory.
const EnvDir = "CKPTLINT_CACHE_DIR"

// MaxEntry bounds one entry's payload: a larger one is neither written nor
// read.
const MaxEntry = 64 << 20

// DefaultMaxSize bounds the directory: when a run that wrote an entry
// finds the entries larger than this, it removes the least recently used
// ones until they take at most three quarters of it.
const DefaultMaxSize = 256 << 20

// magic starts every entry; the digit is the entry format, so entries of
// another format are foreign and ignored.
var magic = [8]byte{'C', 'K', 'P', 'T', 'L', 'C', '0', '1'}

const headerSize = len(magic) + sha256.Size + 8 + sha256.Size

// touchAfter is how stale an entry's modification time may get before a
// read refreshes it (the eviction order), so a warm run does not write.
const touchAfter = time.Hour

// Key addresses an entry.
type Key [sha256.Size]byte

func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Hasher builds a Key from fields; each is length-prefixed, so two field
// lists never hash alike by their concatenation.
type Hasher struct{ b bytes.Buffer }

// NewHasher starts a key for one kind of entry.
func NewHasher(kind string) *Hasher {
	h := &Hasher{}
	h.String(kind)
	return h
}

// String adds a field.
func (h *Hasher) String(s string) *Hasher { return h.Bytes([]byte(s)) }

// Bytes adds a field.
func (h *Hasher) Bytes(b []byte) *Hasher {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.b.Write(n[:])
	h.b.Write(b)
	return h
}

// Sum is the key.
func (h *Hasher) Sum() Key { return sha256.Sum256(h.b.Bytes()) }

// DefaultDir is where the cache lives unless --cache-dir says otherwise:
// $CKPTLINT_CACHE_DIR, else ckptlint under the user cache directory
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux,
// ~/Library/Caches on macOS, %LocalAppData% on Windows).
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: %w (set %s or pass --cache-dir, or --no-cache)", err, EnvDir)
	}
	return filepath.Join(d, "ckptlint"), nil
}

// Store is a cache directory. It is safe for concurrent use, by
// goroutines and by processes sharing the directory: writes are atomic
// renames, and a reader sees a whole entry or none.
type Store struct {
	dir     string
	maxSize int64
	wrote   bool
}

// Open opens (creating it, private to the user) the cache directory dir.
// maxSize <= 0 takes DefaultMaxSize.
func Open(dir string, maxSize int64) (*Store, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cache directory: %w", err)
	}
	return &Store{dir: dir, maxSize: maxSize}, nil
}

// Dir is the directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(k Key) string {
	h := k.String()
	return filepath.Join(s.dir, h[:2], h+"-e")
}

// Get returns the payload stored under k, or false when there is none or
// it fails a check (truncated, another format, another key, a checksum
// that does not match).
func (s *Store) Get(k Key) ([]byte, bool) {
	p := s.path(k)
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < int64(headerSize) || st.Size() > int64(headerSize)+MaxEntry {
		return nil, false
	}
	// One allocation of the size the descriptor reports (checked above);
	// an entry that grew or shrank since is not the one that was stat'ed.
	b := make([]byte, st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, false
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 {
		return nil, false
	}
	payload, ok := decode(b, k)
	if !ok {
		return nil, false
	}
	if time.Since(st.ModTime()) > touchAfter {
		now := time.Now()
		_ = os.Chtimes(p, now, now) // the eviction order; a failure only evicts it sooner
	}
	return payload, true
}

// decode checks an entry's framing and returns its payload.
func decode(b []byte, k Key) ([]byte, bool) {
	if len(b) < headerSize || !bytes.Equal(b[:len(magic)], magic[:]) {
		return nil, false
	}
	b = b[len(magic):]
	if !bytes.Equal(b[:sha256.Size], k[:]) {
		return nil, false
	}
	b = b[sha256.Size:]
	n := binary.BigEndian.Uint64(b[:8])
	b = b[8:]
	sum := b[:sha256.Size]
	payload := b[sha256.Size:]
	if n > MaxEntry || uint64(len(payload)) != n {
		return nil, false
	}
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return payload, true
}

// Put stores payload under k (PutWith).
func (s *Store) Put(k Key, payload []byte) error {
	return s.PutWith(k, func(w io.Writer) error {
		_, err := w.Write(payload)
		return err
	})
}

// PutWith stores under k the payload write writes: streamed to a
// temporary file in the entry's directory (its header written last, once
// the payload's length and checksum are known), then renamed over the
// entry, so a concurrent reader sees the old entry or the new one, never a
// part. A payload over MaxEntry is refused. Streaming spares a
// multi-megabyte buffer, whose first touch of each page costs a fresh
// process more than writing it.
func (s *Store) PutWith(k Key, write func(io.Writer) error) error {
	p := s.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if _, err := tmp.Write(make([]byte, headerSize)); err != nil { // the header's place
		return fail(err)
	}
	sum := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(tmp, sum), 64<<10)
	cw := &limitWriter{w: bw, left: MaxEntry}
	if err := write(cw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	h := make([]byte, 0, headerSize)
	h = append(h, magic[:]...)
	h = append(h, k[:]...)
	h = binary.BigEndian.AppendUint64(h, uint64(MaxEntry-cw.left)) //nolint:gosec // G115: 0 <= MaxEntry-left <= MaxEntry
	h = sum.Sum(h)
	if _, err := tmp.WriteAt(h, 0); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	s.wrote = true
	return nil
}

// limitWriter passes at most left bytes on to w.
type limitWriter struct {
	w    io.Writer
	left int64
}

func (l *limitWriter) Write(b []byte) (int, error) {
	if int64(len(b)) > l.left {
		return 0, fmt.Errorf("cache entry is over the %d-byte limit", MaxEntry)
	}
	l.left -= int64(len(b))
	return l.w.Write(b)
}

// Trim evicts the least recently used entries (by modification time, which
// Get refreshes) while the entries take more than the store's bound, down
// to three quarters of it, and removes temporary files a killed process
// left behind over an hour ago. It does nothing when this Store wrote
// nothing.
func (s *Store) Trim() error {
	if !s.wrote {
		return nil
	}
	type entry struct {
		path string
		size int64
		mod  time.Time
	}
	var entries []entry
	var stale []string
	var total int64
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil //nolint:nilerr // a directory another process removed: skip it, trim the rest
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil //nolint:nilerr // an entry another process removed
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > time.Hour {
				stale = append(stale, p)
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), "-e") {
			return nil
		}
		entries = append(entries, entry{p, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	for _, p := range stale {
		_ = os.Remove(p) // a temporary file another run may have renamed meanwhile
	}
	if err != nil || total <= s.maxSize {
		return err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.Before(entries[j].mod) })
	for _, e := range entries {
		if total <= s.maxSize/4*3 {
			break
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
		}
	}
	return nil
}
