package generate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Change is the new content of one file.
type Change struct {
	Path string // OS path
	Old  []byte // content read before planning; nil for a file to create
	New  []byte
	Mode fs.FileMode // kept for existing files; 0644 for new ones
}

// WriteAll writes every change or none. Each file is staged as a temporary
// file in its own directory, then renamed over its target; nothing is
// renamed until every file is staged. A target is refused when it is not a
// regular file, when it (or a symlink it goes through) lies outside root,
// or when its content changed on disk since it was read. If a rename fails
// half-way, the files already replaced get their old content back.
func WriteAll(changes []Change, root string) error {
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fmt.Errorf("write: root %s: %w", root, err)
	}
	type staged struct {
		c      Change
		target string // the real path the rename replaces
		tmp    string
	}
	var ss []staged
	cleanup := func() {
		for _, s := range ss {
			os.Remove(s.tmp)
		}
	}
	for _, c := range changes {
		target, err := checkTarget(c, rootReal)
		if err != nil {
			cleanup()
			return err
		}
		tmp, err := stage(target, c)
		if err != nil {
			cleanup()
			return fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
		}
		ss = append(ss, staged{c, target, tmp})
	}
	for i, s := range ss {
		if err := os.Rename(s.tmp, s.target); err != nil {
			for _, done := range ss[:i] {
				if done.c.Old != nil {
					os.WriteFile(done.target, done.c.Old, done.c.Mode)
				} else {
					os.Remove(done.target)
				}
			}
			cleanup()
			return fmt.Errorf("write %s: %w (the files written before it were restored)", s.c.Path, err)
		}
	}
	return nil
}

// checkTarget resolves where a change lands and refuses unsafe targets.
func checkTarget(c Change, rootReal string) (string, error) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(c.Path))
	if err != nil {
		return "", fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
	}
	target := filepath.Join(dir, filepath.Base(c.Path))
	if st, err := os.Lstat(target); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(target); err != nil {
			return "", fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
		}
	}
	if !within(target, rootReal) {
		return "", fmt.Errorf("write %s: refusing to write outside %s (it resolves to %s; no file was changed)", c.Path, rootReal, target)
	}
	st, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if c.Old != nil {
			return "", fmt.Errorf("write %s: the file was removed since it was read (no file was changed)", c.Path)
		}
		return target, nil
	case err != nil:
		return "", fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("write %s: not a regular file (no file was changed)", c.Path)
	}
	if c.Old == nil {
		return "", fmt.Errorf("write %s: the file appeared since ckptlint looked (no file was changed)", c.Path)
	}
	cur, err := os.ReadFile(target)
	if err != nil {
		return "", fmt.Errorf("write %s: %w (no file was changed)", c.Path, err)
	}
	if !bytes.Equal(cur, c.Old) {
		return "", fmt.Errorf("write %s: the file changed on disk since it was read; run ckptlint fix again (no file was changed)", c.Path)
	}
	return target, nil
}

func stage(target string, c Change) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".ckptlint-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	mode := c.Mode
	if mode == 0 {
		mode = 0o644
	}
	_, werr := f.Write(c.New)
	serr := f.Sync()
	cerr := f.Close()
	merr := os.Chmod(name, mode.Perm())
	if err := errors.Join(werr, serr, cerr, merr); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// within reports whether p is root or below it.
func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
