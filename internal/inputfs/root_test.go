//go:build unix

package inputfs

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// TestRootOpenMatchesOSRoot: Root.open (openat2 on Linux) opens what
// os.Root opens and refuses what it refuses, on the paths a hostile tree
// can hold below a root: symlinks that stay, symlinks that leave (by ".."
// and absolutely), a FIFO, a directory, a missing file.
func TestRootOpenMatchesOSRoot(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	mk := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	mk(root + "/conf/sub")
	mk(dir + "/outside")
	write(root+"/conf/flink-conf.yaml", "a: 1\n")
	write(root+"/conf/sub/core-site.xml", "<configuration/>\n")
	write(dir+"/outside/secret", "outside\n")
	link("flink-conf.yaml", root+"/conf/same-dir")
	link("../conf/sub", root+"/conf/up-and-in")
	link("../../outside/secret", root+"/conf/escape")
	link(dir+"/outside/secret", root+"/conf/absolute")
	link(root+"/conf/flink-conf.yaml", root+"/conf/absolute-inside")
	link("../../outside", root+"/conf/escape-dir")
	if err := syscall.Mkfifo(root+"/conf/fifo", 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := openRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	// opens: what the one-call path itself opens on Linux (openat2Path;
	// elsewhere it opens nothing and open is os.Root's).
	opens := map[string]bool{
		"conf/flink-conf.yaml": true, "conf/sub/core-site.xml": true, "conf/same-dir": true,
		"conf/up-and-in/core-site.xml": true, "conf/sub/../flink-conf.yaml": true, "conf/fifo": true, "conf": true,
	}
	for _, rel := range []string{
		"conf/flink-conf.yaml", "conf/sub/core-site.xml", "conf/same-dir", "conf/up-and-in/core-site.xml",
		"conf/sub/../flink-conf.yaml", "conf/escape", "conf/absolute", "conf/absolute-inside",
		"conf/escape-dir/secret", "conf/fifo", "conf", "conf/missing", "../outside/secret",
	} {
		want, werr := h.r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		// The one-call path alone: it opens the file os.Root opens, and
		// nothing os.Root refuses.
		switch one := h.openat2Path(rel, filepath.Join(root, rel)); {
		case one == nil && opens[rel] && !openat2Off():
			t.Errorf("%s: openat2 did not open it", rel)
		case one != nil && werr != nil:
			t.Errorf("%s: openat2 opened what os.Root refuses (%v)", rel, werr)
		case one != nil:
			os1, err1 := one.Stat()
			ws, err2 := want.Stat()
			if err1 != nil || err2 != nil || !os.SameFile(os1, ws) {
				t.Errorf("%s: openat2 opened another file than os.Root (%v, %v)", rel, err1, err2)
			}
			one.Close()
		}
		got, gerr := h.open(rel, filepath.Join(root, rel))
		switch {
		case (gerr == nil) != (werr == nil):
			t.Errorf("%s: open = %v, os.Root = %v", rel, gerr, werr)
		case gerr != nil:
			if gerr.Error() != werr.Error() {
				t.Errorf("%s: error %q, os.Root's %q", rel, gerr, werr)
			}
		default:
			gs, err1 := got.Stat()
			ws, err2 := want.Stat()
			if err1 != nil || err2 != nil || !os.SameFile(gs, ws) {
				t.Errorf("%s: opened another file than os.Root (%v, %v)", rel, err1, err2)
			}
		}
		for _, f := range []*os.File{got, want} {
			if f != nil {
				f.Close()
			}
		}
	}
}

// TestRootOpenUsesOpenat2: on Linux a plain read takes the one-call path
// (a kernel without openat2, before 5.6, skips).
func TestRootOpenUsesOpenat2(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("openat2 is Linux's")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/a/b/f", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := openRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := h.openat2Path("a/b/f", dir+"/a/b/f")
	if f == nil {
		if openat2Off() {
			t.Skip("openat2 is not available here")
		}
		t.Fatal("openat2 refused a plain file below the root")
	}
	f.Close()
}
