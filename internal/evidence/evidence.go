// Package evidence finds the Flink and Hadoop versions a repository pins
// outside its configuration files: container images (Dockerfile FROM,
// docker-compose, Kubernetes manifests, Helm values.yaml), build files
// (Maven pom.xml, Gradle) and distribution tarball names in shell scripts.
// Each piece of evidence records the file and line it came from.
//
// The search looks only at the directory of a config set and its parents up
// to the repository root (never above it, never into sibling or child
// directories), reads only regular files (no symlinks), and is bounded in
// files and bytes (Limits). Files it cannot read or parse are skipped and
// noted, never fatal. docs/versions.md documents the sources and the order.
package evidence

import (
	"cmp"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/deploy/cm"
	"github.com/ckptlint/ckptlint/internal/deploy/dockerfile"
	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// Product names the software a version belongs to.
const (
	Flink  = "flink"
	Hadoop = "hadoop"
)

// Kind is a class of evidence, strongest first (the order of Rank).
const (
	KindImage  = "image"  // a container image tag
	KindBuild  = "build"  // Maven or Gradle
	KindScript = "script" // a tarball name or a *_VERSION assignment in a script
)

// Item is one piece of version evidence.
type Item struct {
	Product string // Flink or Hadoop
	Version string // as written: "1.17.1", "1.10.0"
	Kind    string // KindImage, KindBuild or KindScript
	What    string // what was read: "image flink:1.17.1-scala_2.12", "flink.version 1.17.1 in pom.xml"
	Path    string // absolute path of the file
	Line    int
	Dist    int // directories above the config set's directory (0: beside it)
	// Deployment is set on an image a FlinkDeployment document names (its
	// spec.image, a pod template's container): the image of that
	// deployment's processes only, which another config set in the same
	// directory does not run (versions.Resolve leaves it out).
	Deployment bool
}

// Note is a file the search skipped, with why.
type Note struct {
	Path   string
	Reason string
}

// Limits bound the search.
type Limits struct {
	MaxFiles      int   // candidate files read in one run
	MaxFileBytes  int64 // larger files are skipped
	MaxTotalBytes int64 // bytes read in one run
}

// DefaultLimits are generous for a repository and small for a machine:
// 1,000 files, 1 MiB each, 32 MiB in all.
var DefaultLimits = Limits{MaxFiles: 1000, MaxFileBytes: 1 << 20, MaxTotalBytes: 32 << 20}

// Finder searches directories once each and caches what it found. It is
// not safe for concurrent use.
type Finder struct {
	// Allow, when set, is asked before a directory is searched: the run's
	// read boundary (internal/inputfs). The climb stops at the first directory
	// it refuses.
	Allow func(dir string) bool
	// FS is the file system searched (nil: inputfs.OS()), the run's own,
	// which the result cache records.
	FS    inputfs.FS
	lim   Limits
	files int
	bytes int64
	dirs  map[string][]Item
	notes map[string][]Note
}

// NewFinder returns a Finder with limits lim (zero fields take DefaultLimits).
func NewFinder(lim Limits) *Finder {
	lim.MaxFiles = cmp.Or(lim.MaxFiles, DefaultLimits.MaxFiles)
	lim.MaxFileBytes = cmp.Or(lim.MaxFileBytes, DefaultLimits.MaxFileBytes)
	lim.MaxTotalBytes = cmp.Or(lim.MaxTotalBytes, DefaultLimits.MaxTotalBytes)
	return &Finder{lim: lim, dirs: map[string][]Item{}, notes: map[string][]Note{}}
}

// Near returns the evidence in dir and its parents up to root (inclusive),
// ordered by Rank, and the files skipped on the way. An empty root, or a
// root dir is not under, searches dir alone.
func (f *Finder) Near(dir, root string) ([]Item, []Note) {
	dir = filepath.Clean(dir)
	var items []Item
	var notes []Note
	for dist, d := 0, dir; ; dist++ {
		if f.Allow != nil && !f.Allow(d) {
			break
		}
		for _, it := range f.scanDir(d) {
			it.Dist = dist
			items = append(items, it)
		}
		notes = append(notes, f.notes[d]...)
		if root == "" || d == filepath.Clean(root) || !within(d, root) {
			break
		}
		p := filepath.Dir(d)
		if p == d {
			break
		}
		d = p
	}
	slices.SortStableFunc(items, Rank)
	return items, notes
}

// Rank orders evidence: images before build files before scripts, then the
// nearer directory, then file and line.
func Rank(a, b Item) int {
	return cmp.Or(
		cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)),
		cmp.Compare(a.Dist, b.Dist),
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Line, b.Line),
	)
}

func kindRank(k string) int {
	switch k {
	case KindImage:
		return 0
	case KindBuild:
		return 1
	}
	return 2
}

func within(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// scanDir reads the candidate files of one directory (not its children).
func (f *Finder) scanDir(dir string) []Item {
	if items, ok := f.dirs[dir]; ok {
		return items
	}
	var items []Item
	entries, err := f.fs().ReadDir(dir)
	if err != nil {
		f.notes[dir] = append(f.notes[dir], Note{Path: dir, Reason: "directory not readable: " + err.Error()})
	}
	for _, e := range entries {
		parse := parserFor(e.Name())
		if parse == nil || !e.Type().IsRegular() {
			continue // symlinks are not followed: they may lead out of the repository
		}
		path := filepath.Join(dir, e.Name())
		src, ok := f.read(dir, path)
		if !ok {
			continue
		}
		found, err := safeParse(parse, path, src)
		if err != nil {
			f.notes[dir] = append(f.notes[dir], Note{Path: path, Reason: err.Error()})
		}
		items = append(items, found...)
	}
	items = append(items, f.scanVars(dir, entries)...)
	f.dirs[dir] = items
	return items
}

// varsDirs are the subdirectories of a directory on the way up that hold
// configuration-management variables: Ansible's group_vars and host_vars
// (an inventory's or playbook's), a role's defaults and vars, a Chef
// cookbook's attributes (internal/deploy/cm KindOf).
var varsDirs = map[string]bool{"group_vars": true, "host_vars": true, "defaults": true, "vars": true, "attributes": true}

// scanVars reads the Ansible variables and Chef attributes below the
// varsDirs of dir (one level down, and one more in group_vars/<group>/),
// as KindScript evidence: "flink_version: 1.17.1 in group_vars/all.yml".
func (f *Finder) scanVars(dir string, entries []fs.DirEntry) []Item {
	var items []Item
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		sub, err := f.fs().ReadDir(d)
		if err != nil {
			return
		}
		for _, e := range sub {
			p := filepath.Join(d, e.Name())
			if e.IsDir() && depth == 0 {
				walk(p, 1)
				continue
			}
			kind := cm.KindOf(filepath.ToSlash(p))
			if kind == "" || !e.Type().IsRegular() {
				continue
			}
			src, ok := f.read(dir, p)
			if !ok {
				continue
			}
			vs, notes := cm.Versions(p, kind, src)
			for _, n := range notes {
				f.notes[dir] = append(f.notes[dir], Note{Path: p, Reason: n})
			}
			items = append(items, scriptItems(p, vs)...)
		}
	}
	for _, e := range entries {
		if e.IsDir() && varsDirs[e.Name()] {
			walk(filepath.Join(dir, e.Name()), 0)
		}
	}
	return items
}

func (f *Finder) read(dir, path string) ([]byte, bool) {
	note := func(r string) { f.notes[dir] = append(f.notes[dir], Note{Path: path, Reason: r}) }
	if f.files >= f.lim.MaxFiles {
		note("not read: the search already read its limit of files")
		return nil, false
	}
	if f.bytes >= f.lim.MaxTotalBytes {
		note("not read: the search already read its limit of bytes")
		return nil, false
	}
	// Non-blocking open, type and size checked on the descriptor: a FIFO or
	// a file swapped after the directory was listed is refused, not waited on.
	limit := min(f.lim.MaxFileBytes, f.lim.MaxTotalBytes-f.bytes)
	src, _, err := f.fs().ReadFile(path, limit)
	if err != nil {
		note("not read: " + err.Error())
		return nil, false
	}
	f.files++
	f.bytes += int64(len(src))
	return src, true
}

// fs is the file system searched.
func (f *Finder) fs() inputfs.FS {
	if f.FS == nil {
		f.FS = inputfs.OS()
	}
	return f.FS
}

type parser func(path string, src []byte) ([]Item, error)

// safeParse runs a parser on untrusted bytes: a panic in a third-party
// parser is a skipped file, never a crash of the run.
func safeParse(parse parser, path string, src []byte) (items []Item, err error) {
	defer func() {
		if r := recover(); r != nil {
			items, err = nil, fmt.Errorf("not read: the parser failed (%v)", r)
		}
	}()
	return parse(path, src)
}

// parserFor picks the parser for a file name, or nil for a file that is
// not a candidate.
func parserFor(name string) parser {
	lower := strings.ToLower(name)
	switch {
	case lower == "flink-conf.yaml" || lower == "config.yaml":
		return nil // Flink's own configuration: ckptlint reads it as such

	case dockerfile.IsDockerfile(name):
		return parseDockerfile
	case strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".yml"):
		return parseYAML
	case lower == "pom.xml":
		return parsePOM
	case lower == "build.gradle" || lower == "build.gradle.kts" || lower == "settings.gradle" || lower == "settings.gradle.kts":
		return parseGradle
	case lower == "gradle.properties":
		return parseGradleProperties
	case strings.HasSuffix(lower, ".sh") || strings.HasSuffix(lower, ".bash"):
		return parseShellFile
	}
	return nil
}

// versionPrefix returns the major.minor[.patch] a tag or value starts with.
func versionPrefix(s string) string { return deploy.VersionPrefix(s) }

var hadoopInTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`hadoop[-_]?(\d+\.\d+(?:\.\d+)?)`) })

// ImageVersion reads the product and version of a container image
// reference: flink:1.17.1-scala_2.12 and apache/flink:1.18 (the image's
// last path element is "flink"), apache/hadoop:3.3.6 ("hadoop"), and
// images named hadoop-* whose tag carries hadoopX.Y.Z
// (bde2020/hadoop-namenode:2.0.0-hadoop3.2.1-java8). A tag with no version
// (latest, a digest) or a variable is no evidence.
func ImageVersion(ref string) (product, version string, ok bool) {
	ref = strings.TrimSpace(ref)
	if i := strings.IndexByte(ref, '@'); i >= 0 {
		ref = ref[:i]
	}
	if strings.ContainsAny(ref, "${}") {
		return "", "", false
	}
	name, tag := ref, ""
	if i := strings.LastIndexByte(ref, ':'); i > strings.LastIndexByte(ref, '/') {
		name, tag = ref[:i], ref[i+1:]
	}
	base := strings.ToLower(name[strings.LastIndexByte(name, '/')+1:])
	switch {
	case base == "flink":
		if v := versionPrefix(tag); v != "" {
			return Flink, v, true
		}
	case base == "hadoop":
		if v := versionPrefix(tag); v != "" {
			return Hadoop, v, true
		}
	case strings.HasPrefix(base, "hadoop-"):
		if m := hadoopInTag().FindStringSubmatch(strings.ToLower(tag)); m != nil {
			return Hadoop, m[1], true
		}
	}
	return "", "", false
}

func imageItem(path string, line int, ref string) (Item, bool) {
	p, v, ok := ImageVersion(ref)
	if !ok {
		return Item{}, false
	}
	return Item{Product: p, Version: v, Kind: KindImage, What: "image " + ref, Path: path, Line: line}, true
}

// varProduct is the product whose version a variable or property of
// that name states (FLINK_VERSION, flinkVersion, flink.version, ...).
func varProduct(name string) string { return deploy.VersionVar(name) }

// lineOf is the 1-based line of byte offset off in src.
func lineOf(src []byte, off int64) int {
	off = min(max(off, 0), int64(len(src)))
	return 1 + strings.Count(string(src[:off]), "\n")
}
