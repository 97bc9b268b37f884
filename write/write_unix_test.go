//go:build unix

package write

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteKeepsOwner runs as root (as the tests do in CI): a 0640 file
// owned by nobody:nogroup keeps its owner, group and mode through a write,
// and so does a report written with File.
func TestWriteKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	const uid, gid = 65534, 65534 // nobody:nogroup on Debian and most Linux
	root := t.TempDir()
	a := filepath.Join(root, "hdfs-site.xml")
	os.WriteFile(a, []byte("old\n"), 0o640)
	os.Chmod(a, 0o640)
	if err := os.Chown(a, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := All([]Change{{Path: a, Old: []byte("old\n"), New: []byte("new\n"), Mode: 0o640}}, root); err != nil {
		t.Fatal(err)
	}
	checkOwner(t, a, uid, gid, 0o640)
	r := filepath.Join(root, "report.sarif")
	os.WriteFile(r, []byte("{}"), 0o600)
	os.Chown(r, uid, gid)
	if err := File(r, []byte("{\"runs\":[]}")); err != nil {
		t.Fatal(err)
	}
	checkOwner(t, r, uid, gid, 0o600)
}

func checkOwner(t *testing.T, p string, uid, gid int, mode os.FileMode) {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	sys := st.Sys().(*syscall.Stat_t)
	if int(sys.Uid) != uid || int(sys.Gid) != gid || st.Mode().Perm() != mode {
		t.Errorf("%s: owner %d:%d mode %v, want %d:%d %v", p, sys.Uid, sys.Gid, st.Mode().Perm(), uid, gid, mode)
	}
}
