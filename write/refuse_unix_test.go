//go:build unix

package write

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoDir is a repository (its .git a directory) in a temporary directory.
func repoDir(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// strays lists the staged files left in dir.
func strays(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".*.ckptlint-*"))
	return m
}

// TestWriteRefusesFileEditedDuringWrite is issue 25's low item "an editor
// writing the file in place during fix loses its write": another program
// rewrites a target in place (same inode, as an editor saving with
// backupcopy does) after fix read it and before its rename. The write is
// refused with a message naming the file, the editor's bytes stay, and no
// file is half-written: the other target keeps (or gets back) its old
// content, and no staged file or journal is left.
func TestWriteRefusesFileEditedDuringWrite(t *testing.T) {
	for _, step := range []string{"staged:2", "commit", "renamed:1"} {
		t.Run(step, func(t *testing.T) {
			root := repoDir(t)
			a, b := filepath.Join(root, "a.yaml"), filepath.Join(root, "b.yaml")
			for _, p := range []string{a, b} {
				if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			testHook = func(s string) {
				if s == step {
					if err := os.WriteFile(b, []byte("the editor's\n"), 0o644); err != nil {
						t.Error(err)
					}
				}
			}
			defer func() { testHook = nil }()
			err := All([]Change{
				{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644},
				{Path: b, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644},
			}, root)
			if err == nil || !strings.Contains(err.Error(), "b.yaml: the file changed on disk while ckptlint was writing it") {
				t.Fatalf("err = %v, want b.yaml refused as changed while written", err)
			}
			if got, _ := os.ReadFile(b); string(got) != "the editor's\n" {
				t.Errorf("b.yaml = %q: the editor's write was lost", got)
			}
			if got, _ := os.ReadFile(a); string(got) != "old\n" {
				t.Errorf("a.yaml = %q: a write refused for b.yaml changed a.yaml", got)
			}
			if s := strays(t, root); len(s) > 0 {
				t.Errorf("staged files left: %v", s)
			}
			if j := PendingJournal(root); j != "" {
				t.Errorf("journal left: %s", j)
			}
		})
	}
}

// TestWriteRefusesHardLink: replacing a file that has other hard links
// would silently split them (the other names keep the old content), so the
// write is refused with a message saying so, and nothing is written.
func TestWriteRefusesHardLink(t *testing.T) {
	root := repoDir(t)
	a := filepath.Join(root, "hdfs-site.xml")
	if err := os.WriteFile(a, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "deployed-hdfs-site.xml")
	if err := os.Link(a, other); err != nil {
		t.Skipf("link: %v", err)
	}
	err := All([]Change{{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}}, root)
	if err == nil || !strings.Contains(err.Error(), "has 2 hard links") {
		t.Fatalf("err = %v, want a refusal naming the hard links", err)
	}
	for _, p := range []string{a, other} {
		if got, _ := os.ReadFile(p); string(got) != "old\n" {
			t.Errorf("%s = %q", p, got)
		}
	}
	if s := strays(t, root); len(s) > 0 {
		t.Errorf("staged files left: %v", s)
	}
}

// TestWriteAppendOnlyDirectory: in a directory with the append-only
// attribute (chattr +a) a file can be created but neither renamed nor
// removed, so a staged file could never be put in place nor taken away.
// fix and the report writer refuse before staging anything, saying why.
func TestWriteAppendOnlyDirectory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chattr +a needs root (CAP_LINUX_IMMUTABLE)")
	}
	root := repoDir(t)
	dir := filepath.Join(root, "conf")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(dir, "flink-conf.yaml")
	if err := os.WriteFile(a, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chattr", "+a", dir).CombinedOutput(); err != nil {
		t.Skipf("chattr +a: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("chattr", "-a", dir).Run() })
	err := All([]Change{{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}}, root)
	if err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Errorf("fix: err = %v, want a refusal naming the append-only directory", err)
	}
	if got, _ := os.ReadFile(a); string(got) != "old\n" {
		t.Errorf("flink-conf.yaml = %q", got)
	}
	err = File(filepath.Join(dir, "report.json"), []byte("{}\n"))
	if err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Errorf("report: err = %v, want a refusal naming the append-only directory", err)
	}
	if s := strays(t, dir); len(s) > 0 {
		t.Errorf("staged files left in the append-only directory: %v", s)
	}
}

// TestJournalLocation: the journal lives where no commit can put it
// (issue 25 item 2): in the git directory (a worktree's or submodule's .git
// file names it), or, outside git, in the user cache directory; a write
// never leaves one in the work tree.
func TestJournalLocation(t *testing.T) {
	repo := repoDir(t)
	real, _ := filepath.EvalSymlinks(repo)
	if p, err := journalPath(real); err != nil || filepath.Dir(p) != filepath.Join(real, ".git", "ckptlint") {
		t.Errorf("repository: journal %s, %v; want it in .git/ckptlint", p, err)
	}
	wt := t.TempDir()
	gd := filepath.Join(t.TempDir(), "main.git", "worktrees", "wt")
	os.MkdirAll(gd, 0o755)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gd+"\n"), 0o644)
	wtReal, _ := filepath.EvalSymlinks(wt)
	if p, err := journalPath(wtReal); err != nil || filepath.Dir(p) != filepath.Join(gd, "ckptlint") {
		t.Errorf("worktree: journal %s, %v; want it in %s/ckptlint", p, err, gd)
	}
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: /nonexistent/wt\n"), 0o644)
	if _, err := journalPath(wtReal); err == nil || !strings.Contains(err.Error(), "names the git directory /nonexistent/wt, which is not a directory") {
		t.Errorf("worktree without its git directory: err = %v", err)
	}
	plain, _ := filepath.EvalSymlinks(t.TempDir())
	if p, err := journalPath(plain); err != nil || filepath.Dir(p) != filepath.Join(os.Getenv("XDG_CACHE_HOME"), "ckptlint-fix") {
		t.Errorf("outside git: journal %s, %v; want it in $XDG_CACHE_HOME/ckptlint-fix", p, err)
	}

	// A write stopped after its journal (the test hook) shows it in .git.
	a := filepath.Join(repo, "a.yaml")
	os.WriteFile(a, []byte("old\n"), 0o644)
	var seen []string
	testHook = func(step string) {
		if step == "commit" {
			seen, _ = filepath.Glob(filepath.Join(repo, ".git", "ckptlint", "*.journal"))
			if m, _ := filepath.Glob(filepath.Join(repo, "*journal*")); len(m) > 0 {
				t.Errorf("journal in the work tree: %v", m)
			}
		}
	}
	defer func() { testHook = nil }()
	if err := All([]Change{{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}}, repo); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 {
		t.Errorf("journals in .git/ckptlint during the write: %v", seen)
	}
}
