package lint_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ckptlint/ckptlint/lint"
)

func mkfile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRepoRoot(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if r, err := lint.RepoRoot(tmp); err != nil || r != tmp {
		t.Skipf("the temporary directory %s is inside a git work tree (%s); the outside-git cases need one that is not", tmp, r)
	}
	repo := filepath.Join(tmp, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(repo, "jobs", "etl", "conf", "flink-conf.yaml"), "a: 1\n")
	wt := filepath.Join(tmp, "worktree")
	mkfile(t, filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(repo, ".git", "worktrees", "wt")+"\n")
	mkfile(t, filepath.Join(wt, "conf", "hdfs-site.xml"), "<configuration/>\n")
	fake := filepath.Join(tmp, "fake")
	mkfile(t, filepath.Join(fake, ".git"), "not a gitdir file\n")
	mkfile(t, filepath.Join(fake, "conf", "flink-conf.yaml"), "a: 1\n")
	plain := filepath.Join(tmp, "plain")
	mkfile(t, filepath.Join(plain, "conf", "flink-conf.yaml"), "a: 1\n")
	// A symlink inside the repository that leads out of it does not move
	// the boundary; one to a directory outside gets the repository too.
	if err := os.Symlink(filepath.Join(plain, "conf"), filepath.Join(repo, "out")); err != nil {
		t.Fatal(err)
	}
	// A symlinked path to the repository resolves to the real root.
	if err := os.Symlink(repo, filepath.Join(tmp, "repo-link")); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct{ path, want string }{
		{repo, repo},
		{filepath.Join(repo, "jobs", "etl", "conf"), repo},
		{filepath.Join(repo, "jobs", "etl", "conf", "flink-conf.yaml"), repo},
		{filepath.Join(repo, "out"), repo},
		{filepath.Join(repo, "out", "flink-conf.yaml"), repo},
		{filepath.Join(tmp, "repo-link", "jobs"), repo},
		{filepath.Join(wt, "conf", "hdfs-site.xml"), wt},
		{filepath.Join(fake, "conf"), filepath.Join(fake, "conf")},
		{filepath.Join(plain, "conf"), filepath.Join(plain, "conf")},
		{filepath.Join(plain, "conf", "flink-conf.yaml"), filepath.Join(plain, "conf")},
		{filepath.Join(repo, "jobs", "..", "jobs", "etl"), repo},
	} {
		got, err := lint.RepoRoot(tc.path)
		if err != nil || got != tc.want {
			t.Errorf("RepoRoot(%s) = %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}

	// Relative paths are taken from the working directory, but the
	// boundary is the target's, not the working directory's.
	t.Chdir(filepath.Join(repo, "jobs"))
	for _, tc := range []struct{ path, want string }{
		{"etl/conf", repo},
		{"../../plain/conf", filepath.Join(plain, "conf")},
		{"../../worktree/conf", wt},
	} {
		got, err := lint.RepoRoot(tc.path)
		if err != nil || got != tc.want {
			t.Errorf("from %s: RepoRoot(%s) = %q, %v; want %q", filepath.Join(repo, "jobs"), tc.path, got, err, tc.want)
		}
	}
	if got, err := lint.RepoRoot(filepath.Join(repo, "missing")); err == nil {
		t.Errorf("RepoRoot(missing) = %q, want an error", got)
	}
}

func TestWithin(t *testing.T) {
	sep := string(filepath.Separator)
	root := sep + filepath.Join("a", "repo")
	for p, want := range map[string]bool{
		root:                                    true,
		filepath.Join(root, "conf", "x.yaml"):   true,
		filepath.Join(root, "..", "repo2"):      false,
		sep + filepath.Join("a", "repo-b"):      false,
		sep + "a":                               false,
		filepath.Join(root, "..data", "x.yaml"): true,
	} {
		if got := lint.Within(filepath.Clean(p), root); got != want {
			t.Errorf("Within(%s, %s) = %v, want %v", p, root, got, want)
		}
	}
}
