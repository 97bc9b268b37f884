// Package discover is the first step of a lint run: it walks the paths it
// is given, tells each file's kind from its name and, where the name does
// not tell, its content, and reads it within the run's boundary and input
// budget, all through the run's file system (internal/inputfs FS). The result
// is a Tree: the files found by path and by directory, each with the
// bytes read, in a stable order, with the paths that could not be read.
// internal/assemble groups the Tree's files into config sets; Parse parses a
// file of the Tree for the config set that reads it, reading nothing.
//
// Every read happens here, and every decision about one (the boundary's
// answer, the budget's charge, a note, what the Tree keeps) is taken on one
// goroutine and in walk order, so which file the run's input budget
// refuses never depends on how the sets are evaluated; the evaluation
// workers only parse bytes the Tree holds. Only the system calls of the
// walk run ahead of it (prefetch.go): a prefetcher lists the directories
// the walk will enter and, on two workers, checks and reads the regular
// files it will read, through the same FS and boundary, a bounded window
// ahead; the walk takes every result in its order and charges the budget
// itself, so the Tree and what a recording FS records are the serial
// walk's. Options.Ignored is therefore called from the prefetcher too and
// must be safe for concurrent use.
package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/format/flinkyaml"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/internal/suppress"
)

// skipDirs are never walked.
var skipDirs = map[string]bool{".git": true, "vendor": true, "node_modules": true}

// Found is a discovered file. Everything but Claimed is set when it is
// found and never changes, so the evaluation workers read it while
// assembly goes on.
type Found struct {
	Path string // OS path, absolute and clean
	// Real is Path with its symlinks resolved: the file read ("" when it
	// was not read; Path for a file of the overlay).
	Real string
	Disp string // display path: slash-separated, relative to the working dir when below it
	// Format is the file's format (internal/format has all it implies).
	Format parsed.Format
	// Src are the bytes read; nil for a file not read (outside the
	// repository, too large, unreadable, over the run's input budget).
	Src []byte
	// Err is set for a file that is not parsed: not read, or refused for
	// its content (its lines, its YAML flow collections, its keys), or a
	// manifest's whole-file error. Parse gives it as the file's CKPT000.
	Err *parsed.ParseError
	// Deps are a manifest's FlinkDeployments, each with its Config
	// parsed and its placeholders marked.
	Deps []flinkyaml.Deployment
	// Template is set when a whole manifest is skipped as a template.
	Template *parsed.Template
	// Chart is the Helm chart (display path) the file lies in, "" when
	// none or when placeholders are literal.
	Chart string
	// included are the xi:include targets a Hadoop file read, by the path
	// its parse asked for (Parse serves them again).
	included map[string]includeRead
	// embed is set for a file written inside another (AddText).
	embed *parsed.Embed
	// Claimed is set by assembly when a Flink set reads this Hadoop file.
	Claimed bool

	// sumOnce computes the file's digest on first use by any worker.
	sumOnce sync.Once
	sum     string
	// ignOnce reads the file's ignore comments from its first parse
	// (keepIgnores); every set reading the file shares them.
	ignOnce    sync.Once
	ignores    *suppress.File
	incIgnores []*suppress.File
}

// notConfigError is a file named on the command line that is no Flink or
// Hadoop configuration ckptlint reads.
type notConfigError struct{ path string }

func (e *notConfigError) Error() string {
	return safetext.Path(e.path) + ": not a Flink or Hadoop configuration file ckptlint knows (flink-conf.yaml, config.yaml with Flink keys, a FlinkDeployment manifest, core-site.xml, hdfs-site.xml)"
}

// Options are what discovery reads besides the paths. The zero value reads
// below the repository of each path, with the run's input budget
// (inputfs.MaxRunInput), nothing ignored and placeholders detected.
type Options struct {
	// Ignored reports whether a path is listed under ignore in
	// .ckptlint.hcl ((*config.Config).IgnoresPath); nil ignores nothing.
	// It is called from the walk's prefetcher too: it must be a pure
	// function of the path, safe for concurrent use.
	Ignored func(path string) bool
	// Declared are config.yaml paths .ckptlint.hcl declares as Flink
	// configuration: read as such whatever keys they hold.
	Declared []string
	// Named are files and directories .ckptlint.hcl names (deployment
	// files, path_mappings targets): readable though outside the
	// repository (docs/security.md).
	Named []string
	// Overlay replaces or adds file contents by absolute path.
	Overlay map[string][]byte
	// Note receives one-line notes about paths that are not read and are
	// not findings; nil drops them.
	Note func(string)
	// Unbounded reads files wherever they are.
	Unbounded bool
	// Literal reads template placeholders as literal text
	// (--placeholders=literal).
	Literal bool
	// FS is the file system read (nil: inputfs.OS()). The result cache
	// passes a recording one (inputfs.Record).
	FS inputfs.FS
	// BoundaryPaths, when set, are the paths the read boundary is made
	// of instead of the walked paths: the result cache's incremental run
	// (lint/cache.go) walks a few directories of an earlier run over
	// BoundaryPaths and must read what that run could read.
	BoundaryPaths []string
}

// Tree is what discovery found: the files by path and by directory, in
// the order they were found, and the paths that could not be read. It
// reads more files on demand (Add) while config sets are assembled.
type Tree struct {
	ignored  func(string) bool
	cwd      string
	rootOnce sync.Once // root: the repository root of cwd (cwdRoot)
	root     string
	files    map[string]*Found // by OS path
	byDisp   map[string]*Found // by display path
	byDir    map[dirKind]*Found
	declared map[string]bool // config.yaml paths declared in .ckptlint.hcl
	overlay  map[string][]byte
	fs       inputfs.FS
	bound    *inputfs.Boundary // where files may be read from; nil: anywhere
	budget   *inputfs.Budget   // bytes one run may read
	note     func(string)      // one-line notes for what is not read
	// literal reads template placeholders as literal text
	// (--placeholders=literal).
	literal bool
	unread  []string // paths that could not be read (exit 2)
	// leftovers are the files named like a fix journal or staged file of
	// ckptlint fix found in the walk (Leftovers).
	leftovers []string
	// sources are the deployment files read (Sources), texts the
	// embedded configuration files made of them (AddText).
	sources []*Source
	texts   map[*deploy.Text]*Found
	// manifestRefused is a FlinkDeployment manifest refused by a limit
	// (refuse reports it as a manifest).
	manifestRefused string
	// pending is the prefetched read of the entry the walk visits
	// (prefetcher, take).
	pending *ahead
}

// runInputBudget is inputfs.MaxRunInput; tests lower it.
var runInputBudget int64 = inputfs.MaxRunInput

// Walk discovers the configuration files below paths ("." when none). A
// path that names a file is taken whatever its name, as long as its format
// can be told, together with the configuration files beside it.
func Walk(paths []string, opts Options) (*Tree, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	fsys := opts.FS
	if fsys == nil {
		fsys = inputfs.OS()
	}
	d := &Tree{ignored: opts.Ignored, cwd: cwd, files: map[string]*Found{}, byDisp: map[string]*Found{}, declared: map[string]bool{}, overlay: opts.Overlay,
		fs: fsys, budget: inputfs.NewBudget(runInputBudget), note: opts.Note, literal: opts.Literal}
	for _, p := range opts.Declared {
		d.declared[p] = true
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	if !opts.Unbounded {
		bpaths := paths
		if opts.BoundaryPaths != nil {
			bpaths = opts.BoundaryPaths
		}
		if d.bound, err = boundary(fsys, bpaths, opts.Named, opts.Overlay); err != nil {
			return nil, err
		}
	}
	if err := d.walk(paths); err != nil {
		return nil, err
	}
	if err := d.addOverlay(paths); err != nil {
		return nil, err
	}
	return d, nil
}

// boundary is where a run may read: the repository (or own tree) of every
// path given, and every path .ckptlint.hcl names. A path given that only
// the overlay holds (standard input linted as NAME, or as "-") stands for
// its directory, whose files the run reads beside it.
func boundary(fsys inputfs.FS, paths, named []string, overlay map[string][]byte) (*inputfs.Boundary, error) {
	b := inputfs.NewBoundary(fsys)
	for _, p := range paths {
		if _, err := fsys.Stat(p); err != nil {
			abs, aerr := filepath.Abs(p)
			if _, ok := overlay[abs]; aerr != nil || !ok {
				continue // walk reports it
			}
			if p = filepath.Dir(abs); !isDir(fsys, p) {
				continue
			}
		}
		if err := b.AddTree(p); err != nil {
			return nil, fmt.Errorf("lint %s: %w", p, err)
		}
	}
	for _, p := range named {
		b.AddNamed(p)
	}
	return b, nil
}

// notef reports something not read that is not a finding.
func (d *Tree) notef(format string, args ...any) {
	if d.note != nil {
		d.note(fmt.Sprintf(format, args...))
	}
}

// looksLikeConfig reports whether a file name is one ckptlint reads.
func (d *Tree) looksLikeConfig(base string) bool {
	return format.Conventional(base)
}

// IsFile reports whether p is a regular file, on disk or in the overlay.
func (d *Tree) IsFile(p string) bool {
	if abs, err := inputfs.AbsFrom(d.cwd, p); err == nil {
		if _, ok := d.overlay[abs]; ok {
			return true
		}
	}
	st, err := d.fs.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Stat is os.Stat, through the run's FS.
func (d *Tree) Stat(p string) (fs.FileInfo, error) { return d.fs.Stat(p) }

// FS is the file system the run reads through.
func (d *Tree) FS() inputfs.FS { return d.fs }

// addOverlay adds overlay files (files `fix` would create) that lie below
// one of paths and were not walked because they are not on disk yet.
func (d *Tree) addOverlay(paths []string) error {
	for p := range d.overlay {
		if _, ok := d.files[p]; ok {
			continue
		}
		for _, root := range paths {
			abs, err := filepath.Abs(root)
			if err != nil {
				continue
			}
			if rel, err := filepath.Rel(abs, p); err == nil && !strings.HasPrefix(rel, "..") {
				if err := d.Add(p, false); err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

// ReadAgain reads the file at the absolute path p again for the reporters
// (a file a finding names that the Tree does not hold: a version-evidence
// file, .ckptlint.hcl), as read reads it: inside the boundary only and
// below its root's handle, so a directory swapped for a symlink since
// cannot lead it out; false when it may not or cannot be read. The budget
// is not charged again.
func (d *Tree) ReadAgain(p string) ([]byte, bool) {
	real, err := d.Check(p)
	if err != nil {
		return nil, false
	}
	b, _, err := d.readReal(real, parsed.MaxFileSize)
	return b, err == nil
}

// Display renders p relative to the working directory, with slashes: as
// git shows paths, with ../ for a file above the working directory inside
// its repository (ckptlint lint .. in a subdirectory), so the reports name
// it relative to the repository root too (report.Result.RepoDir) and no
// format carries the absolute path of the checkout; a file outside that
// repository keeps its absolute path.
func (d *Tree) Display(p string) string {
	// Below the working directory, the display path of a clean absolute
	// path is its tail, which shares p's bytes: a copy per file cost 1.4 MB
	// at 10,000 config sets. filepath.Rel gives the same string.
	if tail, ok := tailBelow(d.cwd, p); ok {
		return tail
	}
	return displayRel(d.cwd, d.cwdRoot, p)
}

// cwdRoot is the repository root of the working directory ("" outside
// one), looked up (and recorded for the cache) the first time a path
// lies above the working directory.
func (d *Tree) cwdRoot() string {
	d.rootOnce.Do(func() { d.root = d.fs.RepoRoot(d.cwd) })
	return d.root
}

// displayRel is Display by filepath.Rel; root gives the repository root of
// cwd, asked only for a path above cwd.
func displayRel(cwd string, root func() string, p string) string {
	rel, err := filepath.Rel(cwd, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	if rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	if r := root(); r != "" && filepath.IsAbs(p) {
		if in, err := filepath.Rel(r, p); err == nil && in != ".." && !strings.HasPrefix(in, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

// tailBelow returns what follows dir/ in p, when both are clean absolute
// slash-separated paths, p lies below dir and the tail does not start with
// ".." (which Display does not shorten).
func tailBelow(dir, p string) (string, bool) {
	if filepath.Separator != '/' || !filepath.IsAbs(dir) || filepath.Clean(dir) != dir || filepath.Clean(p) != p {
		return "", false
	}
	n := len(dir)
	if dir != "/" {
		if len(p) <= n || p[n] != '/' {
			return "", false
		}
		n++
	}
	if len(p) <= n || !strings.HasPrefix(p, dir) || strings.HasPrefix(p[n:], "..") {
		return "", false
	}
	return p[n:], true
}

// walk collects the configuration files below each path. A path that names
// a file is taken whatever its name, as long as its format can be told.
func (d *Tree) walk(paths []string) error {
	for _, p := range paths {
		st, err := d.fs.Stat(p)
		if err != nil && !d.inOverlay(p) {
			return fmt.Errorf("lint %s: %w", p, err)
		}
		if st == nil || !st.IsDir() {
			if err := d.walkFile(p); err != nil {
				return err
			}
			continue
		}
		if err := d.walkDir(p, func(path string, e fs.DirEntry, err error) error { return d.visit(p, path, e, err) }); err != nil {
			return err
		}
	}
	return nil
}

// walkFile takes a file named on the command line, with the
// configuration files beside it.
func (d *Tree) walkFile(p string) error {
	if err := d.Add(filepath.Clean(p), true); err != nil {
		var nc *notConfigError
		if !errors.As(err, &nc) {
			return err
		}
		// pre-commit's filename filter passes every config.yaml: a file
		// that is no Flink or Hadoop configuration is skipped with one
		// note, and so are its neighbours.
		d.notef("%s; skipped", nc.Error())
		return nil
	}
	// A file named alone (a pre-commit hook passes the changed files) is
	// linted with the configuration files beside it, so a changed
	// hdfs-site.xml is judged with the Flink file that reads it.
	for _, sib := range format.FileNames() {
		sp := filepath.Join(filepath.Dir(p), sib)
		if sp != filepath.Clean(p) && d.IsFile(sp) && !d.isIgnored(sp) {
			if err := d.Add(sp, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// visit is the walk's callback for path (an entry e below root, or root
// itself), as filepath.WalkDir calls it.
func (d *Tree) visit(root, path string, e fs.DirEntry, err error) error {
	if err != nil {
		// An unreadable directory does not stop the run: everything else
		// is linted and the run ends with exit code 2.
		if e != nil && e.IsDir() && path != root {
			d.unread = append(d.unread, path)
			d.notef("%s: directory not read: %v", safetext.Path(d.Display(path)), unwrapPath(err))
			return filepath.SkipDir
		}
		return fmt.Errorf("walk %s: %w", path, err)
	}
	if e.IsDir() {
		if path != root && (skipDirs[e.Name()] || d.isIgnored(path)) {
			return filepath.SkipDir
		}
		if path != root && d.looksLikeConfig(e.Name()) {
			d.notef("%s: a directory named like a configuration file; its contents are walked, it is not read as a file", safetext.Path(d.Display(path)))
		}
		return nil
	}
	if d.isIgnored(path) {
		return nil
	}
	if isLeftover(e.Name()) {
		d.leftovers = append(d.leftovers, filepath.Clean(path))
	}
	if e.Type()&fs.ModeSymlink != 0 {
		// A symlinked configuration file is read through the link when its
		// target lies inside the repository (Add checks the boundary);
		// links to directories are not followed.
		st, err := d.fs.Stat(path)
		if err != nil {
			if d.looksLikeConfig(e.Name()) {
				// a dangling link or a loop: Add reports it
				return d.Add(filepath.Clean(path), false)
			}
			return nil
		}
		if !st.Mode().IsRegular() {
			if d.looksLikeConfig(e.Name()) {
				d.notef("%s: a symlink to %s, not a regular file; not read", safetext.Path(d.Display(path)), kindName(st.Mode()))
			}
			return nil
		}
	} else if !e.Type().IsRegular() {
		if d.looksLikeConfig(e.Name()) {
			d.notef("%s: %s, not a regular file; not read", safetext.Path(d.Display(path)), kindName(e.Type()))
		}
		return nil
	}
	return d.Add(filepath.Clean(path), false)
}

// walkDir is filepath.WalkDir over the run's FS (the same order, the same
// calls of fn: root's own Lstat entry first, a directory whose listing
// fails passed a second time with the error), so that every listing goes
// through the FS the result cache records.
func (d *Tree) walkDir(root string, fn fs.WalkDirFunc) error {
	info, err := d.fs.Lstat(root)
	if err != nil {
		err = fn(root, nil, err)
	} else {
		e := fs.FileInfoToDirEntry(info)
		p := d.startPrefetch(root, e)
		err = d.walkEntry(root, e, fn, p)
		p.close()
	}
	if errors.Is(err, filepath.SkipDir) || errors.Is(err, filepath.SkipAll) {
		return nil
	}
	return err
}

// walkEntry is filepath's walkDir (go1.26 src/path/filepath/path.go).
// Listings and reads come from the prefetcher p when it has them.
func (d *Tree) walkEntry(path string, e fs.DirEntry, fn fs.WalkDirFunc, p *prefetcher) error {
	a := p.next(path)
	d.pending = a
	err := fn(path, e, nil)
	d.pending = nil
	if err != nil || !e.IsDir() {
		if errors.Is(err, filepath.SkipDir) && e.IsDir() {
			err = nil // a directory skipped
		}
		return err
	}
	var entries []fs.DirEntry
	if a != nil && a.list {
		entries, err = a.entries, a.err
	} else {
		entries, err = d.fs.ReadDir(path)
	}
	if err != nil {
		if err = fn(path, e, err); err != nil {
			if errors.Is(err, filepath.SkipDir) && e.IsDir() {
				err = nil
			}
			return err
		}
	}
	for _, sub := range entries {
		if err := d.walkEntry(filepath.Join(path, sub.Name()), sub, fn, p); err != nil {
			if errors.Is(err, filepath.SkipDir) {
				break
			}
			return err
		}
	}
	return nil
}

// isLeftover reports whether a file name is the journal ckptlint fix kept
// in the work tree before issue 25, or a file it stages beside a target.
func isLeftover(name string) bool {
	if name == inputfs.TreeJournalName {
		return true
	}
	_, ok := inputfs.StagedTarget(name)
	return ok
}

// Leftovers are the paths of the walk named like a fix journal
// (inputfs.TreeJournalName) or a staged file of ckptlint fix
// (".NAME.ckptlint-<digits>"), in the order found. fix never trusts them;
// lint reports them (CKPT005).
func (d *Tree) Leftovers() []string { return d.leftovers }

// inOverlay reports whether path is a file of the overlay (standard input
// linted as a file that need not exist on disk).
func (d *Tree) inOverlay(path string) bool {
	if len(d.overlay) == 0 {
		return false
	}
	abs, err := inputfs.AbsFrom(d.cwd, path)
	if err != nil {
		return false
	}
	_, ok := d.overlay[abs]
	return ok
}

func (d *Tree) isIgnored(path string) bool {
	return d.ignored != nil && d.ignored(path)
}

func isDir(fsys inputfs.FS, p string) bool {
	st, err := fsys.Stat(p)
	return err == nil && st.IsDir()
}
