package write

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/inputfs"
)

// TestMain keeps the journals of the tests' writes outside git (their
// temporary directories) out of the user's cache directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ckptlint-write-test-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestWriteAllWritesEveryFileAndKeepsModes(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a.yaml")
	os.WriteFile(a, []byte("old\n"), 0o600)
	b := filepath.Join(root, "sub", "hdfs-site.xml")
	os.MkdirAll(filepath.Dir(b), 0o755)
	err := All([]Change{
		{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o600},
		{Path: b, New: []byte("<configuration/>\n")},
	}, root)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(a); string(got) != "new\n" {
		t.Errorf("a = %q", got)
	}
	if st, _ := os.Stat(a); st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", st.Mode().Perm())
	}
	if got, _ := os.ReadFile(b); string(got) != "<configuration/>\n" {
		t.Errorf("b = %q", got)
	}
	leftovers, _ := filepath.Glob(filepath.Join(root, ".*ckptlint-*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestWriteAllIsAllOrNothing interrupts a multi-file write: the second file
// cannot be staged (its directory is a regular file), so the first, already
// staged, must not be changed either.
func TestWriteAllIsAllOrNothing(t *testing.T) {
	tests := []struct {
		name   string
		second func(root string) Change
		want   string
	}{
		{"unwritable target", func(root string) Change {
			blocker := filepath.Join(root, "notadir")
			os.WriteFile(blocker, []byte("x"), 0o644)
			return Change{Path: filepath.Join(blocker, "hdfs-site.xml"), New: []byte("x")}
		}, "no file was changed"},
		{"changed on disk", func(root string) Change {
			p := filepath.Join(root, "b.xml")
			os.WriteFile(p, []byte("edited by someone\n"), 0o644)
			return Change{Path: p, Old: []byte("as read\n"), New: []byte("fixed\n")}
		}, "changed on disk since it was read"},
		{"symlink out of the root", func(root string) Change {
			outside := filepath.Join(t.TempDir(), "secret.xml")
			os.WriteFile(outside, []byte("s\n"), 0o644)
			link := filepath.Join(root, "link.xml")
			os.Symlink(outside, link)
			return Change{Path: link, Old: []byte("s\n"), New: []byte("x\n")}
		}, "refusing to write outside"},
		{"not a regular file", func(root string) Change {
			d := filepath.Join(root, "dir.xml")
			os.Mkdir(d, 0o755)
			return Change{Path: d, Old: []byte(""), New: []byte("x\n")}
		}, "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			a := filepath.Join(root, "a.yaml")
			os.WriteFile(a, []byte("old\n"), 0o644)
			err := All([]Change{{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}, tt.second(root)}, root)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if got, _ := os.ReadFile(a); string(got) != "old\n" {
				t.Errorf("first file changed to %q", got)
			}
			leftovers, _ := filepath.Glob(filepath.Join(root, ".*ckptlint-*"))
			if len(leftovers) > 0 {
				t.Errorf("temporary files left: %v", leftovers)
			}
		})
	}
}

func TestWriteAllLeavesNoJournal(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a.yaml")
	os.WriteFile(a, []byte("old\n"), 0o644)
	if err := All([]Change{{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}}, root); err != nil {
		t.Fatal(err)
	}
	if j := PendingJournal(root); j != "" {
		t.Errorf("journal %s left after a complete write", j)
	}
}

// journalOf is where the journal of the boundary root lives.
func journalOf(t *testing.T, root string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	p, err := journalPath(real)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// writeJournal writes a journal as an interrupted run leaves it.
func writeJournal(t *testing.T, root string, entries []journalEntry, committed bool) {
	t.Helper()
	j, err := createJournal(&boundary{journal: journalOf(t, root)}, entries)
	if err != nil {
		t.Fatal(err)
	}
	if committed {
		if err := j.commit(); err != nil {
			t.Fatal(err)
		}
	}
	j.f.Close()
}

func TestRecoverJournal(t *testing.T) {
	type file struct{ old, new string }
	files := []file{{"a1\n", "a2\n"}, {"b1\n", "b2\n"}, {"", "c2\n"}} // the third is created
	setup := func(t *testing.T, renamed int, committed bool) (string, []journalEntry) {
		root := t.TempDir()
		var es []journalEntry
		for i, f := range files {
			target := filepath.Join(root, "conf", string(rune('a'+i))+".xml")
			os.MkdirAll(filepath.Dir(target), 0o755)
			e := journalEntry{Target: target, Staged: filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".ckptlint-42"), New: digest([]byte(f.new))}
			if f.old != "" {
				e.Old = digest([]byte(f.old))
				os.WriteFile(target, []byte(f.old), 0o644)
			}
			if i < renamed {
				os.WriteFile(target, []byte(f.new), 0o644)
			} else {
				os.WriteFile(e.Staged, []byte(f.new), 0o644)
			}
			es = append(es, e)
		}
		writeJournal(t, root, es, committed)
		return root, es
	}
	check := func(t *testing.T, root string, wantNew bool) {
		t.Helper()
		for i, f := range files {
			target := filepath.Join(root, "conf", string(rune('a'+i))+".xml")
			got, err := os.ReadFile(target)
			want := f.old
			if wantNew {
				want = f.new
			}
			if want == "" {
				if err == nil {
					t.Errorf("%s exists after roll-back", target)
				}
				continue
			}
			if string(got) != want {
				t.Errorf("%s = %q, want %q", target, got, want)
			}
		}
		left, _ := filepath.Glob(filepath.Join(root, "conf", ".*.ckptlint-*"))
		if PendingJournal(root) != "" || len(left) > 0 {
			t.Errorf("journal or staged files left: %v", left)
		}
	}
	for renamed := 0; renamed <= len(files); renamed++ {
		t.Run("committed, renamed "+string(rune('0'+renamed)), func(t *testing.T) {
			root, _ := setup(t, renamed, true)
			w, err := Open([]string{root})
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			check(t, root, true)
			if len(w.Notes()) == 0 || !strings.Contains(w.Notes()[0], "completed an interrupted fix") {
				t.Errorf("notes = %q", w.Notes())
			}
		})
	}
	t.Run("not committed", func(t *testing.T) {
		root, _ := setup(t, 0, false)
		w, err := Open([]string{root})
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		check(t, root, false)
	})
	t.Run("torn last line", func(t *testing.T) {
		root, _ := setup(t, 0, false)
		f, _ := os.OpenFile(journalOf(t, root), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"target":"/etc/pas`)
		f.Close()
		w, err := Open([]string{root})
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		check(t, root, false)
	})
	t.Run("target changed since", func(t *testing.T) {
		root, es := setup(t, 1, true)
		os.WriteFile(es[1].Target, []byte("edited by hand\n"), 0o644)
		w, err := Open([]string{root})
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		if got, _ := os.ReadFile(es[1].Target); string(got) != "edited by hand\n" {
			t.Errorf("a file edited since the interrupted run was replaced: %q", got)
		}
		if !strings.Contains(strings.Join(w.Notes(), "\n"), "it changed since") {
			t.Errorf("notes = %q", w.Notes())
		}
	})
	t.Run("hostile journal", func(t *testing.T) {
		// A journal committed to a repository by someone else must not
		// move files from or to anywhere a fix would not write.
		root := t.TempDir()
		outside := filepath.Join(t.TempDir(), "secret")
		os.WriteFile(outside, []byte("s\n"), 0o644)
		evil := filepath.Join(root, "evil")
		os.WriteFile(evil, []byte("x\n"), 0o644)
		inRepo := filepath.Join(root, "flink-conf.yaml")
		os.WriteFile(inRepo, []byte("a: 1\n"), 0o644)
		// a symlinked directory committed into the repository, leading out
		os.Symlink(filepath.Dir(outside), filepath.Join(root, "link"))
		outStaged := filepath.Join(filepath.Dir(outside), ".secret.ckptlint-2")
		os.WriteFile(outStaged, []byte("x\n"), 0o644)
		writeJournal(t, root, []journalEntry{
			{Target: outside, Staged: filepath.Join(filepath.Dir(outside), ".secret.ckptlint-1"), Old: digest([]byte("s\n")), New: digest([]byte("x\n"))},
			{Target: inRepo, Staged: evil, Old: digest([]byte("a: 1\n")), New: digest([]byte("x\n"))},
			{Target: filepath.Join(root, "link", "secret"), Staged: filepath.Join(root, "link", ".secret.ckptlint-2"), Old: digest([]byte("s\n")), New: digest([]byte("x\n"))},
		}, true)
		w, err := Open([]string{root})
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
		if got, _ := os.ReadFile(outside); string(got) != "s\n" {
			t.Errorf("file outside the root changed: %q", got)
		}
		if got, _ := os.ReadFile(inRepo); string(got) != "a: 1\n" {
			t.Errorf("target replaced by a file not named as a staged file: %q", got)
		}
		if _, err := os.Stat(evil); err != nil {
			t.Errorf("a file the journal names but ckptlint did not stage was removed")
		}
		if _, err := os.Stat(outStaged); err != nil {
			t.Errorf("a file outside the root was removed through a symlinked directory")
		}
		if n := strings.Join(w.Notes(), "\n"); strings.Count(n, "is not one ckptlint writes") != 3 {
			t.Errorf("notes = %q", n)
		}
	})
	t.Run("unreadable journal", func(t *testing.T) {
		root := t.TempDir()
		p := journalOf(t, root)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("{\"journal\":\"ckptlint-fix\",\"version\":1}\nnot json\n{\"commit\":true}\n"), 0o644)
		defer os.Remove(p)
		_, err := Open([]string{root})
		if err == nil || !strings.Contains(err.Error(), p+":2: expected") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("journal in the work tree", func(t *testing.T) {
		// issue 25 item 2: a journal committed to the work tree (here
		// valid, with a commit record, and garbage) is never read: Open
		// names it and changes nothing.
		for _, garbage := range []bool{false, true} {
			root, es := setup(t, 0, true)
			os.Rename(journalOf(t, root), filepath.Join(root, inputfs.TreeJournalName))
			if garbage {
				os.WriteFile(filepath.Join(root, inputfs.TreeJournalName), []byte("not a journal\n"), 0o644)
			}
			w, err := Open([]string{root})
			if err != nil {
				t.Fatal(err)
			}
			w.Close()
			if got, _ := os.ReadFile(es[0].Target); string(got) != files[0].old {
				t.Errorf("a journal in the work tree was completed: %s = %q", es[0].Target, got)
			}
			if n := strings.Join(w.Notes(), "\n"); !strings.Contains(n, "ignored "+filepath.Join(root, inputfs.TreeJournalName)) {
				t.Errorf("notes = %q", n)
			}
		}
	})
}

func TestSweep(t *testing.T) {
	root := t.TempDir()
	conf := filepath.Join(root, "hdfs-site.xml")
	os.WriteFile(conf, []byte("fixed\n"), 0o644)
	ours := filepath.Join(root, ".hdfs-site.xml.ckptlint-123")
	os.WriteFile(ours, []byte("fixed\n"), 0o644)
	other := filepath.Join(root, ".hdfs-site.xml.ckptlint-456")
	os.WriteFile(other, []byte("something else\n"), 0o644)
	unrelated := filepath.Join(root, ".hdfs-site.xml.ckptlint-backup")
	os.WriteFile(unrelated, []byte("fixed\n"), 0o644)
	w, err := Open([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Sweep([]string{conf})
	if _, err := os.Lstat(ours); err == nil {
		t.Errorf("a staged copy identical to the file was kept")
	}
	for _, p := range []string{other, unrelated} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
	n := strings.Join(w.Notes(), "\n")
	if !strings.Contains(n, "removed "+ours) || !strings.Contains(n, "left "+other) || strings.Contains(n, unrelated) {
		t.Errorf("notes = %q", n)
	}
}

// TestStage writes a report a part at a time: until Commit the target
// keeps its old content and mode, Abort leaves no staged file, Commit puts
// the new content in place with the old mode.
func TestStage(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(p, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	for _, commit := range []bool{false, true} {
		st, err := Stage(p)
		if err != nil {
			t.Fatal(err)
		}
		for range 10000 {
			if _, err := st.Write([]byte("a line of the new report\n")); err != nil {
				t.Fatal(err)
			}
		}
		if b, _ := os.ReadFile(p); string(b) != "old\n" {
			t.Fatalf("the target changed before Commit: %d bytes", len(b))
		}
		if commit {
			if err := st.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		st.Abort() // a no-op after Commit
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			t.Errorf("commit %v: %d entries in the directory, want the target alone", commit, len(ents))
		}
		b, _ := os.ReadFile(p)
		if want := map[bool]int{false: 4, true: 10000 * 25}[commit]; len(b) != want {
			t.Errorf("commit %v: %d bytes, want %d", commit, len(b), want)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
			t.Errorf("commit %v: mode %v, want 0640", commit, fi.Mode().Perm())
		}
	}
}
