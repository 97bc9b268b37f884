package config

import (
	"os"
	"path/filepath"
	"strings"
)

// Find looks for FileName in startDir and then in each parent directory,
// stopping after stopDir, the repository root (the caller passes the nearest
// directory holding .git). An empty stopDir searches up to the file system
// root; a startDir outside stopDir is searched alone. It returns the
// absolute path of the first regular file found.
func Find(startDir, stopDir string) (path string, ok bool) {
	dir, err := filepath.Abs(startDir)
	if err != nil {
		return "", false
	}
	stop := ""
	if stopDir != "" {
		if stop, err = filepath.Abs(stopDir); err != nil {
			return "", false
		}
		if !within(dir, stop) {
			stop = dir
		}
	}
	for {
		p := filepath.Join(dir, FileName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
		parent := filepath.Dir(dir)
		if dir == stop || parent == dir {
			return "", false
		}
		dir = parent
	}
}

// within reports whether dir is root or below it; both are clean and
// absolute.
func within(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
