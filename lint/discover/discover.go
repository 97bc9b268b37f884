// Package discover is the first step of a lint run: it walks the paths it
// is given, tells each file's kind from its name and content, reads it
// within the run's boundary and input budget (lint/inputfs), parses it
// keeping positions and marks its template placeholders (lint/template).
// The result is a Tree: the discovered files by path and by directory, in
// a stable order, with the paths that could not be read. lint/assemble
// groups the Tree's files into config sets.
package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/lint/format"
	"github.com/ckptlint/ckptlint/lint/format/flinkyaml"
	"github.com/ckptlint/ckptlint/lint/inputfs"
	"github.com/ckptlint/ckptlint/lint/parsed"
)

// skipDirs are never walked.
var skipDirs = map[string]bool{".git": true, "vendor": true, "node_modules": true}

// Found is a discovered, parsed file.
type Found struct {
	Path string // OS path, absolute and clean
	Disp string // display path: slash-separated, relative to the working dir when below it
	// Format is the file's format (lint/format has all it implies).
	Format parsed.Format
	File   *parsed.File           // nil for a manifest
	Deps   []flinkyaml.Deployment // a manifest's FlinkDeployments
	Err    *parsed.ParseError     // a manifest's whole-file error
	// Template is set when a whole manifest is skipped as a template.
	Template *parsed.Template
	// Claimed is set by assembly when a Flink set reads this Hadoop file.
	Claimed bool
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
	// Observer records every file read, directory listed and path probed
	// (the result cache, lint/cache); nil records nothing.
	Observer *inputfs.Observer
	// BoundaryPaths, when set, are the paths the read boundary is made
	// of instead of the walked paths: the result cache's incremental run
	// (lint/cached.go) walks a few directories of an earlier run over
	// BoundaryPaths and must read what that run could read.
	BoundaryPaths []string
	// Lazy frees the parsed entries of every file that can parse them
	// again from its bytes right after it is classified (parsed.File
	// SetReload): assembly and evaluation Hold a file while they read it.
	// A streaming run sets it (lint.Options.Release); what a run finds
	// does not change (TestLazyReloadSameEntries, TestReleaseSameFindings).
	Lazy bool
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
	byDir    map[dirKind]*Found
	declared map[string]bool // config.yaml paths declared in .ckptlint.hcl
	overlay  map[string][]byte
	bound    *inputfs.Boundary // where files may be read from
	obs      *inputfs.Observer // records what the run looked at; nil records nothing
	budget   *inputfs.Budget   // bytes one run may read
	note     func(string)      // one-line notes for what is not read
	// literal reads template placeholders as literal text
	// (--placeholders=literal).
	literal bool
	lazy    bool
	holds   holds
	// raw are the bytes read of the files whose parsed Src is their
	// decoded text (a Hadoop file in UTF-16 or a single-byte charset).
	raw map[*parsed.File][]byte
	// kept are the bytes of the files read whose parsed form does not hold
	// them, by display path (Kept).
	kept map[string][]byte
	// parsers are the shared parse functions of files outside a Helm
	// chart, by format (parser).
	parsers map[parsed.Format]func(*parsed.File) *parsed.File
	unread  []string // paths that could not be read (exit 2)
	// leftovers are the files named like a fix journal or staged file of
	// ckptlint fix found in the walk (Leftovers).
	leftovers []string
	// manifestRefused is a FlinkDeployment manifest refused by a limit
	// (refuse reports it as a manifest).
	manifestRefused string
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
	d := &Tree{ignored: opts.Ignored, cwd: cwd, files: map[string]*Found{}, declared: map[string]bool{}, overlay: opts.Overlay,
		budget: inputfs.NewBudget(runInputBudget), note: opts.Note, literal: opts.Literal, lazy: opts.Lazy, obs: opts.Observer}
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
		if d.bound, err = boundary(bpaths, opts.Named, d.obs); err != nil {
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
// path given, and every path .ckptlint.hcl names.
func boundary(paths, named []string, obs *inputfs.Observer) (*inputfs.Boundary, error) {
	b := &inputfs.Boundary{}
	for _, p := range paths {
		if _, err := obs.Stat(p); err != nil {
			continue // walk reports it
		}
		// What AddTree looks at: the real path, its type and the
		// repository roots above it.
		obs.Real(p)
		for _, q := range []string{p, filepath.Dir(p)} {
			obs.RepoRoot(q)
			if r, err := inputfs.Real(q); err == nil {
				obs.RepoRoot(r)
			}
		}
		if err := b.AddTree(p); err != nil {
			return nil, fmt.Errorf("lint %s: %w", p, err)
		}
	}
	for _, p := range named {
		obs.Real(p)
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
	st, err := d.obs.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Stat is os.Stat, recorded for the result cache.
func (d *Tree) Stat(p string) (fs.FileInfo, error) { return d.obs.Stat(p) }

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

// Kept returns the bytes of a file discovery read whose parsed form does
// not hold them (display path disp): a manifest read as no FlinkDeployment
// (a whole-file parse error, or skipped as a template: Found.Err or
// Found.Template), a file refused for its content (its lines, its YAML
// flow collections). The reporters show its text, as a run answered from
// the result cache does. nil for any other file: one never read (outside
// the repository, too large, over the run's input budget, unreadable) or
// one whose parsed form has its bytes (parsed.File.Src).
func (d *Tree) Kept(disp string) []byte { return d.kept[disp] }

// keepBytes records the bytes read of the file at display path disp
// (Kept).
func (d *Tree) keepBytes(disp string, src []byte) {
	if d.kept == nil {
		d.kept = map[string][]byte{}
	}
	d.kept[disp] = src
}

// MayRead reports whether the run may read the file at p (its boundary,
// as Check), without recording the question.
func (d *Tree) MayRead(p string) bool {
	_, err := d.bound.Check(p)
	return err == nil
}

// ReadAgain reads the file at the absolute path p again for the reporters
// (lint sourceNotes: a file a finding names that no set holds the bytes
// of), as read reads it: inside the boundary only and below its root's
// handle, so a directory swapped for a symlink since cannot lead it out;
// nil when it may not or cannot be read. It is not recorded, and the
// budget is not charged again.
func (d *Tree) ReadAgain(p string) ([]byte, bool) {
	real, err := d.bound.Check(p)
	if err != nil {
		return nil, false
	}
	b, _, err := d.bound.ReadRegularInfo(real, parsed.MaxFileSize)
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
	d.rootOnce.Do(func() { d.root = d.obs.RepoRoot(d.cwd) })
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
		st, err := d.obs.Stat(p)
		if err != nil && !d.inOverlay(p) {
			return fmt.Errorf("lint %s: %w", p, err)
		}
		if st == nil || !st.IsDir() {
			if err := d.Add(filepath.Clean(p), true); err != nil {
				var nc *notConfigError
				if !errors.As(err, &nc) {
					return err
				}
				// pre-commit's filename filter passes every config.yaml: a
				// file that is no Flink or Hadoop configuration is skipped
				// with one note, and so are its neighbours.
				d.notef("%s; skipped", nc.Error())
				continue
			}
			// A file named alone (a pre-commit hook passes the changed
			// files) is linted with the configuration files beside it, so
			// a changed hdfs-site.xml is judged with the Flink file that
			// reads it.
			for _, sib := range format.FileNames() {
				sp := filepath.Join(filepath.Dir(p), sib)
				if sp != filepath.Clean(p) && d.IsFile(sp) && !d.isIgnored(sp) {
					if err := d.Add(sp, false); err != nil {
						return err
					}
				}
			}
			continue
		}
		var descended []string
		err = filepath.WalkDir(p, func(path string, e fs.DirEntry, err error) error {
			if path != p && e != nil && err == nil {
				d.obs.WalkEntry(path, e)
			}
			if err != nil {
				// An unreadable directory does not stop the run: everything
				// else is linted and the run ends with exit code 2.
				if e != nil && e.IsDir() && path != p {
					d.unread = append(d.unread, path)
					d.notef("%s: directory not read: %v", safetext.Path(d.Display(path)), unwrapPath(err))
					return filepath.SkipDir
				}
				return fmt.Errorf("walk %s: %w", path, err)
			}
			if e.IsDir() {
				if path != p && (skipDirs[e.Name()] || d.isIgnored(path)) {
					return filepath.SkipDir
				}
				if path != p && d.looksLikeConfig(e.Name()) {
					d.notef("%s: a directory named like a configuration file; its contents are walked, it is not read as a file", safetext.Path(d.Display(path)))
				}
				d.obs.EnterDir(path) // before WalkDir lists it
				descended = append(descended, path)
				return nil
			}
			if d.isIgnored(path) {
				return nil
			}
			if isLeftover(e.Name()) {
				d.leftovers = append(d.leftovers, filepath.Clean(path))
			}
			if e.Type()&fs.ModeSymlink != 0 {
				// A symlinked configuration file is read through the link
				// when its target lies inside the repository (add checks the
				// boundary); links to directories are not followed.
				st, err := d.obs.Stat(path)
				if err != nil {
					if d.looksLikeConfig(e.Name()) {
						// a dangling link or a loop: add reports it
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
		})
		if err != nil {
			return err
		}
		d.obs.WalkDone(descended)
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
