package inputfs

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// observeRead reads path as discovery does and returns its probe, with
// the observer's trust threshold set to trustBefore.
func observeRead(t *testing.T, path string, trustBefore time.Time) Probe {
	t.Helper()
	r := Record(OS())
	r.o.trustBefore = trustBefore
	if _, _, err := r.ReadFile(path, 1<<20); err != nil {
		t.Fatal(err)
	}
	ps := r.Probes()
	if len(ps) != 1 {
		t.Fatalf("probes: %+v", ps)
	}
	return ps[0]
}

// TestReplayStatSignature: a file unchanged since it was read holds by its
// stat signature alone (nothing read); a file rewritten with the same size
// and its modification time set back is caught (the status-change time
// moved) and checked by its bytes; a file changed within RacyWindow gets
// no signature.
func TestReplayStatSignature(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no stat signatures on " + runtime.GOOS)
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "flink-conf.yaml")
	if err := os.WriteFile(f, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := observeRead(t, f, time.Now().Add(-RacyWindow)); p.Sig != "" {
		t.Errorf("a file written just now got a signature: %+v", p)
	}
	p := observeRead(t, f, time.Now().Add(time.Hour)) // everything counts as old
	if p.Sig == "" {
		t.Fatalf("no signature: %+v", p)
	}
	reads := 0
	r := &Replayer{TrustBefore: time.Now().Add(time.Hour), Read: func(string, []byte) { reads++ }}
	if ok, sig := r.Check(p); !ok || sig != p.Sig || reads != 0 {
		t.Errorf("unchanged file: holds=%v sig=%q reads=%d", ok, sig, reads)
	}

	st, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // let the clock move past the first write's ctime
	if err := os.WriteFile(f, []byte("a: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	r = &Replayer{TrustBefore: time.Now().Add(time.Hour), Read: func(string, []byte) { reads++ }}
	if ok, _ := r.Check(p); ok || reads != 1 {
		t.Errorf("same size, mtime set back, other bytes: holds=%v reads=%d (want false after reading it)", ok, reads)
	}

	// Same bytes again (mtime set back too): holds by content, with a new
	// signature to record.
	if err := os.WriteFile(f, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	r = &Replayer{TrustBefore: time.Now().Add(time.Hour)}
	if ok, sig := r.Check(p); !ok || sig == "" || sig == p.Sig {
		t.Errorf("same bytes, new inode times: holds=%v sig=%q (old %q)", ok, sig, p.Sig)
	}
}

// TestReplayDirSignature: a directory listing holds by signature while no
// entry is added, and is checked by its listing (and fails) once one is.
func TestReplayDirSignature(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no stat signatures on " + runtime.GOOS)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.xml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	o := Record(OS())
	o.o.trustBefore = time.Now().Add(time.Hour)
	if _, err := o.ReadDir(dir); err != nil {
		t.Fatal(err)
	}
	p := o.Probes()[0]
	if p.Sig == "" {
		t.Fatalf("no signature: %+v", p)
	}
	if ok, _ := (&Replayer{}).Check(p); !ok {
		t.Error("unchanged directory does not hold")
	}
	if err := os.WriteFile(filepath.Join(dir, "b.xml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, _ := (&Replayer{}).Check(p); ok {
		t.Error("a directory with a new entry still holds")
	}
}

// TestReplayRealAndRepoRoot: the remembered resolutions give what
// EvalSymlinks and RepoRoot give, and see a directory replaced by a
// symlink.
func TestReplayRealAndRepoRoot(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	root := mustReal(t, t.TempDir())
	if err := os.MkdirAll(filepath.Join(root, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "repo", "conf"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(root, "repo", "conf", "core-site.xml")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	o := Record(OS())
	if _, err := o.EvalSymlinks(f); err != nil {
		t.Fatal(err)
	}
	o.RepoRoot(filepath.Join(root, "repo", "conf"))
	ps := o.Probes()
	r := &Replayer{}
	for _, p := range ps {
		if ok, _ := r.Check(p); !ok {
			t.Errorf("unchanged: %+v does not hold", p)
		}
	}
	// conf becomes a symlink to another directory holding the same file.
	if err := os.Rename(filepath.Join(root, "repo", "conf"), filepath.Join(root, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(root, "repo", "conf")); err != nil {
		t.Fatal(err)
	}
	r = &Replayer{}
	for _, p := range ps {
		if p.Op == OpReal {
			if ok, _ := r.Check(p); ok {
				t.Errorf("after conf became a symlink, %+v still holds", p)
			}
		}
	}
}

// TestReplayRepoRootAfterNewGit: a directory's listing without .git spares
// the repository-root replay a stat only while it holds; once .git
// appears, both the listing and the root no longer hold.
func TestReplayRepoRootAfterNewGit(t *testing.T) {
	root := mustReal(t, t.TempDir())
	sub := filepath.Join(root, "conf")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	o := Record(OS())
	if _, err := o.ReadDir(root); err != nil {
		t.Fatal(err)
	}
	o.RepoRoot(sub)
	ps := o.Probes()
	var noGit sync.Map
	r := &Replayer{NoGit: &noGit}
	for _, p := range ps {
		if ok, _ := r.Check(p); !ok {
			t.Fatalf("unchanged: %+v does not hold", p)
		}
	}
	if _, ok := noGit.Load(root); !ok {
		t.Error("a held listing without .git was not remembered")
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var noGit2 sync.Map
	r = &Replayer{NoGit: &noGit2}
	for _, p := range ps {
		if ok, _ := r.Check(p); ok {
			t.Errorf("after .git appeared, %+v still holds", p)
		}
	}
}
