package lint

import (
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
	claim bool                   // a Flink set uses it
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
				return err
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
				return fmt.Errorf("walk %s: %w", path, err)
			}
			if e.IsDir() {
				if path != p && (skipDirs[e.Name()] || d.ignored(path)) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.ignored(path) {
				return nil
			}
			if e.Type()&fs.ModeSymlink != 0 {
				// A symlinked configuration file is read through the link
				// (fix refuses to write through one that leaves the
				// repository); links to directories are not followed.
				st, err := os.Stat(path)
				if err != nil && d.classifyName(e.Name()) != 0 {
					return fmt.Errorf("%s: a symlink whose target cannot be read: %w", path, err)
				}
				if err != nil || !st.Mode().IsRegular() {
					return nil
				}
			} else if !e.Type().IsRegular() {
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
// named on the command line: an unknown kind is then an error.
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
	var st fs.FileInfo
	if !inOverlay {
		st, err = os.Stat(path)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
	}
	base := filepath.Base(path)
	ext := filepath.Ext(base)
	interesting := base == "core-site.xml" || base == "hdfs-site.xml" || ext == ".yaml" || ext == ".yml"
	if !interesting && !explicit {
		return nil
	}
	if !inOverlay && st.Size() > cfgfile.MaxFileSize {
		f := &found{path: path, disp: d.displayPath(path)}
		f.kind = d.classifyName(base)
		if f.kind == 0 {
			if explicit {
				return fmt.Errorf("%s: larger than %d bytes and not a known configuration file", path, cfgfile.MaxFileSize)
			}
			return nil
		}
		f.file = &cfgfile.File{Path: f.disp, Err: &cfgfile.ParseError{File: f.disp, Pos: posOne,
			Msg: fmt.Sprintf("file is %d bytes; ckptlint reads configuration files up to %d bytes", st.Size(), cfgfile.MaxFileSize)}}
		d.keep(f)
		return nil
	}
	src := ov
	if !inOverlay {
		if src, err = os.ReadFile(path); err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
	}
	disp := d.displayPath(path)
	k, cfg := d.classify(path, disp, src)
	if k == 0 {
		if explicit {
			return fmt.Errorf("%s: not a Flink or Hadoop configuration file ckptlint knows (flink-conf.yaml, config.yaml with Flink keys, a FlinkDeployment manifest, core-site.xml, hdfs-site.xml)", d.displayPath(path))
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
		f.file = hadoopxml.Parse(f.disp, src, hadoopxml.Options{ReadFile: readIncluded})
	}
	d.keep(f)
	return nil
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
// file's directory by the parser. Only regular files up to the size cap are
// read.
func readIncluded(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if st.Size() > cfgfile.MaxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", cfgfile.MaxFileSize)
	}
	return os.ReadFile(p)
}

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
