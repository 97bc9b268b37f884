package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/lint/cfgfile"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/format/flinkconf"
	"github.com/ckptlint/ckptlint/lint/format/flinkyaml"
	"github.com/ckptlint/ckptlint/lint/format/hadoopxml"
	"github.com/ckptlint/ckptlint/lint/inputfs"
)

// siblingNames are the configuration files read together from one
// directory.
var siblingNames = []string{"flink-conf.yaml", "config.yaml", "core-site.xml", "hdfs-site.xml"}

// skipDirs are never walked.
var skipDirs = map[string]bool{".git": true, "vendor": true, "node_modules": true}

// kind is what a discovered file is.
type kind int

const (
	kindFlinkConf kind = iota + 1
	kindConfigYAML
	kindManifest
	kindCoreSite
	kindHDFSSite
)

// found is a discovered, parsed file.
type found struct {
	path  string // OS path, cleaned
	disp  string // display path: slash-separated, relative to the working dir when below it
	kind  kind
	file  *cfgfile.File
	deps  []flinkyaml.Deployment // manifests
	perr  *cfgfile.ParseError    // manifests: whole-file error
	tmpl  *cfgfile.Template      // manifests: the whole file is skipped as a template
	claim bool                   // a Flink set uses it
}

// notConfigError is a file named on the command line that is no Flink or
// Hadoop configuration ckptlint reads.
type notConfigError struct{ path string }

func (e *notConfigError) Error() string {
	return e.path + ": not a Flink or Hadoop configuration file ckptlint knows (flink-conf.yaml, config.yaml with Flink keys, a FlinkDeployment manifest, core-site.xml, hdfs-site.xml)"
}

// discoverer walks paths and classifies files.
type discoverer struct {
	cfg      *config.Config
	cwd      string
	files    map[string]*found // by OS path
	byDir    map[dirKind]*found
	order    []string
	declared map[string]bool // config.yaml paths declared in .ckptlint.hcl
	overlay  map[string][]byte
	bound    *inputfs.Boundary // where files may be read from
	budget   *inputfs.Budget   // bytes one run may read
	note     func(string)      // one-line notes for what is not read
	// literal reads template placeholders as literal text
	// (--placeholders=literal).
	literal bool
	unread  []string // paths that could not be read (exit 2)
	// manifestRefused is a FlinkDeployment manifest refused by a limit
	// (refuse reports it as a manifest).
	manifestRefused string
}

// notef reports something not read that is not a finding.
func (d *discoverer) notef(format string, args ...any) {
	if d.note != nil {
		d.note(fmt.Sprintf(format, args...))
	}
}

// looksLikeConfig reports whether a file name is one ckptlint reads.
func (d *discoverer) looksLikeConfig(base string) bool {
	return d.classifyName(base) != 0 || base == "config.yaml"
}

// isFile reports whether p is a regular file, on disk or in the overlay.
func (d *discoverer) isFile(p string) bool {
	if abs, err := filepath.Abs(p); err == nil {
		if _, ok := d.overlay[abs]; ok {
			return true
		}
	}
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// addOverlay adds overlay files (files `fix` would create) that lie below
// one of paths and were not walked because they are not on disk yet.
func (d *discoverer) addOverlay(paths []string) error {
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
				if err := d.add(p, false); err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

// displayPath renders p relative to the working directory, with slashes.
func (d *discoverer) displayPath(p string) string {
	if rel, err := filepath.Rel(d.cwd, p); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// walk collects the configuration files below each path. A path that names
// a file is taken whatever its name, as long as its format can be told.
func (d *discoverer) walk(paths []string) error {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil && !d.inOverlay(p) {
			return fmt.Errorf("lint %s: %w", p, err)
		}
		if st == nil || !st.IsDir() {
			if err := d.add(filepath.Clean(p), true); err != nil {
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
			for _, sib := range siblingNames {
				sp := filepath.Join(filepath.Dir(p), sib)
				if sp != filepath.Clean(p) && d.isFile(sp) && !d.ignored(sp) {
					if err := d.add(sp, false); err != nil {
						return err
					}
				}
			}
			continue
		}
		err = filepath.WalkDir(p, func(path string, e fs.DirEntry, err error) error {
			if err != nil {
				// An unreadable directory does not stop the run: everything
				// else is linted and the run ends with exit code 2.
				if e != nil && e.IsDir() && path != p {
					d.unread = append(d.unread, path)
					d.notef("%s: directory not read: %v", d.displayPath(path), unwrapPath(err))
					return filepath.SkipDir
				}
				return fmt.Errorf("walk %s: %w", path, err)
			}
			if e.IsDir() {
				if path != p && (skipDirs[e.Name()] || d.ignored(path)) {
					return filepath.SkipDir
				}
				if path != p && d.looksLikeConfig(e.Name()) {
					d.notef("%s: a directory named like a configuration file; its contents are walked, it is not read as a file", d.displayPath(path))
				}
				return nil
			}
			if d.ignored(path) {
				return nil
			}
			if e.Type()&fs.ModeSymlink != 0 {
				// A symlinked configuration file is read through the link
				// when its target lies inside the repository (add checks the
				// boundary); links to directories are not followed.
				st, err := os.Stat(path)
				if err != nil {
					if d.looksLikeConfig(e.Name()) {
						// a dangling link or a loop: add reports it
						return d.add(filepath.Clean(path), false)
					}
					return nil
				}
				if !st.Mode().IsRegular() {
					if d.looksLikeConfig(e.Name()) {
						d.notef("%s: a symlink to %s, not a regular file; not read", d.displayPath(path), kindName(st.Mode()))
					}
					return nil
				}
			} else if !e.Type().IsRegular() {
				if d.looksLikeConfig(e.Name()) {
					d.notef("%s: %s, not a regular file; not read", d.displayPath(path), kindName(e.Type()))
				}
				return nil
			}
			return d.add(filepath.Clean(path), false)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// inOverlay reports whether path is a file of the overlay (standard input
// linted as a file that need not exist on disk).
func (d *discoverer) inOverlay(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	_, ok := d.overlay[abs]
	return ok
}

func (d *discoverer) ignored(path string) bool {
	if d.cfg == nil || d.cfg.Dir == "" {
		return false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(d.cfg.Dir, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	return d.cfg.Ignored(filepath.ToSlash(rel))
}

// classify tells a file's kind from its name and, for generic YAML names,
// its content. A config.yaml is parsed to be told, and that parse is
// returned so it is not parsed again.
func (d *discoverer) classify(path, disp string, src []byte) (kind, *cfgfile.File) {
	base := filepath.Base(path)
	if k := d.classifyName(base); k != 0 {
		return k, nil
	}
	ext := filepath.Ext(base)
	if ext != ".yaml" && ext != ".yml" {
		return 0, nil
	}
	if flinkyaml.IsManifest(src) {
		return kindManifest, nil
	}
	if base == "config.yaml" {
		f := flinkyaml.ParseConfig(disp, src)
		if d.declared[path] || flinkyaml.IsFlinkConfig(f) {
			return kindConfigYAML, f
		}
	}
	return 0, nil
}

// add reads, classifies and parses one file. explicit is true for a file
// named on the command line or in .ckptlint.hcl: an unknown kind is then an
// error. A file that cannot be read never stops the run: a file named like
// a configuration file becomes a CKPT000 finding, anything else a note.
func (d *discoverer) add(path string, explicit bool) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	path = abs
	if _, ok := d.files[path]; ok {
		return nil
	}
	ov, inOverlay := d.overlay[path]
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	interesting := base == "core-site.xml" || base == "hdfs-site.xml" || ext == ".yaml" || ext == ".yml"
	if !interesting && !explicit {
		return nil
	}
	src := ov
	if !inOverlay {
		if src, err = d.read(path); err != nil {
			return d.notRead(path, explicit, err)
		}
	}
	disp := d.displayPath(path)
	if n := bytes.Count(src, []byte{'\n'}) + 1; n > cfgfile.MaxLines {
		return d.refuse(path, explicit, fmt.Sprintf("file has %d lines; ckptlint reads configuration files up to %d lines", n, cfgfile.MaxLines), false)
	}
	if (ext == ".yaml" || ext == ".yml") && !flinkconf.Detect(base) {
		// A YAML parser builds a node per item: a flow collection packs
		// millions of them on one line. Every node beyond one per line
		// needs a ',', '[' or '{'.
		n := countAny(src, ",[{")
		if depth := flowDepth(src); depth > maxFlowDepth && n <= maxFlowItems {
			// Flink flattens nested mappings into dotted keys: each level
			// repeats every key above it, so cost grows with depth squared.
			if explicit || base == "config.yaml" || flinkyaml.IsManifest(src) {
				if flinkyaml.IsManifest(src) {
					d.manifestRefused = path
				}
				return d.refuse(path, true, fmt.Sprintf("YAML flow collections ('[' or '{') nested %d levels deep; ckptlint reads up to %d", depth, maxFlowDepth), false)
			}
			return nil
		}
		if n > maxFlowItems {
			if explicit || base == "config.yaml" || flinkyaml.IsManifest(src) {
				if flinkyaml.IsManifest(src) {
					d.manifestRefused = path
				}
				return d.refuse(path, true, fmt.Sprintf("file has %d flow-collection items (',', '[' or '{'); ckptlint reads YAML files with up to %d", n, maxFlowItems), false)
			}
			return nil
		}
	}
	k, cfg := d.classify(path, disp, src)
	if k == 0 {
		if explicit {
			return &notConfigError{path: d.displayPath(path)}
		}
		return nil
	}
	f := &found{path: path, disp: disp, kind: k}
	switch k {
	case kindFlinkConf:
		f.file = flinkconf.Parse(f.disp, src)
	case kindConfigYAML:
		f.file = cfg
	case kindManifest:
		f.deps, f.perr = flinkyaml.ParseManifests(f.disp, src)
	case kindCoreSite, kindHDFSSite:
		// The parser joins a relative href to the including file's path as
		// given (its display path, relative to the working directory).
		f.file = hadoopxml.Parse(f.disp, src, d.hadoopOptions(false))
	}
	if f.file != nil && len(f.file.Entries) > cfgfile.MaxEntries {
		// Every key becomes a value in the policy input: the cost of a set
		// grows with its keys, not its bytes.
		f.file = &cfgfile.File{Path: f.disp, Format: f.file.Format, Src: src, Err: &cfgfile.ParseError{File: f.disp, Pos: posOne,
			Msg: fmt.Sprintf("file has %d keys; ckptlint reads configuration files of up to %d keys", len(f.file.Entries), cfgfile.MaxEntries)}}
	}
	d.markTemplates(f, src)
	d.keep(f)
	return nil
}

// maxFlowItems bounds the flow-collection items of a YAML file (see add).
const maxFlowItems = 4 * cfgfile.MaxEntries

// maxFlowDepth bounds the nesting of YAML flow collections (see add).
const maxFlowDepth = 64

// flowDepth is the deepest nesting of '[' and '{' in src, counted on the
// bytes alone (brackets in quotes and comments count too: an over-count
// only matters past maxFlowDepth).
func flowDepth(src []byte) int {
	depth, deepest := 0, 0
	for _, c := range src {
		switch c {
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// countAny counts the bytes of src that are in chars.
func countAny(src []byte, chars string) int {
	n := 0
	for _, c := range []byte(chars) {
		n += bytes.Count(src, []byte{c})
	}
	return n
}

// read resolves path once (symlinks included), checks it against the
// boundary and the run's budget, and reads it when it is a regular file.
func (d *discoverer) read(path string) ([]byte, error) {
	real, err := d.bound.Check(path)
	if err != nil {
		return nil, err
	}
	src, err := inputfs.ReadRegular(real, cfgfile.MaxFileSize)
	if err != nil {
		return nil, err
	}
	if err := d.budget.Take(int64(len(src))); err != nil {
		return nil, err
	}
	return src, nil
}

// notRead turns a read failure into what the user sees: a path that is not
// a regular file is a note; one outside the repository or too large is a
// CKPT000 finding; one that could not be read (permissions, I/O, the
// run's budget) is a CKPT000 finding and makes the run end with exit 2.
func (d *discoverer) notRead(path string, explicit bool, err error) error {
	var nr *inputfs.NotRegularError
	var tl *inputfs.TooLargeError
	var be *inputfs.BudgetError
	switch {
	case errors.As(err, &nr):
		if explicit || d.looksLikeConfig(filepath.Base(path)) {
			d.notef("%s: %s, not a regular file; not read", d.displayPath(path), nr.Kind)
		}
		return nil
	case inputfs.IsOutside(err):
		return d.refuse(path, explicit, "not read: "+d.outsideReason(err), false)
	case errors.As(err, &tl):
		if !explicit && d.classifyName(filepath.Base(path)) == 0 {
			return nil // a large YAML file that is not a configuration file
		}
		return d.refuse(path, explicit, tl.Error(), false)
	case errors.As(err, &be):
		return d.refuse(path, explicit, be.Error(), true)
	}
	return d.refuse(path, explicit, "cannot read the file: "+strings.TrimPrefix(unwrapPath(err).Error(), "EvalSymlinks: "), true)
}

// refuse records a file that is not linted: a CKPT000 finding when its
// name tells its kind, else a note. unread marks a file that could not be
// read at all (exit 2).
func (d *discoverer) refuse(path string, explicit bool, msg string, unread bool) error {
	disp := d.displayPath(path)
	if unread {
		d.unread = append(d.unread, path)
	}
	k := d.classifyName(filepath.Base(path))
	perr := &cfgfile.ParseError{File: disp, Pos: posOne, Msg: msg, Unread: unread}
	switch {
	case k != 0:
	case d.manifestRefused == path:
		d.keep(&found{path: path, disp: disp, kind: kindManifest, perr: perr})
		return nil
	case filepath.Base(path) == "config.yaml":
		k = kindConfigYAML
	default:
		if explicit || unread {
			d.notef("%s: %s", disp, msg)
		}
		return nil
	}
	f := &found{path: path, disp: disp, kind: k}
	f.file = &cfgfile.File{Path: disp, Err: perr}
	d.keep(f)
	return nil
}

// outsideReason says why a path outside the boundary is not read, with
// paths relative to the working directory where that is shorter.
func (d *discoverer) outsideReason(err error) string {
	var oe *inputfs.OutsideError
	if !errors.As(err, &oe) {
		return err.Error()
	}
	roots := make([]string, len(oe.Roots))
	for i, r := range oe.Roots {
		roots[i] = filepath.ToSlash(r)
	}
	via := ""
	if abs, _ := filepath.Abs(oe.Path); abs != oe.Resolved {
		via = " (it resolves to " + filepath.ToSlash(oe.Resolved) + ")"
	}
	return fmt.Sprintf("it lies outside the repository%s; ckptlint reads only files inside %s or named on the command line or in .ckptlint.hcl",
		via, strings.Join(roots, ", "))
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

func kindName(m fs.FileMode) string { return inputfs.KindOf(m) }

// markTemplates applies the placeholder recogniser to a parsed file
// (docs/templates.md), unless placeholders are literal.
func (d *discoverer) markTemplates(f *found, src []byte) {
	if d.literal {
		return
	}
	chart, _ := helmChartTemplate(f.path)
	if chart != "" {
		chart = d.displayPath(chart)
	}
	if f.kind != kindManifest {
		markTemplates(f.file, chart)
		return
	}
	whole := &cfgfile.File{Path: f.disp, Format: cfgfile.FlinkDeployment, Src: src}
	if f.perr != nil {
		whole.Err = f.perr
	}
	if chart != "" || f.perr != nil {
		markTemplates(whole, chart)
		if skippedTemplate(whole) {
			f.tmpl, f.deps = whole.Template, nil
			return
		}
	}
	for i := range f.deps {
		markTemplates(f.deps[i].Config, "")
	}
}

func (d *discoverer) classifyName(base string) kind {
	switch {
	case flinkconf.Detect(base):
		return kindFlinkConf
	case base == "core-site.xml":
		return kindCoreSite
	case base == "hdfs-site.xml":
		return kindHDFSSite
	}
	return 0
}

// dirKind indexes the first file of a kind in a directory.
type dirKind struct {
	dir  string
	kind kind
}

func (d *discoverer) keep(f *found) {
	d.files[f.path] = f
	if d.byDir == nil {
		d.byDir = map[dirKind]*found{}
	}
	if k := (dirKind{filepath.Dir(f.path), f.kind}); d.byDir[k] == nil {
		d.byDir[k] = f
	}
	d.order = append(d.order, f.path)
}

// readIncluded reads an xi:include target, already joined to the including
// file's directory by the parser. A target outside the boundary, or one
// that is not a regular file, is refused (the include becomes a
// xml-include-not-followed notice naming the href and why); only regular
// files up to the size cap are read, and they count against the run's
// budget.
func (d *discoverer) readIncluded(p string) ([]byte, error) {
	real, err := d.bound.Check(p)
	if err != nil {
		if inputfs.IsOutside(err) {
			return nil, refusedInclude{errors.New(d.outsideReason(err))}
		}
		return nil, err
	}
	src, err := inputfs.ReadRegular(real, cfgfile.MaxFileSize)
	var nr *inputfs.NotRegularError
	if errors.As(err, &nr) {
		return nil, refusedInclude{fmt.Errorf("it is %s, not a regular file", nr.Kind)}
	}
	if err != nil {
		return nil, err
	}
	if err := d.budget.Take(int64(len(src))); err != nil {
		d.unread = append(d.unread, p)
		return nil, err
	}
	return src, nil
}

// refusedInclude is an include target ckptlint must not read.
type refusedInclude struct{ err error }

func (r refusedInclude) Error() string        { return r.err.Error() }
func (r refusedInclude) Is(target error) bool { return target == hadoopxml.ErrNotFollowed }

// inDir returns the discovered file of kind k in directory dir, or nil.
func (d *discoverer) inDir(dir string, k kind) *found {
	return d.byDir[dirKind{dir, k}]
}

// sortedPaths returns discovered paths in a stable order.
func (d *discoverer) sortedPaths() []string {
	out := slices.Clone(d.order)
	slices.Sort(out)
	return out
}
