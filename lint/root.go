package lint

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ckptlint/ckptlint/internal/inputfs"
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
	root := inputfs.RepoRoot(start)
	if root == "" {
		root = start
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return real, nil
}

// Within reports whether p is root or below it. Both are absolute and clean;
// for a boundary check both have their symlinks resolved (RepoRoot's result
// and filepath.EvalSymlinks of the path).
func Within(p, root string) bool { return inputfs.Within(p, root) }
