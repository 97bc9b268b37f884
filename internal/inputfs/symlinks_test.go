package inputfs

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestSymlinksMatchesEvalSymlinks resolves every path of a tree with
// symlinks of each kind (to a directory, to a file, relative with "..",
// chained, dangling, a loop, a file used as a directory) twice through one
// Symlinks, and compares each answer with filepath.EvalSymlinks.
func TestSymlinksMatchesEvalSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	root := t.TempDir()
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("a/b/c")
	mk("d")
	write("a/b/c/f.yaml")
	write("d/g.xml")
	link("a/b", "lb")          // to a directory
	link("../d/g.xml", "a/lg") // relative, with ..
	link("lb", "llb")          // chained
	link("missing", "dangling")
	link("loop2", "loop1")
	link("loop1", "loop2")
	link("/", "a/toroot") // absolute
	paths := []string{
		"", "a", "a/b", "a/b/c", "a/b/c/f.yaml", "d/g.xml", "lb", "lb/c", "lb/c/f.yaml", "a/lg",
		"llb/c/f.yaml", "dangling", "dangling/x", "loop1", "loop1/x", "a/toroot", "a/toroot/tmp",
		"a/b/c/f.yaml/x", "nope", "nope/x", "a/b/../b/c", "a/./b",
	}
	var s Symlinks
	for round := range 2 {
		for _, p := range paths {
			abs := filepath.Join(root, p)
			if p == "a/b/../b/c" || p == "a/./b" {
				abs = root + "/" + p // unclean on purpose
			}
			want, werr := filepath.EvalSymlinks(abs)
			got, gerr := s.Eval(abs)
			if got != want || (werr == nil) != (gerr == nil) {
				t.Errorf("round %d: Eval(%s) = %q, %v; EvalSymlinks = %q, %v", round, p, got, gerr, want, werr)
			}
		}
	}
	var nilS *Symlinks
	if got, err := nilS.Eval(filepath.Join(root, "lb")); err != nil || got != filepath.Join(mustReal(t, root), "a/b") {
		t.Errorf("nil Symlinks: %q, %v", got, err)
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
