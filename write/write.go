// Package write is how ckptlint changes files: every change of a fix or a
// generated config set or none (All, Writer: staged, fsynced, renamed,
// journaled so an interrupted run is finished or undone), and one atomic
// file for reports and documents (File, Stage). Every operation goes
// through a handle on a directory checked once (os.Root), never through a
// symlink that leads out of the repository. docs/fix.md and
// docs/security.md describe the guarantees.
package write

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/testhook"
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
	roots []*boundary // sorted by path
	notes []string
}

// boundary is one root of a Writer: the directory its writes stay below,
// the handle they go through, its lock and where its journal lives.
type boundary struct {
	path    string // real; it or its last elements may not exist yet (generate --out)
	base    *root  // the deepest existing directory at or above path
	dir     *os.File
	unlock  func()
	journal string // journalPath
}

// Open locks the boundary roots (see lint.RepoRoot) and recovers the
// journal an interrupted write left for any of them. A root that lies in
// the working directory's repository by name must stay in it once its
// symlinks are resolved. Notes says what recovery did. The caller must
// Close the Writer.
func Open(roots []string) (*Writer, error) {
	w := &Writer{}
	var paths []string
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("write: root %s: %w", r, err)
		}
		real, _, err := resolve(abs)
		if err != nil {
			return nil, fmt.Errorf("write: root %s: %w", r, err)
		}
		if err := checkGuard(display(abs), abs, real); err != nil {
			var e *escapeError
			if errors.As(err, &e) {
				return nil, fmt.Errorf("write: refusing to write below %s: it resolves to %s, outside the repository %s (no file was changed)", e.path, real, e.repo)
			}
			return nil, fmt.Errorf("write: root %s: %w", r, err)
		}
		if !slices.Contains(paths, real) {
			paths = append(paths, real)
		}
	}
	// A fixed order, so two runs locking the same roots cannot deadlock.
	slices.Sort(paths)
	for _, p := range paths {
		b, err := openBoundary(p)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("write: lock %s: %w (no file was changed)", p, err)
		}
		w.roots = append(w.roots, b)
	}
	for _, b := range w.roots {
		if p := filepath.Join(b.path, inputfs.TreeJournalName); exists(p) {
			w.notes = append(w.notes, fmt.Sprintf("ignored %s: ckptlint keeps its fix journal in the git directory and never trusts one in the work tree, where a commit can put one; delete it (if a ckptlint older than this one was killed here, check the files it names first)", p))
		}
		notes, err := recoverJournal(b)
		w.notes = append(w.notes, notes...)
		if err != nil {
			w.Close()
			return nil, err
		}
	}
	testStop("recovered")
	return w, nil
}

// openBoundary opens and locks the root path (real; the deepest existing
// directory at or above it is what is opened).
func openBoundary(path string) (*boundary, error) {
	base := path
	for !exists(base) && filepath.Dir(base) != base {
		base = filepath.Dir(base)
	}
	r, err := openBelowGuard(base)
	if err != nil {
		return nil, err
	}
	d, err := r.h.Open(".")
	if err != nil {
		r.close()
		return nil, err
	}
	unlock, err := lockFile(d)
	if err != nil {
		d.Close()
		r.close()
		return nil, err
	}
	j, err := journalPath(path)
	if err != nil {
		unlock()
		d.Close()
		r.close()
		return nil, err
	}
	return &boundary{path: path, base: r, dir: d, unlock: unlock, journal: j}, nil
}

// openBelowGuard opens the real directory dir; when it lies in a
// repository (guardOf), through a handle on the repository, so a directory
// on the way swapped for a symlink since dir was resolved cannot move the
// root out of it (generate --out below a directory of the repository).
func openBelowGuard(dir string) (*root, error) {
	g := guardOf(dir)
	if g == "" {
		return openRoot(dir)
	}
	greal, err := filepath.EvalSymlinks(g)
	if err != nil || !inputfs.Within(dir, greal) {
		return openRoot(dir)
	}
	gr, err := openRoot(greal)
	if err != nil {
		return nil, err
	}
	defer gr.close()
	h, err := gr.h.OpenRoot(gr.rel(dir))
	if err != nil {
		return nil, err
	}
	return &root{path: dir, h: h}, nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Notes are one-line messages about what Open recovered and what Sweep
// removed or left alone.
func (w *Writer) Notes() []string { return w.notes }

// ClearNotes forgets the notes already shown.
func (w *Writer) ClearNotes() { w.notes = nil }

// Close releases the locks.
func (w *Writer) Close() {
	for i := len(w.roots) - 1; i >= 0; i-- {
		b := w.roots[i]
		b.unlock()
		b.dir.Close()
		b.base.close()
	}
	w.roots = nil
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
	b      *boundary // the boundary whose journal lists it
	rel    string    // the real target, relative to b.base
	tmp    string    // the staged file beside it, relative to b.base
	sig    string    // the target's stat signature when its content was checked
	dirs   []string  // directories to create for it, outermost first, relative to b.base
	entry  journalEntry
	made   bool // the staged file was created
	target string
}

// Write writes every change or none. A target is refused when it is not a
// regular file, has other hard links, when it (or a symlink it goes
// through) lies outside every root, when its directory is append-only or
// immutable, or when its content changed on disk since it was read;
// nothing is then written. The steps, each a point an interrupted run
// recovers from:
//
//  1. a journal per root lists every target, its staged file and the
//     SHA-256 of its old and new content; it is fsynced with its directory
//     (in the git directory, never in the work tree: journalPath);
//  2. each new content is written to its staged file (".NAME.ckptlint-N"
//     beside NAME) with the target's mode, owner and group, and fsynced;
//  3. every target is read again: one another program changed since it was
//     read refuses the whole write;
//  4. a commit record is appended to each journal and fsynced: from here the
//     next run rolls forward, before it it rolls back;
//  5. each target is checked once more (content and stat signature) and
//     its staged file renamed over it, and every directory renamed into is
//     fsynced;
//  6. the journals are removed.
//
// If a rename fails, or a target changed just before its rename, the files
// already replaced get their old content back the same way (staged,
// renamed) before Write returns the error. A new file's missing directories
// are created (below its root) and removed again when the write fails.
func (w *Writer) Write(changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	var ss []*staged
	for _, c := range changes {
		s, err := w.checkTarget(c)
		if err != nil {
			return err
		}
		if s.tmp, err = s.b.base.freeStagedName(s.rel); err != nil {
			return fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
		}
		s.entry = journalEntry{Target: s.target, Staged: s.b.base.abs(s.tmp), New: digest(c.New)}
		if c.Old != nil {
			s.entry.Old = digest(c.Old)
		}
		ss = append(ss, s)
	}
	byRoot := map[*boundary][]journalEntry{}
	var roots []*boundary
	for _, s := range ss {
		if _, ok := byRoot[s.b]; !ok {
			roots = append(roots, s.b)
		}
		byRoot[s.b] = append(byRoot[s.b], s.entry)
	}
	var journals []*journal
	var made []madeDir // directories created, in order
	abort := func(err error) error {
		var errs []error
		for _, s := range ss {
			if s.made {
				if rerr := s.b.base.removeStaged(s.tmp); rerr != nil {
					errs = append(errs, rerr)
				}
			}
		}
		for i := len(made) - 1; i >= 0; i-- {
			_ = made[i].b.base.h.Remove(made[i].rel) // only an empty directory goes
		}
		for _, j := range journals {
			j.remove()
		}
		if len(errs) > 0 {
			return fmt.Errorf("%w; %w", err, errors.Join(errs...))
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
		for _, d := range s.dirs {
			if err := s.b.base.h.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return abort(fmt.Errorf("write %s: %w (no file was changed)", s.c.Path, err))
			} else if err == nil {
				made = append(made, madeDir{s.b, d})
			}
		}
		s.made = true
		var owner owner
		if s.c.Old != nil {
			st, err := s.b.base.h.Lstat(s.rel)
			if err != nil {
				return abort(fmt.Errorf("write %s: %w (no file was changed)", s.c.Path, err))
			}
			owner = ownerOf(st)
		}
		if err := s.b.base.stage(s.tmp, s.c.New, modeOf(s.c), owner); err != nil {
			s.made = false // stage removed it, or said why it could not
			return abort(fmt.Errorf("write %s: %w (no file was changed)", s.c.Path, err))
		}
		testStop("staged:" + strconv.Itoa(i+1))
	}
	for _, s := range ss {
		if err := s.unchanged(); err != nil {
			return abort(fmt.Errorf("write %s: %w (no file was changed)", s.c.Path, err))
		}
	}
	for _, j := range journals {
		if err := j.commit(); err != nil {
			return abort(fmt.Errorf("write: %w (no file was changed)", err))
		}
	}
	testStop("commit")
	for i, s := range ss {
		err := s.unchanged()
		if err == nil {
			err = s.b.base.h.Rename(s.tmp, s.rel)
		}
		if err != nil {
			rerr := restore(ss[:i])
			err = abort(err) // the staged files of the rest, and the journals
			if rerr != nil {
				return fmt.Errorf("write %s: %w; restoring the files written before it failed too: %v", s.c.Path, err, rerr)
			}
			return fmt.Errorf("write %s: %w (the files written before it were restored; no file was changed)", s.c.Path, err)
		}
		s.made = false
		testStop("renamed:" + strconv.Itoa(i+1))
	}
	var errs []error
	for _, b := range roots {
		var dirs []string
		for _, s := range ss {
			if s.b == b {
				dirs = append(dirs, filepath.Dir(s.rel))
			}
		}
		errs = append(errs, b.base.syncDirs(dirs))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("write: %w (every file was replaced; the journal stays for the next run)", err)
	}
	testStop("synced")
	for _, j := range journals {
		j.remove()
	}
	return nil
}

// madeDir is a directory Write created (relative to its boundary's base).
type madeDir struct {
	b   *boundary
	rel string
}

// unchanged checks that the target is still as it was read: its content
// and its stat signature; a new file must still not exist. Another program
// writing the file in place (an editor saving over it) between ckptlint's
// read and its rename would otherwise lose its write without a word.
func (s *staged) unchanged() error {
	if s.c.Old == nil {
		if _, err := s.b.base.h.Lstat(s.rel); err == nil {
			return errors.New("the file appeared while ckptlint was writing it; run ckptlint fix again")
		}
		return nil
	}
	cur, st, err := s.b.base.read(s.rel)
	if err != nil || !bytes.Equal(cur, s.c.Old) || inputfs.Signature(st) != s.sig {
		return errors.New("the file changed on disk while ckptlint was writing it (another program wrote it); run ckptlint fix again")
	}
	return nil
}

// restore puts the old content back into targets already replaced, the same
// way they were written.
func restore(done []*staged) error {
	var errs []error
	for _, s := range done {
		r := s.b.base
		if s.c.Old == nil {
			if err := r.h.Remove(s.rel); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		tmp, err := r.freeStagedName(s.rel)
		if err == nil {
			var st fs.FileInfo
			if st, err = r.h.Lstat(s.rel); err == nil {
				err = r.stage(tmp, s.c.Old, modeOf(s.c), ownerOf(st))
			}
			if err == nil {
				if err = r.h.Rename(tmp, s.rel); err != nil {
					err = errors.Join(err, r.removeStaged(tmp))
				}
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

// checkTarget resolves where a change lands (the target, its outermost
// root, the directories to create) and refuses unsafe targets.
func (w *Writer) checkTarget(c Change) (*staged, error) {
	fail := func(format string, a ...any) (*staged, error) {
		return nil, fmt.Errorf("write %s: "+format+" (no file was changed)", append([]any{c.Path}, a...)...)
	}
	abs, err := filepath.Abs(c.Path)
	if err != nil {
		return fail("%w", err)
	}
	dir, missing, err := resolve(filepath.Dir(abs))
	if err != nil {
		return fail("%w", err)
	}
	if missing > 0 && c.Old != nil {
		return fail("the file was removed since it was read")
	}
	target := filepath.Join(dir, filepath.Base(abs))
	if st, err := os.Lstat(target); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		// A symlink that stays inside the root is written through: its
		// target is replaced and the link stays a link.
		if target, err = filepath.EvalSymlinks(target); err != nil {
			return fail("%w", err)
		}
	}
	var b *boundary
	for _, r := range w.roots {
		if inputfs.Within(target, r.path) && (b == nil || len(r.path) < len(b.path)) {
			b = r
		}
	}
	if b == nil {
		return nil, fmt.Errorf("write %s: refusing to write outside %s (it resolves to %s; no file was changed)", c.Path, rootList(w.roots), target)
	}
	if err := checkGuard(c.Path, abs, target); err != nil {
		var e *escapeError
		if errors.As(err, &e) {
			return fail("refusing to write outside the repository %s (it resolves to %s)", e.repo, target)
		}
		return fail("%w", err)
	}
	if target == b.journal {
		return fail("refusing to write ckptlint's own journal")
	}
	s := &staged{c: c, b: b, target: target, rel: b.base.rel(target)}
	for d := filepath.Dir(s.rel); missing > 0; d = filepath.Dir(d) {
		s.dirs = append([]string{d}, s.dirs...)
		missing--
	}
	existing := filepath.Dir(s.rel)
	if len(s.dirs) > 0 {
		existing = filepath.Dir(s.dirs[0])
	}
	if err := b.base.checkDir(existing); err != nil {
		return fail("%w", err)
	}
	st, err := b.base.h.Lstat(s.rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if c.Old != nil {
			return fail("the file was removed since it was read")
		}
		return s, nil
	case err != nil:
		return fail("%w", unwrapPath(err))
	case st.Mode()&fs.ModeSymlink != 0:
		return fail("it became a symlink while ckptlint was writing it")
	case !st.Mode().IsRegular():
		return fail("not a regular file")
	case c.Old == nil:
		return fail("the file appeared since ckptlint looked")
	case links(st) > 1:
		return fail("it has %d hard links: replacing it would leave the other names with the old content, so ckptlint does not; edit it by hand, or give it a name of its own (cp, then mv over it) and run ckptlint fix again", links(st))
	}
	if err := b.base.checkFile(s.rel); err != nil {
		return fail("%w", err)
	}
	cur, st, err := b.base.read(s.rel)
	if err != nil {
		return fail("%w", unwrapPath(err))
	}
	if !bytes.Equal(cur, c.Old) {
		return fail("the file changed on disk since it was read; run ckptlint fix again")
	}
	s.sig = inputfs.Signature(st)
	return s, nil
}

func rootList(roots []*boundary) string {
	if len(roots) == 1 {
		return roots[0].path
	}
	var ps []string
	for _, r := range roots {
		ps = append(ps, r.path)
	}
	return fmt.Sprintf("%q", ps)
}

// File writes one file ckptlint produces outside fix (`ckptlint facts`'s
// .ckptlint.hcl, a generated document) atomically: staged beside path,
// fsynced, renamed over it, the directory fsynced. An existing file keeps
// its mode, owner and group; a symlink that stays inside the repository of
// the working directory is written through, one that leads out is refused,
// and so is a path that exists and is not a regular file.
func File(path string, data []byte) error {
	st, err := stage(path, true)
	if err != nil {
		return err
	}
	if _, err := st.Write(data); err != nil {
		return errors.Join(err, st.Abort())
	}
	return st.Commit()
}

// Staged is a report file a write at a time, for a report written as the
// run goes (internal/report NewStreamer): Stage creates the staged file beside
// path, Write appends to it, Commit puts it in place as File does, and
// Abort (a no-op after Commit) removes it, leaving path as it was.
type Staged struct {
	f        *os.File
	w        *bufio.Writer
	r        *root
	tmp, rel string
	mode     fs.FileMode
	owner    owner
	err      error
	ended    bool
}

// Stage starts writing the report file path (--format NAME=PATH). A path
// inside the repository of the working directory (guardOf) is written only
// as a regular file: a symlink there is refused wherever it leads (a report
// must not replace the file a link committed to the repository points at),
// and so is a path whose directories lead out of the repository. A path
// outside every repository, which only the command line names, is written
// as named. An existing file keeps its mode, owner and group.
func Stage(path string) (*Staged, error) { return stage(path, false) }

// stage is Stage; follow writes through a symlink that stays inside the
// repository (File) instead of refusing it.
func stage(path string, follow bool) (*Staged, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return nil, err
	}
	target := filepath.Join(dir, filepath.Base(abs))
	g := guardOf(abs)
	if g == "" {
		// Outside every repository: the path as named, symlinks followed.
		if real, err := filepath.EvalSymlinks(target); err == nil {
			target = real
		}
		r, err := openRoot(filepath.Dir(target))
		if err != nil {
			return nil, err
		}
		return stageIn(r, filepath.Base(target), path)
	}
	greal, err := filepath.EvalSymlinks(g)
	if err != nil {
		return nil, err
	}
	if err := checkGuard(path, abs, dir); err != nil {
		what := "report"
		if follow {
			what = "file"
		}
		return nil, fmt.Errorf("%w; ckptlint never writes a %s through a symlink that leaves the repository (no %s was written)", err, what, what)
	}
	if st, err := os.Lstat(target); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		to, _ := os.Readlink(target)
		if !follow {
			return nil, fmt.Errorf("%s is a symlink (to %s); ckptlint never writes a report through a symlink inside the repository %s: remove it or name another path (no report was written)", path, to, greal)
		}
		real, err := filepath.EvalSymlinks(target)
		if err != nil {
			return nil, err
		}
		if !inputfs.Within(real, greal) {
			return nil, fmt.Errorf("%s is a symlink to %s, outside the repository %s; ckptlint never writes through a symlink that leaves the repository (no file was written)", path, real, greal)
		}
		target = real
	}
	// Below a handle on the repository, so a directory swapped for a
	// symlink from here on cannot lead the write out.
	r, err := openRoot(greal)
	if err != nil {
		return nil, err
	}
	return stageIn(r, r.rel(target), path)
}

// stageIn creates the staged file for rel below r (path names it in
// messages); r is closed when it fails.
func stageIn(r *root, rel, path string) (*Staged, error) {
	s, err := stageInOpen(r, rel, path)
	if err != nil {
		r.close()
	}
	return s, err
}

func stageInOpen(r *root, rel, path string) (*Staged, error) {
	st, err := r.h.Lstat(rel)
	mode, o := fs.FileMode(0o644), owner{}
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s exists and is not a regular file", path)
	default:
		mode, o = st.Mode().Perm(), ownerOf(st)
	}
	if err := r.checkDir(filepath.Dir(rel)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tmp, err := r.freeStagedName(rel)
	if err != nil {
		return nil, err
	}
	f, err := r.h.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	return &Staged{f: f, w: bufio.NewWriterSize(f, 64<<10), r: r, tmp: tmp, rel: rel, mode: mode, owner: o}, nil
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
// then fsyncs the directory. On an error the staged file is removed (or
// the error says it could not be).
func (s *Staged) Commit() error {
	if s.ended {
		return errors.New("write: staged file already ended")
	}
	s.ended = true
	defer s.r.close()
	werr := s.err
	if werr == nil {
		werr = s.w.Flush()
	}
	oerr := s.owner.apply(s.f)
	merr := s.f.Chmod(s.mode)
	serr := s.f.Sync()
	cerr := s.f.Close()
	if err := errors.Join(werr, oerr, merr, serr, cerr); err != nil {
		return errors.Join(err, s.r.removeStaged(s.tmp))
	}
	if err := s.r.h.Rename(s.tmp, s.rel); err != nil {
		return errors.Join(err, s.r.removeStaged(s.tmp))
	}
	return s.r.syncDir(filepath.Dir(s.rel))
}

// Abort removes the staged file unless it was committed; the error says
// when it could not be removed.
func (s *Staged) Abort() error {
	if s.ended {
		return nil
	}
	s.ended = true
	defer s.r.close()
	s.f.Close()
	return s.r.removeStaged(s.tmp)
}

// testHook, set by this package's tests, runs at each step testStop names
// (another program writing a file in the middle of a write).
var testHook func(step string)

// testStop is the test-only hook of docs/fix.md: when CKPTLINT_TEST_STOP_AT
// names step, the process kills itself there (SIGKILL where there is one),
// as kill -9 would, so tests can interrupt a real write at every step.
func testStop(step string) {
	if testHook != nil {
		testHook(step)
	}
	if testhook.Env("CKPTLINT_TEST_STOP_AT") == step {
		killSelf()
	}
}
