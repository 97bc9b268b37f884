// Package inputfs is how ckptlint opens the files it lints. Files come from
// untrusted pull requests, so every read goes through three checks:
//
//   - a Boundary: a path is resolved once (symlinks included) and read only
//     when it lies inside one of the roots — the repository of a path the
//     user named, or a file or directory the user named explicitly;
//   - ReadRegular: only regular files are read, opened non-blocking and
//     checked on the open descriptor, so a FIFO, a device or a directory
//     named like a configuration file never blocks the run;
//   - a Budget: the total number of bytes one run reads is capped.
//
// docs/security.md documents the threat model and every limit.
package inputfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Limits. A file larger than MaxFileSize is parsed.MaxFileSize's business
// (the parsers refuse it too); the others bound one run.
const (
	// MaxRunInput caps the bytes one run reads across every file and
	// xi:include: past it, files are reported as unread (exit 2).
	MaxRunInput = 64 << 20
)

// NotRegularError is returned for a path that exists but is not a regular
// file.
type NotRegularError struct {
	Path string
	Kind string // "a named pipe (FIFO)", "a directory", ...
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; not read", e.Path, e.Kind)
}

// OutsideError is returned for a path that resolves outside every root.
type OutsideError struct {
	Path     string // as given
	Resolved string // after symlinks
	Roots    []string
}

func (e *OutsideError) Error() string {
	via := ""
	if e.Resolved != e.Path {
		via = fmt.Sprintf(" (it resolves to %s)", e.Resolved)
	}
	return fmt.Sprintf("%s lies outside the repository%s; ckptlint reads only files inside %s or named on the command line or in .ckptlint.hcl",
		e.Path, via, strings.Join(e.Roots, ", "))
}

// TooLargeError is returned for a regular file over the size limit.
type TooLargeError struct {
	Path  string
	Size  int64
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is %d bytes; ckptlint reads configuration files up to %d bytes", e.Size, e.Limit)
}

// BudgetError is returned once a run has read its MaxRunInput bytes.
type BudgetError struct {
	Limit int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("not read: this run already read its input budget of %d MiB; lint fewer paths per run", e.Limit>>20)
}

// KindOf names a non-regular file mode.
func KindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "not a regular file"
}

// CheckRegular returns a *NotRegularError when st is not a regular file.
func CheckRegular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: path, Kind: KindOf(st.Mode())}
}

// ReadRegular reads path when it is a regular file of at most limit bytes.
// It opens the file non-blocking (a FIFO then never blocks the open), checks
// the open descriptor's type and size, and reads at most limit+1 bytes, so
// a file growing while it is read is refused too.
func ReadRegular(path string, limit int64) ([]byte, error) {
	b, _, err := ReadRegularInfo(path, limit)
	return b, err
}

// ReadRegularInfo is ReadRegular that also returns the open descriptor's
// file information (taken before reading; nil when the open failed), for
// the result cache's stat signatures (Observer.Read).
func ReadRegularInfo(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	return readOpen(f, path, limit)
}

// OpenRegular opens path for reading when it is a regular file (a symlink
// is followed): non-blocking, so a FIFO with no writer never blocks the
// open, and with the type checked on the open descriptor, so nothing
// swapped in between a check and the open is read. It returns the
// descriptor's file information, also with a *NotRegularError (nil when
// the open failed). The result cache (internal/cache) and the user policy
// loader (internal/engine), whose directories may hold FIFOs too, open their
// files through it.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := CheckRegular(path, st); err != nil {
		f.Close()
		return nil, st, err
	}
	return f, st, nil
}

// readOpen is ReadRegularInfo on the open file f (named path), which it
// closes.
func readOpen(f *os.File, path string, limit int64) ([]byte, fs.FileInfo, error) {
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if err := CheckRegular(path, st); err != nil {
		return nil, st, err
	}
	if st.Size() > limit {
		return nil, st, &TooLargeError{Path: path, Size: st.Size(), Limit: limit}
	}
	// Sized by the descriptor (as os.ReadFile does): io.ReadAll's doubling
	// left about half of every buffer spare, and every file read stays in
	// memory until its config set is evaluated.
	b := make([]byte, 0, st.Size()+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew since the Stat
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, st, &TooLargeError{Path: path, Size: int64(len(b)), Limit: limit}
		}
		if errors.Is(err, io.EOF) {
			return b, st, nil
		}
		if err != nil {
			return nil, st, err
		}
	}
}

// ReadRegularInfo is ReadRegularInfo (the package function) for a path
// Check returned: the real path is opened relative to a handle on the root
// that holds it (os.Root, opened once per root), never by its name from
// the file system's root. Check resolves the path and a read opens it
// later; a directory on the way swapped for a symlink in between would
// lead a plain open out of the repository (issue 25: a lint printed an
// outside value in 7 of 150 runs). os.Root opens each element below the
// handle with O_NOFOLLOW and follows a symlink only when it stays below
// the root, so such a read fails instead, as an *OutsideError when the path
// resolves outside now. A nil Boundary reads real as the package function
// does.
func (b *Boundary) ReadRegularInfo(real string, limit int64) ([]byte, fs.FileInfo, error) {
	if b == nil {
		return ReadRegularInfo(real, limit)
	}
	h, rel, err := b.handle(real)
	if err != nil {
		return nil, nil, err
	}
	src, st, err := b.fsys().ReadFileIn(h, rel, real, limit)
	if err != nil && st == nil {
		if now, rerr := filepath.EvalSymlinks(real); rerr == nil && now != real {
			// The path resolves elsewhere than Check found: a directory on
			// the way was swapped since.
			if !slices.ContainsFunc(b.roots, func(r string) bool { return b.holds(now, r) }) {
				return nil, nil, &OutsideError{Path: real, Resolved: now, Roots: b.Roots()}
			}
		}
	}
	return src, st, err
}

// handle returns the open root holding real (the outermost, as Check
// allows any) and real relative to it.
func (b *Boundary) handle(real string) (*Root, string, error) {
	root := ""
	for _, r := range b.roots {
		if b.holds(real, r) && (root == "" || len(r) < len(root)) {
			root = r
		}
	}
	if root == "" {
		return nil, "", &OutsideError{Path: real, Resolved: real, Roots: b.Roots()}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	h := b.open[root]
	if h == nil {
		dir := root
		if b.file[root] {
			// A file named on its own (AddNamed): the handle is on its
			// directory, and only the file itself is opened below it.
			dir = filepath.Dir(root)
		}
		var err error
		if h, err = openRoot(dir); err != nil {
			return nil, "", err
		}
		if b.open == nil {
			b.open = map[string]*Root{}
		}
		b.open[root] = h
	}
	rel, err := filepath.Rel(h.dir, real)
	if err != nil {
		return nil, "", err
	}
	return h, rel, nil
}

// Budget counts the bytes a run reads. The zero value has no limit; use
// NewBudget. It is safe for concurrent use.
type Budget struct {
	mu    sync.Mutex
	limit int64
	used  int64
}

// NewBudget returns a budget of limit bytes.
func NewBudget(limit int64) *Budget { return &Budget{limit: limit} }

// Take reserves n bytes, or returns a *BudgetError when they do not fit.
// A nil Budget has no limit.
func (b *Budget) Take(n int64) error {
	if b == nil || b.limit <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return &BudgetError{Limit: b.limit}
	}
	b.used += n
	return nil
}

// Boundary is the set of places a run may read, resolved and read through
// the run's FS. A nil Boundary allows everything (library callers that lint
// trusted trees); an empty one allows nothing.
type Boundary struct {
	fs    FS
	roots []string // real (symlink-free) absolute paths
	lex   []string // the roots as given (absolute, clean) and real
	// open holds a handle on each root a read went below
	// (Boundary.ReadRegularInfo), by root.
	mu   sync.Mutex
	open map[string]*Root
	// file marks the roots (real and as given) that are files named on
	// their own (AddNamed), as they were when named.
	file map[string]bool
}

// NewBoundary returns an empty Boundary that resolves and reads paths
// through fsys.
func NewBoundary(fsys FS) *Boundary { return &Boundary{fs: fsys} }

// defaultFS serves the zero Boundary.
var defaultFS = OS()

// fsys is the file system b resolves and reads paths through.
func (b *Boundary) fsys() FS {
	if b.fs == nil {
		return defaultFS
	}
	return b.fs
}

// RepoRoot is the nearest directory at or above dir holding .git — a
// directory, or a file starting "gitdir:" as git writes for worktrees and
// submodules (gitrepository-layout(5)) — or "" outside a git work tree. The
// walk is lexical (dir made absolute, not resolved) and runs no git. It is
// the one such walk in ckptlint: lint.RepoRoot (the read/write boundary of a
// named path), evidence and the command line use it.
func RepoRoot(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if isGitMarker(filepath.Join(d, ".git")) {
			return d
		}
		p := filepath.Dir(d)
		if p == d {
			return ""
		}
		d = p
	}
}

// isGitMarker reports whether p is a .git directory or a .git file naming
// the git directory elsewhere ("gitdir: <path>").
func isGitMarker(p string) bool {
	st, err := os.Stat(p)
	if err != nil {
		return false
	}
	if st.IsDir() {
		return true
	}
	if !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [len("gitdir:")]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	return string(head[:]) == "gitdir:"
}

// AddTree adds the tree a path named by the user stands for: the
// repository holding it, else the directory itself (or, for a file, the
// directory holding it). The path is resolved through symlinks first.
func (b *Boundary) AddTree(p string) error {
	abs, err := filepath.Abs(p)
	if err != nil {
		return err
	}
	real, err := b.fsys().EvalSymlinks(abs)
	if err != nil {
		return err
	}
	dir, given := real, abs
	if st, err := b.fsys().Stat(real); err == nil && !st.IsDir() {
		dir, given = filepath.Dir(real), filepath.Dir(abs)
	}
	if r := b.fsys().RepoRoot(given); r != "" {
		given = r
	}
	if r := b.fsys().RepoRoot(dir); r != "" {
		dir = r
	}
	b.add(dir, given)
	return nil
}

// AddNamed adds one file or directory the user named explicitly (in
// .ckptlint.hcl: a deployment's files, a path_mappings target). Only that
// path (and, for a directory, what is below it) is added. A path that does
// not exist is ignored: reading it fails anyway.
func (b *Boundary) AddNamed(p string) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return
	}
	if real, err := b.fsys().EvalSymlinks(abs); err == nil {
		if st, err := b.fsys().Stat(real); err == nil && !st.IsDir() {
			// A file named on its own is a root of itself alone: nothing
			// "below" it is ever inside, whatever it becomes later.
			if b.file == nil {
				b.file = map[string]bool{}
			}
			b.file[real], b.file[abs] = true, true
		}
		b.add(real, abs)
	}
}

// holds reports whether the root r holds p: p is below r, or is r when r
// is a file named on its own (AddNamed).
func (b *Boundary) holds(p, r string) bool {
	if b.file[r] {
		return p == r
	}
	return Within(p, r)
}

func (b *Boundary) add(real, given string) {
	b.lex = append(b.lex, real, given)
	for _, r := range b.roots {
		if Within(real, r) {
			return
		}
	}
	b.roots = append(b.roots, real)
}

// Roots returns the roots, in the order they were added.
func (b *Boundary) Roots() []string {
	if b == nil {
		return nil
	}
	return append([]string(nil), b.roots...)
}

// AbsFrom is filepath.Abs with the working directory given: a run takes
// it once, where filepath.Abs asks os.Getwd (two stat calls) for every
// relative path. cwd "" falls back to filepath.Abs.
func AbsFrom(cwd, p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if cwd == "" {
		return filepath.Abs(p)
	}
	return filepath.Join(cwd, p), nil
}

// Real resolves p to an absolute path without symlinks.
func Real(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Check resolves p once (every symlink on the way) and returns the real
// path when it lies inside a root. A path that does not exist is returned
// with the error of EvalSymlinks (it matches fs.ErrNotExist); a path
// outside every root returns an *OutsideError.
func (b *Boundary) Check(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if b != nil && !slices.ContainsFunc(b.lex, func(r string) bool { return b.holds(abs, r) }) {
		// Outside by its name alone: refused without looking at the file
		// system, so not even the target's existence is revealed.
		return "", &OutsideError{Path: p, Resolved: abs, Roots: b.Roots()}
	}
	if b == nil {
		return filepath.EvalSymlinks(abs)
	}
	real, err := b.fsys().EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	for _, r := range b.roots {
		if b.holds(real, r) {
			return real, nil
		}
	}
	return "", &OutsideError{Path: p, Resolved: real, Roots: b.Roots()}
}

// Within reports whether p is root or below it. Both must be clean
// absolute paths.
func Within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// IsOutside reports whether err is an *OutsideError.
func IsOutside(err error) bool {
	var oe *OutsideError
	return errors.As(err, &oe)
}
