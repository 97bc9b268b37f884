//go:build unix

package inputfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestBoundary(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	for _, d := range []string{repo + "/.git", repo + "/conf", dir + "/outside"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p string) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(repo + "/conf/a.xml")
	write(dir + "/outside/secret")
	if err := os.Symlink("../../outside/secret", repo+"/conf/out"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.xml", repo+"/conf/in"); err != nil {
		t.Fatal(err)
	}
	var b Boundary
	if err := b.AddTree(repo + "/conf"); err != nil { // the repository of a subdirectory
		t.Fatal(err)
	}
	for _, p := range []string{repo + "/conf/a.xml", repo + "/conf/in", repo + "/conf/../conf/a.xml"} {
		if _, err := b.Check(p); err != nil {
			t.Errorf("Check(%s): %v", p, err)
		}
	}
	for _, p := range []string{repo + "/conf/out", dir + "/outside/secret", repo + "/../outside/secret", "/etc/passwd", dir + "/outside/missing"} {
		if _, err := b.Check(p); !IsOutside(err) {
			t.Errorf("Check(%s) = %v, want an OutsideError", p, err)
		}
	}
	b.AddNamed(dir + "/outside/secret")
	if _, err := b.Check(repo + "/conf/out"); err != nil {
		t.Errorf("a named file is allowed, through a symlink too: %v", err)
	}
	var none Boundary
	if _, err := none.Check(repo + "/conf/a.xml"); !IsOutside(err) {
		t.Errorf("an empty boundary allows %v", err)
	}
	var nb *Boundary
	if _, err := nb.Check(repo + "/conf/a.xml"); err != nil {
		t.Errorf("a nil boundary refuses: %v", err)
	}
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadRegular(p, 5); err != nil || string(b) != "12345" {
		t.Errorf("ReadRegular = %q, %v", b, err)
	}
	var tl *TooLargeError
	if _, err := ReadRegular(p, 4); !errors.As(err, &tl) {
		t.Errorf("over the limit: %v", err)
	}
	var nr *NotRegularError
	if _, err := ReadRegular(dir, 10); !errors.As(err, &nr) || nr.Kind != "a directory" {
		t.Errorf("directory: %v", err)
	}
	// A FIFO with no writer: a blocking open would wait forever.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if _, err := ReadRegular(fifo, 10); !errors.As(err, &nr) || nr.Kind != "a named pipe (FIFO)" {
		t.Errorf("FIFO: %v", err)
	}
	if _, err := ReadRegular(filepath.Join(dir, "missing"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

func TestBudget(t *testing.T) {
	b := NewBudget(10)
	if err := b.Take(6); err != nil {
		t.Fatal(err)
	}
	var be *BudgetError
	if err := b.Take(5); !errors.As(err, &be) {
		t.Errorf("over budget: %v", err)
	}
	if err := b.Take(4); err != nil {
		t.Errorf("a refused take must not use the budget: %v", err)
	}
	var nb *Budget
	if err := nb.Take(1 << 40); err != nil {
		t.Errorf("nil budget: %v", err)
	}
}

// TestBoundaryReadAfterSwap: a directory swapped for a symlink leading out
// between Check and the read (issue 25 item 7) makes the read an
// *OutsideError naming where the path resolves now; the file outside is
// never opened. TestReadRaceDirSwappedForSymlink (internal/discover) races it.
func TestBoundaryReadAfterSwap(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	for _, d := range []string{repo + "/.git", repo + "/conf", dir + "/outside"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(repo+"/conf/flink-conf.yaml", []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/outside/flink-conf.yaml", []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b Boundary
	if err := b.AddTree(repo); err != nil {
		t.Fatal(err)
	}
	real, err := b.Check(repo + "/conf/flink-conf.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := b.ReadRegularInfo(real, 1<<20); err != nil || string(got) != "inside\n" {
		t.Fatalf("read = %q, %v", got, err)
	}
	if err := os.Rename(repo+"/conf", repo+"/conf.moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside", repo+"/conf"); err != nil {
		t.Fatal(err)
	}
	got, _, err := b.ReadRegularInfo(real, 1<<20)
	var oe *OutsideError
	if !errors.As(err, &oe) || !strings.HasSuffix(oe.Resolved, "/outside/flink-conf.yaml") {
		t.Fatalf("read after the swap = %q, %v; want an *OutsideError resolving to outside/flink-conf.yaml", got, err)
	}
}

// TestBoundaryReadNamedFile: a file named on its own (a .ckptlint.hcl
// cluster_hdfs_site outside the repository) is a root by itself; it is read
// below a handle on its directory.
func TestBoundaryReadNamedFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hdfs-site.xml")
	if err := os.WriteFile(p, []byte("<configuration/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.xml"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b Boundary
	b.AddNamed(p)
	real, err := b.Check(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := b.ReadRegularInfo(real, 1<<20); err != nil || string(got) != "<configuration/>\n" {
		t.Errorf("read = %q, %v", got, err)
	}
	if _, err := b.Check(filepath.Join(dir, "other.xml")); !IsOutside(err) {
		t.Errorf("a sibling of a named file: %v, want outside", err)
	}
}

// TestBoundaryNamedFileHoldsNothingBelow: a file named on its own is a
// root of itself alone. Replaced later by a directory, and then by a
// symlink to a sibling directory, nothing "below" it is inside: neither
// Check nor a read reaches dir/secret/x through it.
func TestBoundaryNamedFileHoldsNothingBelow(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hdfs-site.xml")
	if err := os.WriteFile(p, []byte("<configuration/>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "secret"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret", "x"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b Boundary
	b.AddNamed(p)
	if _, err := b.Check(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p, "x"), []byte("below\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Check(filepath.Join(p, "x")); !IsOutside(err) {
		t.Errorf("Check of a path below a named file: %v, want outside", err)
	}
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("secret", p); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Check(filepath.Join(p, "x")); !IsOutside(err) {
		t.Errorf("Check through a named file swapped for a symlink: %v, want outside", err)
	}
	if got, _, err := b.ReadRegularInfo(filepath.Join(p, "x"), 1<<20); err == nil {
		t.Errorf("read through a named file swapped for a symlink: %q", got)
	}
}
