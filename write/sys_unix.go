//go:build unix

package write

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// nonBlock opens a file read-only without blocking on a FIFO.
const nonBlock = syscall.O_NONBLOCK

// noFollow refuses a symlink at the last element of a path.
const noFollow = syscall.O_NOFOLLOW

// lockFile takes an exclusive flock(2) on the open directory f, waiting
// for another ckptlint run that holds it. The kernel drops the lock when
// the process dies, so a killed run never leaves it held. The returned
// function releases it (f stays open).
func lockFile(f *os.File) (func(), error) {
	var err error
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
}

// owner is the uid and gid a staged file gets (set is false for a new file,
// which keeps the owner the process gives it).
type owner struct {
	uid, gid int
	set      bool
}

// ownerOf returns the owner of an existing file from its stat data (nil:
// a new file).
func ownerOf(st fs.FileInfo) owner {
	if st == nil {
		return owner{}
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{}
	}
	return owner{uid: int(sys.Uid), gid: int(sys.Gid), set: true}
}

// links is a file's hard link count (1 where stat data has none).
func links(st fs.FileInfo) uint64 {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Nlink) //nolint:unconvert // Nlink is uint32 on some architectures
	}
	return 1
}

// apply gives f the owner and group of the file it replaces, so a fix run
// as root does not hand a service's 0640 file to root. When that is not
// permitted (a user who does not own the file and is not root), the write
// is refused rather than changing who can read the file.
func (o owner) apply(f *os.File) error {
	if !o.set {
		return nil
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) == o.uid && int(sys.Gid) == o.gid {
		return nil
	}
	if err := f.Chown(o.uid, o.gid); err != nil {
		return fmt.Errorf("cannot keep the file's owner and group %d:%d (%w); run fix as the file's owner or as root", o.uid, o.gid, err)
	}
	return nil
}

// syncFile fsyncs an open directory (or file) so the entries created,
// renamed or removed in it are durable.
func syncFile(f *os.File) error {
	err := f.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, fs.ErrInvalid) {
		err = nil // file systems that cannot sync a directory
	}
	return err
}

// syncDir fsyncs the directory dir, named by its path (the journal's
// directory, outside every root).
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(syncFile(f), f.Close())
}

func killSelf() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}
