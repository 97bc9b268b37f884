package discover

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ckptlint/ckptlint/internal/deploy"
	"github.com/ckptlint/ckptlint/internal/format"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// Source is a deployment file discovery read: a docker-compose file, a
// Kubernetes manifest, a Helm chart's Chart.yaml, a kustomization, a
// Dockerfile, a shell script, version evidence of a configuration
// management tool (internal/deploy reads them).
type Source struct {
	Path string // OS path, absolute and clean
	Real string // the path read
	Disp string
	Kind string // deploy.Kind*
	Src  []byte
}

// Sources are the deployment files of the walk, in the order found.
func (d *Tree) Sources() []*Source { return d.sources }

// addSource reads a deployment file the name tells (scan.KindOf),
// within the boundary and budget; one that cannot be read is a note, not
// a finding (it is no configuration file).
func (d *Tree) addSource(path, kind string) error {
	if _, ok := d.files[path]; ok {
		return nil
	}
	src, real := d.overlay[path], path
	if src == nil {
		var err error
		if src, real, err = d.read(path); err != nil {
			d.notef("%s: %s file not read: %v", d.Display(path), kind, unwrapPath(err))
			return nil
		}
	}
	d.keepSource(path, real, d.Display(path), kind, src)
	return nil
}

// keepSource records a deployment file read.
func (d *Tree) keepSource(path, real, disp, kind string, src []byte) {
	for _, s := range d.sources {
		if s.Path == path { // read again (an overlay file of fix's next round)
			if s.Kind == "" {
				s.Kind, s.Src = kind, src
			}
			return
		}
	}
	d.sources = append(d.sources, &Source{Path: path, Real: real, Disp: disp, Kind: kind, Src: src})
}

// AddText adds a configuration file written inside another file (a
// ConfigMap's data, a compose FLINK_PROPERTIES block: deploy.Text) to the
// Tree and returns it: its display path is its container's, so findings
// name the container, and an Exact text keeps the positions it has there
// (parsed.File Embed says where, for fix). container is the container's
// Source. Adding one text twice returns the first Found.
func (d *Tree) AddText(t *deploy.Text, container *Source) (*Found, error) {
	if f, ok := d.texts[t]; ok {
		return f, nil
	}
	fm := format.ByName(t.Name)
	if fm == nil && t.Name == "config.yaml" {
		fm = format.Of(parsed.FlinkConfigYAML)
	}
	if fm == nil {
		return nil, fmt.Errorf("%s: %s is no configuration file ckptlint reads", t.Loc, t.Name)
	}
	path := container.Path + "#" + t.Name + "@" + strconv.Itoa(t.Loc.Line)
	// No Chart: a text of a chart's template is what Helm rendered
	// (internal/deploy/render), never the template itself.
	f := &Found{Path: path, Real: container.Real, Disp: container.Disp, Format: fm.ID, Src: t.Src,
		embed: &parsed.Embed{Exact: t.Exact, Start: t.Start, End: t.End, Indent: t.Indent, Line: t.Loc.Line, Container: container.Src}}
	if d.texts == nil {
		d.texts = map[*deploy.Text]*Found{}
	}
	d.texts[t] = f
	d.files[path] = f
	return f, nil
}

// SourceOf returns the deployment file at display path disp, or nil.
func (d *Tree) SourceOf(disp string) *Source {
	for _, s := range d.sources {
		if s.Disp == disp {
			return s
		}
	}
	return nil
}

// IsRepoFile reports whether a repository path (display, slash-separated,
// relative to the working directory) is a regular file the run may read.
func (d *Tree) IsRepoFile(disp string) bool {
	p := filepath.FromSlash(disp)
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.cwd, p)
	}
	if _, err := d.Check(p); err != nil {
		return false
	}
	return d.IsFile(p)
}

// Note reports something not read that is not a finding (Options.Note).
func (d *Tree) Note(msg string) { d.notef("%s", msg) }

// Cwd is the working directory display paths are relative to.
func (d *Tree) Cwd() string { return d.cwd }

// ReadRepoFile reads a repository file a deployment file refers to (a
// compose file's .env, a Dockerfile's build context, a chart's
// templates), by display path: as discovery reads, within the boundary
// and the run's budget; a file read once is served again.
func (d *Tree) ReadRepoFile(disp string) ([]byte, error) {
	if s := d.SourceOf(disp); s != nil {
		return s.Src, nil
	}
	p := filepath.FromSlash(disp)
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.cwd, p)
	}
	p = filepath.Clean(p)
	if f := d.files[p]; f != nil && f.Src != nil && !f.Embedded() {
		return f.Src, nil
	}
	src, real, err := d.read(p)
	if err != nil {
		if inputfs.IsOutside(err) {
			return nil, fmt.Errorf("%s: %s", disp, d.outsideReason(err))
		}
		return nil, unwrapPath(err) // the caller names the file by its display path
	}
	d.sources = append(d.sources, &Source{Path: p, Real: real, Disp: d.Display(p), Kind: "", Src: src})
	return src, nil
}

// ListRepoDir lists the regular files under a repository directory
// (display, slash-separated) as display paths, in walk order, at most max
// of them (a Helm chart's files: render.Chart Files); truncated reports
// that there were more. Symbolic links are not followed: a chart's link
// to a file outside the repository is never listed.
func (d *Tree) ListRepoDir(disp string, max int) (files []string, truncated bool) {
	p := filepath.FromSlash(disp)
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.cwd, p)
	}
	p = filepath.Clean(p)
	if _, err := d.Check(p); err != nil {
		return nil, false
	}
	_ = d.walkDir(p, func(path string, e fs.DirEntry, err error) error {
		if e == nil {
			return nil
		}
		if err != nil {
			return nil //nolint:nilerr // an unreadable entry is left out of the listing; the chart's rendering names what it misses
		}
		if e.IsDir() {
			if path != p && strings.HasPrefix(e.Name(), ".") {
				return filepath.SkipDir // .git and alike
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		if len(files) == max {
			truncated = true
			return filepath.SkipAll
		}
		files = append(files, d.Display(path))
		return nil
	})
	return files, truncated
}

// InsideRepo tells whether a display path lies inside the repository: a
// path the boundary refuses does not; one that does not exist (a bind
// mount's directory a container creates) does when it does not climb
// above the working directory.
func (d *Tree) InsideRepo(disp string) bool {
	p := filepath.FromSlash(disp)
	if !filepath.IsAbs(p) {
		p = filepath.Join(d.cwd, p)
	}
	p = filepath.Clean(p)
	_, err := d.Check(p)
	switch {
	case err == nil:
		return true
	case inputfs.IsOutside(err):
		return false
	}
	rel, err := filepath.Rel(d.cwd, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
