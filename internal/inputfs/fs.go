package inputfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// FS is the file system a run reads through: discovery (walking,
// reading, resolving symlinks, finding the repository root), the Hadoop
// reader's xi:include targets and the version-evidence search all ask it
// and nothing else. OS is the real one; Record wraps one and records every
// answer it gives, which is all the result cache needs to know what a run
// depended on (docs/cache.md), so no step records anything by hand.
type FS interface {
	// Stat is os.Stat.
	Stat(path string) (fs.FileInfo, error)
	// Lstat is os.Lstat.
	Lstat(path string) (fs.FileInfo, error)
	// ReadDir is os.ReadDir: the directory's entries, sorted by name.
	ReadDir(dir string) ([]fs.DirEntry, error)
	// ReadFile is ReadRegularInfo: a regular file of at most limit bytes,
	// opened non-blocking, with its file information.
	ReadFile(path string, limit int64) ([]byte, fs.FileInfo, error)
	// ReadFileIn is ReadFile of path, opened as rel below the handle root
	// (Root), never by its name from the file system's root
	// (Boundary.ReadRegularInfo).
	ReadFileIn(root *Root, rel, path string, limit int64) ([]byte, fs.FileInfo, error)
	// EvalSymlinks is filepath.EvalSymlinks of the absolute path abs.
	EvalSymlinks(abs string) (string, error)
	// RepoRoot is RepoRoot(dir).
	RepoRoot(dir string) string
}

// OS returns the real file system. It remembers the real path of every
// directory it resolved and the repository root of every directory it
// looked at, so one FS serves one run (a tree that changes during the run
// is the result cache's business: it replays what the run saw).
func OS() FS { return &osFS{roots: map[string]string{}} }

type osFS struct {
	links Symlinks
	mu    sync.Mutex
	roots map[string]string
}

func (*osFS) Stat(path string) (fs.FileInfo, error)     { return os.Stat(path) }
func (*osFS) Lstat(path string) (fs.FileInfo, error)    { return os.Lstat(path) }
func (*osFS) ReadDir(dir string) ([]fs.DirEntry, error) { return os.ReadDir(dir) }
func (*osFS) ReadFile(path string, limit int64) ([]byte, fs.FileInfo, error) {
	return ReadRegularInfo(path, limit)
}
func (o *osFS) EvalSymlinks(abs string) (string, error) { return o.links.Eval(abs) }

func (*osFS) ReadFileIn(root *Root, rel, path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := root.open(rel, path)
	if err != nil {
		return nil, nil, err
	}
	return readOpen(f, path, limit)
}

func (o *osFS) RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return repoRootMemo(o.roots, abs, hasGitMarker)
}

// Recorder is an FS that records every answer of the FS it wraps as a
// Probe (Probes): the bytes of every file read, the listing of every
// directory, the type of every path stat'ed, the real path of every path
// resolved and the repository root of every directory. The result cache
// keeps the probes with the findings and reuses the findings only when
// replaying every probe gives the same answer (Replayer). It is safe for
// concurrent use.
type Recorder struct {
	fs FS
	o  *observer
}

// Record wraps fsys in a Recorder.
func Record(fsys FS) *Recorder { return &Recorder{fs: fsys, o: newObserver()} }

// Probes returns what the run looked at, sorted by path and operation.
func (r *Recorder) Probes() []Probe { return r.o.sorted() }

// Stat records the type (or absence) of path.
func (r *Recorder) Stat(path string) (fs.FileInfo, error) {
	st, err := r.fs.Stat(path)
	r.o.record(OpStat, r.o.abs(path), statResult(st, err))
	return st, err
}

// Lstat records the type (or absence) of path itself, a symlink not
// followed.
func (r *Recorder) Lstat(path string) (fs.FileInfo, error) {
	st, err := r.fs.Lstat(path)
	r.o.record(OpLstat, r.o.abs(path), statResult(st, err))
	return st, err
}

// ReadDir records the listing of dir. The directory is stat'ed before it
// is listed, so a signature recorded with the listing predates it (a
// change during the listing leaves the signature stale, never the
// listing trusted; the file system's clock need not agree with this one).
func (r *Recorder) ReadDir(dir string) ([]fs.DirEntry, error) {
	sig := ""
	if st, err := r.fs.Stat(dir); err == nil {
		sig = Trusted(st, r.o.trustBefore)
	}
	entries, err := r.fs.ReadDir(dir)
	if err != nil {
		r.o.record(OpDir, r.o.abs(dir), "error")
		return entries, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = entryLine(e.Name(), e.Type())
	}
	r.o.recordSig(OpDir, r.o.abs(dir), listingResult(names), sig)
	return entries, nil
}

// ReadFile records the size and digest of what it read (or the class of
// the error), with the file's stat signature when it is old enough to
// trust (Trusted).
func (r *Recorder) ReadFile(path string, limit int64) ([]byte, fs.FileInfo, error) {
	src, st, err := r.fs.ReadFile(path, limit)
	r.o.read(path, limit, src, st, err)
	return src, st, err
}

// ReadFileIn records what ReadFile records, for path.
func (r *Recorder) ReadFileIn(root *Root, rel, path string, limit int64) ([]byte, fs.FileInfo, error) {
	src, st, err := r.fs.ReadFileIn(root, rel, path, limit)
	r.o.read(path, limit, src, st, err)
	return src, st, err
}

// EvalSymlinks records the real path of abs ("error" when it has none).
func (r *Recorder) EvalSymlinks(abs string) (string, error) {
	real, err := r.fs.EvalSymlinks(abs)
	res := real
	if err != nil {
		res = "error"
	}
	r.o.record(OpReal, r.o.abs(abs), res)
	return real, err
}

// RepoRoot records the repository root of dir.
func (r *Recorder) RepoRoot(dir string) string {
	root := r.fs.RepoRoot(dir)
	r.o.record(OpRepoRoot, r.o.abs(dir), root)
	return root
}
