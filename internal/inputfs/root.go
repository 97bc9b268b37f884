package inputfs

import "os"

// Root is a handle on a directory that reads go below
// (Boundary.ReadRegularInfo): an os.Root, which opens each element of a
// path below it with O_NOFOLLOW and follows a symlink only when it stays
// below the directory. On Linux a Root also holds the directory's own
// descriptor, opened through the os.Root, for openat2 (root_linux.go):
// one system call per file where os.Root opens and closes every directory
// on the way (os/root_openat.go, doInRoot).
type Root struct {
	r    *os.Root
	dir  string   // the directory, as opened
	self *os.File // the directory itself, where the platform uses it (Linux); nil otherwise
}

// openRootPortable opens dir as os.Root does; root_linux.go adds the
// descriptor it uses.
func openRootPortable(dir string) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Root{r: r, dir: dir}, nil
}
