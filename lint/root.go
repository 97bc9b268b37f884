package lint

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// RepoRoot returns the boundary ckptlint reads and writes within for a path
// the user named: the top level of the git work tree holding path — the
// nearest directory at or above it with a .git directory, or a .git file
// starting "gitdir:" as git writes for worktrees and submodules (see
// gitrepository-layout(5)), found by walking up without running git — or,
// outside any work tree, path itself when it is a directory and its parent
// directory when it is not. It never depends on the working directory other
// than to make a relative path absolute.
//
// The walk follows path as written, so a symlink inside a repository that
// leads elsewhere does not move the boundary there. The result is absolute,
// clean and has its symlinks resolved, ready for Within against resolved
// paths. RepoRoot fails when path does not exist.
func RepoRoot(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	start := abs
	if !st.IsDir() {
		start = filepath.Dir(abs)
	}
	root := start
	for d := start; ; {
		if isGitMarker(filepath.Join(d, ".git")) {
			root = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return real, nil
}

// isGitMarker reports whether p is a .git directory or a .git file naming
// the git directory elsewhere ("gitdir: <path>").
func isGitMarker(p string) bool {
	st, err := os.Stat(p)
	if err != nil {
		return false
	}
	if st.IsDir() {
		return true
	}
	if !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [len("gitdir:")]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false
	}
	return string(head[:]) == "gitdir:"
}

// Within reports whether p is root or below it. Both are absolute and clean;
// for a boundary check both have their symlinks resolved (RepoRoot's result
// and filepath.EvalSymlinks of the path).
func Within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
