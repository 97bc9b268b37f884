package discover

import (
	"maps"

	"path/filepath"
	"slices"

	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/parsed"
)

// dirKind indexes the first file of a format in a directory.
type dirKind struct {
	dir    string
	format parsed.Format
}

func (d *Tree) keep(f *Found) {
	d.files[f.Path] = f
	if d.byDisp[f.Disp] == nil {
		d.byDisp[f.Disp] = f
	}
	if d.byDir == nil {
		d.byDir = map[dirKind]*Found{}
	}
	if k := (dirKind{filepath.Dir(f.Path), f.Format}); d.byDir[k] == nil {
		d.byDir[k] = f
	}
}

// InDir returns the discovered file of format k in directory dir, or nil.
func (d *Tree) InDir(dir string, k parsed.Format) *Found {
	return d.byDir[dirKind{dir, k}]
}

// Paths returns discovered paths in a stable order.
func (d *Tree) Paths() []string {
	return slices.Sorted(maps.Keys(d.files))
}

// Get returns the discovered file at path (absolute, clean), or nil.
func (d *Tree) Get(path string) *Found { return d.files[path] }

// ByDisplay returns the discovered file whose display path is disp, or
// nil.
func (d *Tree) ByDisplay(disp string) *Found { return d.byDisp[disp] }

// Len is the number of files discovered.
func (d *Tree) Len() int { return len(d.files) }

// Declare marks a config.yaml path as Flink configuration (a deployment
// block names it): Add then reads it as such whatever keys it holds.
func (d *Tree) Declare(path string) { d.declared[path] = true }

// Check resolves p and returns its real path when the run may read it
// (inputfs.Boundary.Check); every path may be read in an unbounded run.
func (d *Tree) Check(p string) (string, error) {
	if d.bound == nil {
		abs, err := inputfs.AbsFrom(d.cwd, p)
		if err != nil {
			return "", err
		}
		return d.fs.EvalSymlinks(abs)
	}
	return d.bound.Check(p)
}

// Unread lists the paths that could not be read at all (permissions, I/O
// errors, the run's input budget), as display paths.
func (d *Tree) Unread() []string {
	var out []string
	for _, p := range d.unread {
		out = append(out, d.Display(p))
	}
	return out
}
