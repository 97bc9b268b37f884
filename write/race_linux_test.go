//go:build linux

package write

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// raceTree is a repository whose conf directory a racer swaps with a
// symlink leading out of it (renameat2 RENAME_EXCHANGE, so the name always
// exists): conf/flink-conf.yaml inside and outside/flink-conf.yaml hold the
// same bytes, so a write that is led out passes every content check.
func raceTree(t *testing.T) (repo, outside string, real *os.Root, stop func()) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	base := t.TempDir()
	repo = filepath.Join(base, "repo")
	conf := filepath.Join(repo, "conf")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(repo, ".git"), conf, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{conf, outside} {
		if err := os.WriteFile(filepath.Join(d, "flink-conf.yaml"), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(repo, "conf.link")
	if err := os.Symlink("../outside", link); err != nil {
		t.Fatal(err)
	}
	// A handle on the real directory, wherever the racer moves it, to put
	// the old content back between runs.
	real, err := os.OpenRoot(conf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { real.Close() })
	if err := unix.Renameat2(unix.AT_FDCWD, conf, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err != nil {
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
			_ = unix.Renameat2(unix.AT_FDCWD, conf, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
			// A pause between swaps: a racer that never sleeps keeps the
			// file system's journal so busy that each fsync of a run takes
			// a second.
			time.Sleep(50 * time.Microsecond)
		}
	})
	var once sync.Once
	stop = func() {
		once.Do(func() {
			close(done)
			wg.Wait()
			if st, err := os.Lstat(conf); err == nil && st.Mode()&os.ModeSymlink != 0 {
				_ = unix.Renameat2(unix.AT_FDCWD, conf, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
			}
		})
	}
	t.Cleanup(stop)
	return repo, outside, real, stop
}

// escaped reports what a run left outside the repository: a changed
// outside/flink-conf.yaml or any other file there (a staged file).
func escaped(t *testing.T, outside string) string {
	t.Helper()
	ents, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.Name() != "flink-conf.yaml" {
			out = append(out, "created "+e.Name())
			os.RemoveAll(filepath.Join(outside, e.Name()))
		}
	}
	p := filepath.Join(outside, "flink-conf.yaml")
	if b, err := os.ReadFile(p); err != nil || !bytes.Equal(b, []byte("old\n")) {
		out = append(out, "rewrote flink-conf.yaml")
		_ = os.WriteFile(p, []byte("old\n"), 0o644)
	}
	return strings.Join(out, ", ")
}

// TestWriteRaceDirSwappedForSymlink is issue 25 item 7: while a racer swaps
// conf for a symlink leading out of the repository, fix's writer (All), the
// report writer (File) and generate's (All below a new directory) run again
// and again on conf/flink-conf.yaml, conf/report.json and
// conf/gen/flink-conf.yaml. None may create or change a file outside (before every
// open and rename went below a handle on the root, an outside file was
// rewritten in 6 and 14 of 150 runs).
func TestWriteRaceDirSwappedForSymlink(t *testing.T) {
	repo, outside, real, stop := raceTree(t)
	wd, _ := os.Getwd()
	if err := os.Chdir(repo); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	target := filepath.Join(repo, "conf", "flink-conf.yaml")
	var escapes []string
	runs, wrote := 0, 0
	for deadline := time.Now().Add(4 * time.Second); runs < 400 && time.Now().Before(deadline); runs++ {
		if err := All([]Change{{Path: target, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o644}}, repo); err == nil {
			wrote++
		}
		if e := escaped(t, outside); e != "" {
			escapes = append(escapes, "fix: "+e)
		}
		_ = File(filepath.Join(repo, "conf", "report.json"), []byte("{}\n"))
		if e := escaped(t, outside); e != "" {
			escapes = append(escapes, "report: "+e)
		}
		// generate --out conf/gen: a root that does not exist yet, below
		// the swapped directory.
		_ = All([]Change{{Path: filepath.Join(repo, "conf", "gen", "flink-conf.yaml"), New: []byte("new\n"), Mode: 0o644}}, filepath.Join(repo, "conf", "gen"))
		if e := escaped(t, outside); e != "" {
			escapes = append(escapes, "generate: "+e)
		}
		_ = real.WriteFile("flink-conf.yaml", []byte("old\n"), 0o644)
		_ = real.Remove("report.json")
		_ = real.RemoveAll("gen")
	}
	stop()
	t.Logf("%d runs, %d fix writes landed inside, %d escapes", runs, wrote, len(escapes))
	if len(escapes) > 0 {
		t.Errorf("%d of %d runs wrote outside the repository through a directory swapped for a symlink: %s", len(escapes), runs, strings.Join(escapes[:min(len(escapes), 5)], "; "))
	}
}
