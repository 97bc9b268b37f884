//go:build unix

package main

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// killFixture is a repository whose fix changes three files, one per
// config set (each hdfs-site.xml gets dfs.blocksize).
func killFixture() map[string]string {
	files := map[string]string{
		".ckptlint.hcl": `flink_version = "1.17"
cluster "small" {
  datanodes           = 3
  datanode_free_bytes = "43g"
}
`,
	}
	for _, j := range []string{"etl", "billing", "search"} {
		files[".ckptlint.hcl"] += `deployment "` + j + `" {
  flink_conf         = "` + j + `/conf"
  jobs               = 4
  stateful_operators = 3
}
`
		files[j+"/conf/flink-conf.yaml"] = "execution.checkpointing.interval: 1 min\n" +
			"execution.checkpointing.tolerable-failed-checkpoints: 3\n" +
			"state.checkpoints.dir: hdfs://namenode:8020/flink/" + j + "\n" +
			"parallelism.default: 100\n"
		files[j+"/conf/hdfs-site.xml"] = "<?xml version=\"1.0\"?>\n<configuration>\n  <property>\n" +
			"    <name>dfs.replication</name>\n    <value>1</value>\n  </property>\n</configuration>\n"
	}
	return files
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// readTree reads the fixture's files and lists every file ckptlint may
// have left behind (staged files, the journal in .git/ckptlint, or one in
// the work tree as versions before issue 25 kept it).
func readTree(t *testing.T, dir string, names []string) (map[string]string, []string) {
	t.Helper()
	got := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		got[n] = string(b)
	}
	var left []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		journal := filepath.Base(filepath.Dir(p)) == "ckptlint" && strings.HasSuffix(d.Name(), ".journal")
		if err == nil && (strings.Contains(d.Name(), ".ckptlint-") || d.Name() == ".ckptlint-fix.journal" || journal) {
			left = append(left, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, left
}

// fixProc runs `ckptlint fix` in dir as its own process, stopping it with
// SIGKILL at step (docs/fix.md, CKPTLINT_TEST_STOP_AT) unless step is "".
func fixProc(t *testing.T, exe, dir, step string) (killed bool, out string) {
	t.Helper()
	// --fail-level error: a staged file the run leaves (not provably
	// ckptlint's) is a CKPT005 warning, which is not what this test judges.
	cmd := exec.Command(exe, "fix", "--fail-level", "error")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CKPTLINT_TEST_STOP_AT="+step)
	b, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true, string(b)
		}
	}
	if err != nil {
		t.Fatalf("ckptlint fix (stop at %q): %v\n%s", step, err, b)
	}
	return false, string(b)
}

// TestFixSurvivesKill kills a real `ckptlint fix` of three files with
// SIGKILL at every step of its write, then checks that the next run first
// brings the repository back to all-or-nothing (stopped right after its
// recovery: every file old before the commit record, every file new after
// it, no staged file, no journal), and then converges to what an
// uninterrupted fix writes.
func TestFixSurvivesKill(t *testing.T) {
	exe, err := exec.LookPath("ckptlint") // this test binary, as testscript.Main installs it
	if err != nil {
		t.Skip("ckptlint is not on PATH")
	}
	files := killFixture()
	names := slices.Sorted(maps.Keys(files))

	clean := t.TempDir()
	writeTree(t, clean, files)
	if killed, out := fixProc(t, exe, clean, ""); killed {
		t.Fatalf("uninterrupted fix was killed:\n%s", out)
	}
	want, left := readTree(t, clean, names)
	if len(left) > 0 {
		t.Fatalf("an uninterrupted fix left %v", left)
	}
	var changed []string
	for _, n := range names {
		if want[n] != files[n] {
			changed = append(changed, n)
		}
	}
	if len(changed) != 3 {
		t.Fatalf("the fixture's fix changes %v; this test needs exactly three files", changed)
	}

	same := func(got, want map[string]string) bool { return maps.Equal(got, want) }
	steps := []string{"journal", "staged:1", "staged:2", "staged:3", "commit", "renamed:1", "renamed:2", "renamed:3", "synced"}
	for i, step := range steps {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, files)
			if killed, out := fixProc(t, exe, dir, step); !killed {
				t.Fatalf("fix was not stopped at %s:\n%s", step, out)
			}
			got, _ := readTree(t, dir, names)
			for _, n := range names {
				if got[n] != files[n] && got[n] != want[n] {
					t.Errorf("after the kill %s is neither its old nor its new content:\n%s", n, got[n])
				}
			}
			if killed, out := fixProc(t, exe, dir, "recovered"); !killed {
				t.Fatalf("fix was not stopped after recovery:\n%s", out)
			}
			got, left := readTree(t, dir, names)
			committed := i >= slices.Index(steps, "commit")
			switch {
			case committed && !same(got, want):
				t.Errorf("after recovery from a kill past the commit record, not every file is fixed: %v", diffNames(got, want))
			case !committed && !same(got, files):
				t.Errorf("after recovery from a kill before the commit record, some file changed: %v", diffNames(got, files))
			}
			if len(left) > 0 {
				t.Errorf("recovery left %v", left)
			}
			_, out := fixProc(t, exe, dir, "")
			got, left = readTree(t, dir, names)
			if !same(got, want) || len(left) > 0 {
				t.Errorf("the next fix did not converge: differs in %v, left %v\n%s", diffNames(got, want), left, out)
			}
			if committed && !strings.Contains(out, "nothing to change") {
				t.Errorf("after a completed recovery the fix still changed files:\n%s", out)
			}
		})
	}
	t.Run("killed during recovery", func(t *testing.T) {
		dir := t.TempDir()
		writeTree(t, dir, files)
		fixProc(t, exe, dir, "renamed:1")
		if killed, _ := fixProc(t, exe, dir, "recovery-renamed:1"); !killed {
			t.Fatal("recovery was not stopped after its first rename")
		}
		if killed, out := fixProc(t, exe, dir, "recovered"); !killed {
			t.Fatalf("fix was not stopped after recovery:\n%s", out)
		}
		got, left := readTree(t, dir, names)
		if !same(got, want) || len(left) > 0 {
			t.Errorf("a second recovery did not finish the first: differs in %v, left %v", diffNames(got, want), left)
		}
	})
	t.Run("stale staged files of older versions", func(t *testing.T) {
		dir := t.TempDir()
		writeTree(t, dir, files)
		conf := filepath.Join(dir, filepath.FromSlash(changed[0]))
		ours := filepath.Join(filepath.Dir(conf), "."+filepath.Base(conf)+".ckptlint-1234567")
		theirs := filepath.Join(filepath.Dir(conf), "."+filepath.Base(conf)+".ckptlint-7654321")
		// what a killed older run staged, and a file named alike with other content
		for name, content := range map[string]string{ours: want[changed[0]], theirs: "not ours\n"} {
			if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, out := fixProc(t, exe, dir, "")
		if _, err := os.Lstat(ours); err == nil {
			t.Errorf("a staged copy of the fixed file was kept\n%s", out)
		}
		if _, err := os.Lstat(theirs); err != nil || !strings.Contains(out, "left "+theirs) {
			t.Errorf("a file that is not provably ckptlint's was removed or not named\n%s", out)
		}
	})
}

func diffNames(got, want map[string]string) []string {
	var d []string
	for n := range want {
		if got[n] != want[n] {
			d = append(d, n)
		}
	}
	slices.Sort(d)
	return d
}

// TestFixKeepsOwner runs a real `ckptlint fix` as root (as CI runs the
// tests) on files owned by nobody:nogroup with mode 0640: the rewritten
// files keep owner, group and mode, so the service user can still read them.
func TestFixKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the fixture to another user")
	}
	exe, err := exec.LookPath("ckptlint")
	if err != nil {
		t.Skip("ckptlint is not on PATH")
	}
	const uid, gid = 65534, 65534 // nobody:nogroup (Debian's base-passwd)
	dir := t.TempDir()
	files := killFixture()
	writeTree(t, dir, files)
	var confs []string
	for n := range files {
		if strings.HasSuffix(n, ".xml") {
			p := filepath.Join(dir, filepath.FromSlash(n))
			if err := errors.Join(os.Chown(p, uid, gid), os.Chmod(p, 0o640)); err != nil {
				t.Fatal(err)
			}
			confs = append(confs, p)
		}
	}
	if _, out := fixProc(t, exe, dir, ""); !strings.Contains(out, "changed 3 file(s)") {
		t.Fatalf("fix did not change the three files:\n%s", out)
	}
	for _, p := range confs {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		sys := st.Sys().(*syscall.Stat_t)
		if sys.Uid != uid || sys.Gid != gid || st.Mode().Perm() != 0o640 {
			t.Errorf("%s after fix: %d:%d %v, want %d:%d -rw-r-----", p, sys.Uid, sys.Gid, st.Mode().Perm(), uid, gid)
		}
		if b, _ := os.ReadFile(p); !strings.Contains(string(b), "dfs.blocksize") {
			t.Errorf("%s was not fixed:\n%s", p, b)
		}
	}
}
