// Package write is how ckptlint changes files: every change of a fix or a
// generated config set or none (All, Writer: staged, fsynced, renamed,
// journaled so an interrupted run is finished or undone), and one atomic
// file for reports and documents (File). docs/fix.md describes the
// guarantees.
package write

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/ckptlint/ckptlint/lint/inputfs"
)

// Change is the new content of one file.
type Change struct {
	Path string // OS path
	Old  []byte // content read before planning; nil for a file to create
	New  []byte
	Mode fs.FileMode // kept for existing files; 0644 for new ones
}

// Writer writes files for ckptlint: every change of a Write or none, each
// file staged beside its target, fsynced, renamed over it, and the directory
// fsynced. It holds an exclusive lock on each boundary root from Open to
// Close, so two ckptlint runs never write in one repository at once, and
// Open first finishes or undoes a write that an earlier run left half done
// (see docs/fix.md, "Interrupted runs").
type Writer struct {
	roots []string // resolved boundary roots, outermost first
	locks []func()
	notes []string
}

// Open locks the boundary roots (resolved directories; see lint.RepoRoot)
// and recovers the journal an interrupted write left in any of them. Notes
// says what recovery did. The caller must Close the Writer.
func Open(roots []string) (*Writer, error) {
	w := &Writer{}
	for _, r := range roots {
		real, err := filepath.EvalSymlinks(r)
		if err != nil {
			return nil, fmt.Errorf("write: root %s: %w", r, err)
		}
		if !slices.Contains(w.roots, real) {
			w.roots = append(w.roots, real)
		}
	}
	// A fixed order, so two runs locking the same roots cannot deadlock.
	slices.Sort(w.roots)
	for _, r := range w.roots {
		unlock, err := lockDir(r)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("write: lock %s: %w (no file was changed)", r, err)
		}
		w.locks = append(w.locks, unlock)
	}
	for _, r := range w.roots {
		notes, err := recoverJournal(r)
		w.notes = append(w.notes, notes...)
		if err != nil {
			w.Close()
			return nil, err
		}
	}
	testStop("recovered")
	return w, nil
}

// Notes are one-line messages about what Open recovered and what Sweep
// removed or left alone.
func (w *Writer) Notes() []string { return w.notes }

// ClearNotes forgets the notes already shown.
func (w *Writer) ClearNotes() { w.notes = nil }

// Close releases the locks.
func (w *Writer) Close() {
	for i := len(w.locks) - 1; i >= 0; i-- {
		w.locks[i]()
	}
	w.locks = nil
}

// All writes every change or none within root (see Writer.Write).
func All(changes []Change, root string) error {
	w, err := Open([]string{root})
	if err != nil {
		return err
	}
	defer w.Close()
	return w.Write(changes)
}

// staged is one change on its way to disk.
type staged struct {
	c      Change
	root   string // the boundary root whose journal lists it
	target string // the real path the rename replaces
	tmp    string // the staged file beside it
	entry  journalEntry
	made   bool // the staged file was created
}

// Write writes every change or none. A target is refused when it is not a
// regular file, when it (or a symlink it goes through) lies outside every
// root, or when its content changed on disk since it was read; nothing is
// then written. The steps, each a point an interrupted run recovers from:
//
//  1. a journal per root lists every target, its staged file and the
//     SHA-256 of its old and new content; it is fsynced with its directory;
//  2. each new content is written to its staged file (".NAME.ckptlint-N"
//     beside NAME) with the target's mode, owner and group, and fsynced;
//  3. a commit record is appended to each journal and fsynced: from here the
//     next run rolls forward, before it it rolls back;
//  4. each staged file is renamed over its target, and every directory
//     renamed into is fsynced;
//  5. the journals are removed.
//
// If a rename fails, the files already replaced get their old content back
// the same way (staged, renamed) before Write returns the error.
func (w *Writer) Write(changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	var ss []*staged
	for _, c := range changes {
		target, root, err := w.checkTarget(c)
		if err != nil {
			return err
		}
		tmp, err := freeStagedName(target)
		if err != nil {
			return fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
		}
		e := journalEntry{Target: target, Staged: tmp, New: digest(c.New)}
		if c.Old != nil {
			e.Old = digest(c.Old)
		}
		ss = append(ss, &staged{c: c, root: root, target: target, tmp: tmp, entry: e})
	}
	byRoot := map[string][]journalEntry{}
	var roots []string
	for _, s := range ss {
		if _, ok := byRoot[s.root]; !ok {
			roots = append(roots, s.root)
		}
		byRoot[s.root] = append(byRoot[s.root], s.entry)
	}
	var journals []*journal
	abort := func(err error) error {
		for _, s := range ss {
			if s.made {
				os.Remove(s.tmp)
			}
		}
		for _, j := range journals {
			j.remove()
		}
		return err
	}
	for _, r := range roots {
		j, err := createJournal(r, byRoot[r])
		if err != nil {
			return abort(fmt.Errorf("write: %w (no file was changed)", err))
		}
		journals = append(journals, j)
	}
	testStop("journal")
	for i, s := range ss {
		owner, err := ownerOf(s.target, s.c.Old != nil)
		if err != nil {
			return abort(fmt.Errorf("write %s: %w (no file was changed)", s.c.Path, err))
		}
		s.made = true
		if err := stageFile(s.tmp, s.c.New, modeOf(s.c), owner); err != nil {
			return abort(fmt.Errorf("write %s: %w (no file was changed)", s.c.Path, err))
		}
		testStop("staged:" + strconv.Itoa(i+1))
	}
	for _, j := range journals {
		if err := j.commit(); err != nil {
			return abort(fmt.Errorf("write: %w (no file was changed)", err))
		}
	}
	testStop("commit")
	for i, s := range ss {
		if err := os.Rename(s.tmp, s.target); err != nil {
			rerr := restore(ss[:i])
			_ = abort(nil) // cleanup only: the rename and restore errors are the ones returned
			if rerr != nil {
				return fmt.Errorf("write %s: %w; restoring the files written before it failed too: %v", s.c.Path, err, rerr)
			}
			return fmt.Errorf("write %s: %w (the files written before it were restored)", s.c.Path, err)
		}
		s.made = false
		testStop("renamed:" + strconv.Itoa(i+1))
	}
	var dirs []string
	for _, s := range ss {
		dirs = append(dirs, filepath.Dir(s.target))
	}
	if err := syncDirs(dirs); err != nil {
		return fmt.Errorf("write: %w (every file was replaced; the journal stays for the next run)", err)
	}
	testStop("synced")
	for _, j := range journals {
		j.remove()
	}
	return nil
}

// restore puts the old content back into targets already replaced, the same
// way they were written.
func restore(done []*staged) error {
	var errs []error
	for _, s := range done {
		if s.c.Old == nil {
			if err := os.Remove(s.target); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		tmp, err := freeStagedName(s.target)
		if err == nil {
			owner, oerr := ownerOf(s.target, true)
			err = errors.Join(oerr, stageFile(tmp, s.c.Old, modeOf(s.c), owner))
			if err == nil {
				err = os.Rename(tmp, s.target)
			}
			if err != nil {
				os.Remove(tmp)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.c.Path, err))
		}
	}
	return errors.Join(errs...)
}

func modeOf(c Change) fs.FileMode {
	if c.Mode == 0 {
		return 0o644
	}
	return c.Mode.Perm()
}

// checkTarget resolves where a change lands and refuses unsafe targets. It
// returns the real target and the outermost root holding it.
func (w *Writer) checkTarget(c Change) (string, string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(c.Path))
	if err != nil {
		return "", "", fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
	}
	target := filepath.Join(dir, filepath.Base(c.Path))
	if st, err := os.Lstat(target); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(target); err != nil {
			return "", "", fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
		}
	}
	root := ""
	for _, r := range w.roots {
		if inputfs.Within(target, r) && (root == "" || len(r) < len(root)) {
			root = r
		}
	}
	if root == "" {
		return "", "", fmt.Errorf("write %s: refusing to write outside %s (it resolves to %s; no file was changed)", c.Path, rootList(w.roots), target)
	}
	if filepath.Base(target) == journalName && filepath.Dir(target) == root {
		return "", "", fmt.Errorf("write %s: refusing to write ckptlint's own journal (no file was changed)", c.Path)
	}
	st, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if c.Old != nil {
			return "", "", fmt.Errorf("write %s: the file was removed since it was read (no file was changed)", c.Path)
		}
		return target, root, nil
	case err != nil:
		return "", "", fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
	case !st.Mode().IsRegular():
		return "", "", fmt.Errorf("write %s: not a regular file (no file was changed)", c.Path)
	}
	if c.Old == nil {
		return "", "", fmt.Errorf("write %s: the file appeared since ckptlint looked (no file was changed)", c.Path)
	}
	cur, err := os.ReadFile(target)
	if err != nil {
		return "", "", fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
	}
	if !bytes.Equal(cur, c.Old) {
		return "", "", fmt.Errorf("write %s: the file changed on disk since it was read; run ckptlint fix again (no file was changed)", c.Path)
	}
	return target, root, nil
}

func rootList(roots []string) string {
	if len(roots) == 1 {
		return roots[0]
	}
	return fmt.Sprintf("%q", roots)
}

// stagedPrefix and stagedSuffix frame a staged file's name:
// ".NAME.ckptlint-<digits>" beside NAME (the name every ckptlint version has
// used, so leftovers of older versions are recognised too).
func stagedPrefix(target string) string { return "." + filepath.Base(target) + ".ckptlint-" }

// freeStagedName picks a staged-file name beside target that does not exist.
func freeStagedName(target string) (string, error) {
	for range 100 {
		p := filepath.Join(filepath.Dir(target), stagedPrefix(target)+strconv.FormatUint(uint64(rand.Uint32()), 10))
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
	}
	return "", fmt.Errorf("no free name for a staged file beside %s", target)
}

// isStagedName reports whether base is a staged-file name for target base
// name name.
func isStagedName(base, name string) bool {
	pre := "." + name + ".ckptlint-"
	if len(base) <= len(pre) || base[:len(pre)] != pre {
		return false
	}
	for _, r := range base[len(pre):] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// stageFile creates path (which must not exist) with data, the mode and
// the owner, and fsyncs it.
func stageFile(path string, data []byte, mode fs.FileMode, o owner) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	oerr := o.apply(f)
	merr := f.Chmod(mode)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, oerr, merr, serr, cerr); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// File writes one file ckptlint produces outside fix (a report named
// by --format NAME=PATH, a generated document) atomically: staged beside
// path, fsynced, renamed over it, the directory fsynced. An existing file
// keeps its mode, owner and group; a symlink is written through; a path
// that exists and is not a regular file is refused.
func File(path string, data []byte) error {
	st, err := Stage(path)
	if err != nil {
		return err
	}
	defer st.Abort()
	if _, err := st.Write(data); err != nil {
		return err
	}
	return st.Commit()
}

// Staged is File a write at a time, for a report written as the run goes
// (lint/report NewStreamer): Stage creates the staged file beside path,
// Write appends to it, Commit puts it in place as File does, and Abort
// (a no-op after Commit) removes it, leaving path as it was.
type Staged struct {
	f           *os.File
	w           *bufio.Writer
	tmp, target string
	mode        fs.FileMode
	owner       owner
	err         error
	ended       bool
}

// Stage starts writing path (see File).
func Stage(path string) (*Staged, error) {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	st, err := os.Stat(target)
	mode, exists := fs.FileMode(0o644), false
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s exists and is not a regular file", path)
	default:
		mode, exists = st.Mode().Perm(), true
	}
	o, err := ownerOf(target, exists)
	if err != nil {
		return nil, err
	}
	tmp, err := freeStagedName(target)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	return &Staged{f: f, w: bufio.NewWriterSize(f, 64<<10), tmp: tmp, target: target, mode: mode, owner: o}, nil
}

// Write appends p to the staged file.
func (s *Staged) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

// Commit flushes, fsyncs and renames the staged file over its target,
// then fsyncs the directory. On an error the staged file is removed.
func (s *Staged) Commit() error {
	if s.ended {
		return errors.New("write: staged file already ended")
	}
	s.ended = true
	werr := s.err
	if werr == nil {
		werr = s.w.Flush()
	}
	oerr := s.owner.apply(s.f)
	merr := s.f.Chmod(s.mode)
	serr := s.f.Sync()
	cerr := s.f.Close()
	if err := errors.Join(werr, oerr, merr, serr, cerr); err != nil {
		os.Remove(s.tmp)
		return err
	}
	if err := os.Rename(s.tmp, s.target); err != nil {
		os.Remove(s.tmp)
		return err
	}
	return syncDirs([]string{filepath.Dir(s.target)})
}

// Abort removes the staged file unless it was committed.
func (s *Staged) Abort() {
	if s.ended {
		return
	}
	s.ended = true
	s.f.Close()
	os.Remove(s.tmp)
}

// syncDirs fsyncs each directory once, so the renames into it survive a
// crash (rename(2) is atomic but not durable until its directory is).
func syncDirs(dirs []string) error {
	seen := map[string]bool{}
	var errs []error
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		if err := syncDir(d); err != nil {
			errs = append(errs, fmt.Errorf("fsync %s: %w", d, err))
		}
	}
	return errors.Join(errs...)
}

// testStop is the test-only hook of docs/fix.md: when CKPTLINT_TEST_STOP_AT
// names step, the process kills itself there (SIGKILL where there is one),
// as kill -9 would, so tests can interrupt a real write at every step.
func testStop(step string) {
	if os.Getenv("CKPTLINT_TEST_STOP_AT") == step {
		killSelf()
	}
}
