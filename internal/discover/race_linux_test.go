//go:build linux

package discover

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestReadRaceDirSwappedForSymlink is issue 25 item 7 on the read side: a
// racer swaps a directory of the repository with a symlink leading out of
// it (renameat2 RENAME_EXCHANGE, so the name always exists) while
// discovery walks and reads the repository again and again. A read that
// resolved the path inside the repository must never open the file outside
// (before reads were opened below a handle on the root, a lint printed an
// outside value in 7 of 150 runs).
func TestReadRaceDirSwappedForSymlink(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	conf := filepath.Join(repo, "conf")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(repo, ".git"), conf, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(conf, "flink-conf.yaml"), "parallelism.default: 1\n")
	write(filepath.Join(outside, "flink-conf.yaml"), "parallelism.default: 1\nsecret.value: OUTSIDE-SECRET\n")
	link := filepath.Join(repo, "conf.link")
	if err := os.Symlink("../outside", link); err != nil {
		t.Fatal(err)
	}
	stop := swapLoop(t, conf, link)
	escapes, runs := 0, 0
	for deadline := time.Now().Add(3 * time.Second); runs < 3000 && time.Now().Before(deadline); runs++ {
		d, err := Walk([]string{repo}, Options{})
		if err != nil {
			continue // the walk itself met the swap: reported, not read
		}
		for _, p := range d.Paths() {
			if f := d.Get(p); bytes.Contains(f.Src, []byte("OUTSIDE-SECRET")) {
				escapes++
			}
		}
	}
	stop()
	t.Logf("%d walks, %d read the file outside the repository", runs, escapes)
	if escapes > 0 {
		t.Errorf("%d of %d walks read %s/flink-conf.yaml through a directory swapped for a symlink after it was checked", escapes, runs, outside)
	}
}

// swapLoop exchanges the entries a and b (a directory and a symlink) in a
// loop until the returned function is called.
func swapLoop(t *testing.T, a, b string) func() {
	t.Helper()
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		t.Skipf("renameat2 RENAME_EXCHANGE: %v", err)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			_ = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
		}
	})
	return func() {
		close(done)
		wg.Wait()
		// Leave the directory at a, so the temporary tree can be removed.
		if st, err := os.Lstat(a); err == nil && st.Mode()&os.ModeSymlink != 0 {
			_ = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
		}
	}
}

// TestReadAgainRace: the reporters' second read of a file (Tree ReadAgain,
// for the snippet of a finding on an xi:include target or a version
// evidence file) goes below the root's handle too: with a racer swapping
// its directory for a symlink leading out, it never returns the outside
// file (it read it by name after a separate check before).
func TestReadAgainRace(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	conf := filepath.Join(repo, "conf")
	for _, d := range []string{filepath.Join(repo, ".git"), conf, filepath.Join(base, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(conf, "extra.xml")
	if err := os.WriteFile(p, []byte("<configuration/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "outside", "extra.xml"), []byte("OUTSIDE-SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(repo, "conf.link")
	if err := os.Symlink("../outside", link); err != nil {
		t.Fatal(err)
	}
	d, err := Walk([]string{repo}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	stop := swapLoop(t, conf, link)
	escapes, reads, runs := 0, 0, 0
	for deadline := time.Now().Add(2 * time.Second); runs < 20000 && time.Now().Before(deadline); runs++ {
		b, ok := d.ReadAgain(p)
		if ok {
			reads++
		}
		if bytes.Contains(b, []byte("OUTSIDE-SECRET")) {
			escapes++
		}
	}
	stop()
	t.Logf("%d reads again, %d read a file, %d the one outside", runs, reads, escapes)
	if escapes > 0 {
		t.Errorf("%d of %d reads again returned the file outside the repository", escapes, runs)
	}
}
