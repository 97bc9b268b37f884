// Package cache is the on-disk store of ckptlint's result cache
// (docs/cache.md): entries addressed by a SHA-256 key, each written
// atomically (a temporary file renamed into place), checked on every read
// (format, key, length and a checksum of the payload: XXH64, or an
// HMAC-SHA256 under a secret) and bounded in size,
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
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// EnvDir names the environment variable that sets the cache directory.
const EnvDir = "CKPTLINT_CACHE_DIR"

// EnvKey names the environment variable holding the secret that
// authenticates the entries of a cache directory inside the repository
// (OpenKeyed).
const EnvKey = "CKPTLINT_CACHE_KEY"

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
	wrote   atomic.Bool // PutWith may run on several goroutines at once
	// secret, when set, authenticates every entry: its checksum is an
	// HMAC-SHA256 under secret instead of an XXH64 (OpenKeyed).
	secret []byte
}

// Open opens (creating it, private to the user) the cache directory dir.
// maxSize <= 0 takes DefaultMaxSize. A directory inside the git work tree
// of the working directory must resolve inside it (withinWorkTree).
func Open(dir string, maxSize int64) (*Store, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cache directory: %w", err)
	}
	// Checked before the directory is made, so that nothing is made
	// through a planted symlink, and after, for what making it resolved.
	if err := withinWorkTree(dir, abs); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("cache directory: %w", err)
	}
	if err := withinWorkTree(dir, abs); err != nil {
		return nil, err
	}
	return &Store{dir: abs, maxSize: maxSize}, nil
}

// OpenKeyed is Open for a cache directory whose entries others could write
// (one inside the repository being linted, where a pull request can commit
// files): each entry's checksum is an HMAC-SHA256 of its payload under
// secret, so an entry written without the secret is never used. secret
// must not come from the repository (docs/cache.md: CKPTLINT_CACHE_KEY).
func OpenKeyed(dir string, maxSize int64, secret []byte) (*Store, error) {
	s, err := Open(dir, maxSize)
	if err != nil {
		return nil, err
	}
	if len(secret) > 0 {
		s.secret = append([]byte(nil), secret...)
	}
	return s, nil
}

// InWorkTree reports whether the cache directory dir lies inside the git
// work tree of the working directory, where a pull request can commit
// files (a CI job's `--cache-dir .ckptlint-cache`); the git directory
// itself (.git/...), which no commit can write, is not.
func InWorkTree(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	cwd, err := os.Getwd()
	if err != nil {
		return false
	}
	root := inputfs.RepoRoot(cwd)
	if root == "" || inputfs.Within(abs, filepath.Join(root, ".git")) {
		return false
	}
	return inputfs.Within(abs, root) || inputfs.Within(resolveExisting(abs), resolveExisting(root))
}

// sum is the checksum of an entry's payload: an HMAC-SHA256 under the
// store's secret; without one, the 64-bit xxHash (XXH64) of the payload.
// Without a secret the checksum only catches an entry damaged on disk or
// cut short (whoever can write the directory can write a matching
// checksum of any kind: "Size, writes and trust" in docs/cache.md), and
// SHA-256 of the tens of megabytes a run of many findings reads and
// writes was a tenth of its CPU; XXH64 is about ten times as fast. The
// header keeps SHA-256's 32 bytes: checksumOf pads a shorter sum with
// zeros.
func (s *Store) sum() hash.Hash {
	if s.secret != nil {
		return hmac.New(sha256.New, s.secret)
	}
	return xxhash.New()
}

// checksumOf is h's sum as the header holds it: sha256.Size bytes.
func checksumOf(dst []byte, h hash.Hash) []byte {
	n := len(dst)
	dst = h.Sum(dst)
	for len(dst)-n < sha256.Size {
		dst = append(dst, 0)
	}
	return dst
}

// withinWorkTree checks the cache directory abs (dir as given) against the
// git work tree of the working directory: a directory lexically inside it
// must resolve, through every symlink on its path, inside it too. A CI job
// may keep the cache in the checkout (`--cache-dir .ckptlint-cache`),
// where a pull request can commit a symlink at that path or one of its
// parents to have the cache written elsewhere; the same rule keeps `fix`
// inside the repository (docs/security.md). A directory outside the work
// tree is the user's, symlinks and all (a ~/.cache on another disk).
func withinWorkTree(dir, abs string) error {
	cwd, err := os.Getwd()
	if err != nil {
		return nil //nolint:nilerr // no working directory, no work tree to stay in
	}
	root := inputfs.RepoRoot(cwd)
	if root == "" || !inputfs.Within(abs, root) {
		return nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("cache directory: %w", err)
	}
	if real := resolveExisting(abs); !inputfs.Within(real, realRoot) {
		return fmt.Errorf("cache directory %s lies inside the repository %s but resolves outside it, to %s (a symlink on its path): not used", dir, root, real)
	}
	return nil
}

// resolveExisting resolves the symlinks of the longest part of p that
// exists and appends the rest, where the directories MkdirAll would make go.
func resolveExisting(p string) string {
	rest := ""
	for q := p; ; {
		if r, err := filepath.EvalSymlinks(q); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(q)
		if parent == q {
			return p
		}
		rest = filepath.Join(filepath.Base(q), rest)
		q = parent
	}
}

// Dir is the directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(k Key) string {
	h := k.String()
	return filepath.Join(s.dir, h[:2], h+"-e")
}

// Entries are DIR/xx/<key>-e, where xx is the key's first two hex digits;
// a temporary file is DIR/xx/.tmp-<key>-<digits> (os.CreateTemp's random
// part). Trim removes nothing named otherwise (parseName), as Go's build
// cache trims only its own names in its own subdirectories
// (cmd/go/internal/cache, trimSubdir).
const (
	entrySuffix = "-e"
	tempPrefix  = ".tmp-"
)

// isSubdir reports whether name is one of the store's subdirectories: two
// lowercase hex digits.
func isSubdir(name string) bool {
	return len(name) == 2 && isHex(name)
}

func isHex(s string) bool {
	for i := range len(s) {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// parseName returns the key a file named name in subdirectory sub holds,
// and whether it is a temporary file; ok is false for any other name.
func parseName(sub, name string) (k Key, temp, ok bool) {
	hexKey := ""
	switch {
	case len(name) == 2*len(k)+len(entrySuffix) && strings.HasSuffix(name, entrySuffix):
		hexKey = name[:2*len(k)]
	case strings.HasPrefix(name, tempPrefix):
		rest := name[len(tempPrefix):]
		if len(rest) < 2*len(k)+2 || rest[2*len(k)] != '-' {
			return k, false, false
		}
		for _, c := range rest[2*len(k)+1:] {
			if c < '0' || c > '9' {
				return k, false, false
			}
		}
		hexKey, temp = rest[:2*len(k)], true
	default:
		return k, false, false
	}
	if !isHex(hexKey) || hexKey[:2] != sub {
		return k, false, false
	}
	if _, err := hex.Decode(k[:], []byte(hexKey)); err != nil {
		return k, false, false
	}
	return k, temp, true
}

// realDir reports whether p is a directory itself, not a symlink to one:
// the store neither reads nor writes through a symlink planted at one of
// its subdirectories.
func realDir(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.IsDir()
}

// Touch refreshes the eviction order of the entry under k as a read of it
// would, without reading it: for an entry a run relies on but does not
// read (lint's sets of an entry whose stored reports answered the run).
// A symlink or anything but a regular file is left alone.
func (s *Store) Touch(k Key) {
	p := s.path(k)
	if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() && time.Since(st.ModTime()) > touchAfter {
		now := time.Now()
		_ = os.Chtimes(p, now, now) // a failure only evicts it sooner
	}
}

// Get returns the payload stored under k, or false when there is none or
// it fails a check (truncated, another format, another key, a checksum
// that does not match, not a regular file: a FIFO is not waited on, a
// symlink is not followed).
func (s *Store) Get(k Key) ([]byte, bool) {
	p := s.path(k)
	if !realDir(filepath.Dir(p)) {
		return nil, false
	}
	f, st, err := inputfs.OpenRegular(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if lst, err := os.Lstat(p); err != nil || !os.SameFile(st, lst) { // a symlink: what it names is no entry of this store
		return nil, false
	}
	if st.Size() < int64(headerSize) || st.Size() > int64(headerSize)+MaxEntry {
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
	payload, ok := s.decode(b, k)
	if !ok {
		return nil, false
	}
	if time.Since(st.ModTime()) > touchAfter {
		now := time.Now()
		_ = os.Chtimes(p, now, now) // the eviction order; a failure only evicts it sooner
	}
	return payload, true
}

// decode checks an entry's framing and checksum and returns its payload.
func (s *Store) decode(b []byte, k Key) ([]byte, bool) {
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
	h := s.sum()
	h.Write(payload)
	if !hmac.Equal(checksumOf(nil, h), sum) {
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
// the payload's length and checksum are known), then put in the entry's
// place (replace: renamed over it, or the names exchanged), so a
// concurrent reader sees the old entry or the new one, never a part. A payload over MaxEntry is refused. Streaming spares a
// multi-megabyte buffer, whose first touch of each page costs a fresh
// process more than writing it.
func (s *Store) PutWith(k Key, write func(io.Writer) error) error {
	p := s.path(k)
	sub := filepath.Dir(p)
	if err := os.MkdirAll(sub, 0o700); err != nil {
		return err
	}
	if !realDir(sub) {
		return fmt.Errorf("cache subdirectory %s is not a directory (a symlink?): entry not written", sub)
	}
	tmp, err := os.CreateTemp(sub, tempPrefix+k.String()+"-*")
	if err != nil {
		return err
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	// The header's place, its magic and key written at once: a temporary
	// file a killed run leaves is then provably this store's (Trim).
	h := make([]byte, headerSize)
	copy(h, magic[:])
	copy(h[len(magic):], k[:])
	if _, err := tmp.Write(h); err != nil {
		return fail(err)
	}
	sum := s.sum()
	bw := bufio.NewWriterSize(io.MultiWriter(tmp, sum), 64<<10)
	cw := &limitWriter{w: bw, left: MaxEntry}
	if err := write(cw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	h = h[:0]
	h = append(h, magic[:]...)
	h = append(h, k[:]...)
	h = binary.BigEndian.AppendUint64(h, uint64(MaxEntry-cw.left)) //nolint:gosec // G115: 0 <= MaxEntry-left <= MaxEntry
	h = checksumOf(h, sum)
	if _, err := tmp.WriteAt(h, 0); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := replace(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	s.wrote.Store(true)
	return nil
}

// Remove removes the entry under k, when there is one that this store
// wrote (owns).
func (s *Store) Remove(k Key) error {
	p := s.path(k)
	if !realDir(filepath.Dir(p)) || !owns(p, k) {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// ErrTooLarge is the error of a PutWith whose payload passed MaxEntry.
var ErrTooLarge = fmt.Errorf("cache entry is over the %d-byte limit", MaxEntry)

// limitWriter passes at most left bytes on to w.
type limitWriter struct {
	w    io.Writer
	left int64
}

func (l *limitWriter) Write(b []byte) (int, error) {
	if int64(len(b)) > l.left {
		return 0, ErrTooLarge
	}
	l.left -= int64(len(b))
	return l.w.Write(b)
}

// Trim evicts the least recently used entries (by modification time, which
// Get refreshes) while the entries take more than the store's bound, down
// to three quarters of it, and removes temporary files a killed process
// left behind over an hour ago. It does nothing when this Store wrote
// nothing.
//
// The directory may be shared (CKPTLINT_CACHE_DIR=$HOME/.cache): Trim
// looks only in the store's subdirectories (two hex digits, not a symlink),
// and removes only a regular file named as an entry or a temporary file
// of the key its name says (parseName) whose first bytes are the magic and
// that key (owns), which only this store writes. Anything else is left
// alone, and not counted against the bound.
func (s *Store) Trim() error {
	if !s.wrote.Load() {
		return nil
	}
	type entry struct {
		path string
		key  Key
		size int64
		mod  time.Time
	}
	var entries []entry
	var total int64
	subs, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, d := range subs {
		if !d.IsDir() || !isSubdir(d.Name()) { // ReadDir's types are Lstat's: a symlink is no directory
			continue
		}
		dir := filepath.Join(s.dir, d.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue // a directory another process removed: skip it, trim the rest
		}
		for _, f := range files {
			if !f.Type().IsRegular() {
				continue
			}
			k, temp, ok := parseName(d.Name(), f.Name())
			if !ok {
				continue
			}
			info, err := f.Info()
			if err != nil {
				continue // an entry another process removed
			}
			p := filepath.Join(dir, f.Name())
			if temp {
				if time.Since(info.ModTime()) > time.Hour && owns(p, k) {
					_ = os.Remove(p) // a temporary file another run may have renamed meanwhile
				}
				continue
			}
			entries = append(entries, entry{p, k, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	if total <= s.maxSize {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.Before(entries[j].mod) })
	for _, e := range entries {
		if total <= s.maxSize/4*3 {
			break
		}
		if !owns(e.path, e.key) {
			total -= e.size // not this store's: neither removed nor counted
			continue
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
		}
	}
	return nil
}

// owns reports whether the regular file p starts with the store's magic and
// the key k, as every entry and temporary file PutWith writes does.
func owns(p string, k Key) bool {
	f, _, err := inputfs.OpenRegular(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [len(magic) + len(Key{})]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	return bytes.Equal(head[:len(magic)], magic[:]) && bytes.Equal(head[len(magic):], k[:])
}
