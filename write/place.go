package write

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// root is a directory ckptlint writes below, opened once: every operation
// on a file below it (stat, read, create, rename, remove, fsync) goes
// through the handle with a path relative to it, never by the file's name
// from the file system's root. A path is resolved and checked once, and a
// directory on the way swapped for a symlink after that check cannot lead
// a write out: os.Root opens each element with O_NOFOLLOW and follows a
// symlink only when it stays below the root (issue 25 item 7: a racer led
// a fix out in 6 and 14 of 150 runs before).
type root struct {
	path string // real, absolute
	h    *os.Root
}

func openRoot(path string) (*root, error) {
	h, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &root{path: path, h: h}, nil
}

// close releases the handle (a directory opened for reading: nothing to
// flush, so its error says nothing).
func (r *root) close() { _ = r.h.Close() }

// rel is the real path p (below r) relative to r.
func (r *root) rel(p string) string {
	rel, err := filepath.Rel(r.path, p)
	if err != nil {
		return p // not below r: every operation on it fails
	}
	return rel
}

// abs is rel as an absolute path, for messages and the journal.
func (r *root) abs(rel string) string { return filepath.Join(r.path, rel) }

// read reads the regular file rel and returns its stat data (taken on the
// open descriptor).
func (r *root) read(rel string) ([]byte, fs.FileInfo, error) {
	f, err := r.h.OpenFile(rel, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, st, errors.New("not a regular file")
	}
	b, err := io.ReadAll(f)
	return b, st, err
}

// hash is the SHA-256 of the regular file rel, "" when there is none.
func (r *root) hash(rel string) string {
	st, err := r.h.Lstat(rel)
	if err != nil || !st.Mode().IsRegular() {
		return ""
	}
	f, err := r.h.OpenFile(rel, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// stage creates rel (which must not exist) with data, the mode and the
// owner, and fsyncs it; on an error it removes it again.
func (r *root) stage(rel string, data []byte, mode fs.FileMode, o owner) error {
	f, err := r.h.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	oerr := o.apply(f)
	merr := f.Chmod(mode)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, oerr, merr, serr, cerr); err != nil {
		return errors.Join(err, r.removeStaged(rel))
	}
	return nil
}

// removeStaged removes the staged file rel. When that fails (a directory
// made append-only, an I/O error) the error names the file, so it is never
// left behind unsaid.
func (r *root) removeStaged(rel string) error {
	err := r.h.Remove(rel)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return fmt.Errorf("the staged file %s could not be removed (%w); delete it", r.abs(rel), unwrapPath(err))
}

// syncDir fsyncs the directory rel below r.
func (r *root) syncDir(rel string) error {
	f, err := r.h.Open(rel)
	if err != nil {
		return err
	}
	return errors.Join(syncFile(f), f.Close())
}

// syncDirs fsyncs each directory once, so the renames into it survive a
// crash (rename(2) is atomic but not durable until its directory is).
func (r *root) syncDirs(dirs []string) error {
	seen := map[string]bool{}
	var errs []error
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		if err := r.syncDir(d); err != nil {
			errs = append(errs, fmt.Errorf("fsync %s: %w", r.abs(d), err))
		}
	}
	return errors.Join(errs...)
}

// checkDir refuses a directory rel whose attributes let a file be created
// in it but never renamed or removed (chattr +a), or nothing change at all
// (chattr +i): a staged file there could neither be put in place nor taken
// away again (issue 25: staged files were left on an append-only
// directory).
func (r *root) checkDir(rel string) error {
	f, err := r.h.Open(rel)
	if err != nil {
		return err
	}
	defer f.Close()
	switch ap, im := fileAttrs(f); {
	case im:
		return fmt.Errorf("its directory %s is immutable (chattr +i): nothing can be created, renamed or removed in it", r.abs(rel))
	case ap:
		return fmt.Errorf("its directory %s is append-only (chattr +a): a file can be created there but never renamed or removed, so no file in it can be replaced", r.abs(rel))
	}
	return nil
}

// checkFile refuses an existing file rel that cannot be replaced: one with
// the append-only or immutable attribute (its rename would fail).
func (r *root) checkFile(rel string) error {
	f, err := r.h.OpenFile(rel, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	switch ap, im := fileAttrs(f); {
	case im:
		return errors.New("the file is immutable (chattr +i): it cannot be replaced")
	case ap:
		return errors.New("the file is append-only (chattr +a): it cannot be replaced")
	}
	return nil
}

// stagedPrefix and the digits after it frame a staged file's name:
// ".NAME.ckptlint-<digits>" beside NAME (the name every ckptlint version has
// used, so leftovers of older versions are recognised too).
func stagedPrefix(target string) string { return "." + filepath.Base(target) + ".ckptlint-" }

// freeStagedName picks a staged-file name beside rel that does not exist.
func (r *root) freeStagedName(rel string) (string, error) {
	for range 100 {
		p := filepath.Join(filepath.Dir(rel), stagedPrefix(rel)+strconv.FormatUint(uint64(rand.Uint32()), 10))
		if _, err := r.h.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
	}
	return "", fmt.Errorf("no free name for a staged file beside %s", r.abs(rel))
}

// isStagedName reports whether base is a staged-file name for the file
// named name (inputfs.StagedTarget is the same test for any name).
func isStagedName(base, name string) bool {
	n, ok := inputfs.StagedTarget(base)
	return ok && n == name
}

// guardOf is the repository a write of the absolute path abs is held to:
// the outermost of the working directory's repository (the working
// directory itself outside git) and the repository holding abs that lies
// at or above abs by name, or "" when neither does. A symlink below it
// must not lead a write out of it (issue 25 item 1: a report path committed
// as a symlink to ../victim.profile replaced that file). A path outside
// every repository, which only the command line can name, is written as
// named.
func guardOf(abs string) string {
	var cands []string
	if wd, err := os.Getwd(); err == nil {
		if r := inputfs.RepoRoot(wd); r != "" {
			cands = append(cands, r)
		} else {
			cands = append(cands, wd)
		}
	}
	if r := inputfs.RepoRoot(filepath.Dir(abs)); r != "" {
		cands = append(cands, r)
	}
	g := ""
	for _, c := range cands {
		if inputfs.Within(abs, c) && (g == "" || len(c) < len(g)) {
			g = c
		}
	}
	return g
}

// resolve is filepath.EvalSymlinks for a path whose last elements may not
// exist yet: the real path of its deepest existing ancestor joined with
// the rest, and how many elements are missing.
func resolve(abs string) (string, int, error) {
	missing := 0
	for p := abs; ; p = filepath.Dir(p) {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, strings.TrimPrefix(abs, p)), missing, nil
		}
		if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(p) == p {
			return "", 0, err
		}
		missing++
	}
}

// escapeError says that a path inside the repository resolves outside it.
type escapeError struct {
	path, via, real, repo string
}

func (e *escapeError) Error() string {
	if e.via != "" && e.via != e.path {
		return fmt.Sprintf("%s: %s leads out of the repository %s (it resolves to %s)", e.path, e.via, e.repo, e.real)
	}
	return fmt.Sprintf("%s resolves to %s, outside the repository %s", e.path, e.real, e.repo)
}

// checkGuard returns an *escapeError when abs, which resolves to real,
// lies in a repository (guardOf) by name but outside it once resolved.
// path is abs as the user wrote it.
func checkGuard(path, abs, real string) error {
	g := guardOf(abs)
	if g == "" {
		return nil
	}
	greal, err := filepath.EvalSymlinks(g)
	if err != nil {
		return err
	}
	if inputfs.Within(real, greal) {
		return nil
	}
	e := &escapeError{path: path, real: real, repo: greal}
	// Name the first element on the way that leads out.
	rel, err := filepath.Rel(g, abs)
	if err == nil {
		p := g
		for _, el := range strings.Split(rel, string(filepath.Separator)) {
			p = filepath.Join(p, el)
			if r, _, err := resolve(p); err == nil && !inputfs.Within(r, greal) {
				e.via, e.real = display(p), r
				break
			}
		}
	}
	return e
}

// display renders an absolute path relative to the working directory
// when it lies below it.
func display(abs string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	return abs
}

// unwrapPath drops the operation and path of an *fs.PathError (the
// message names the file already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
