//go:build unix

package write

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// lockDir takes an exclusive flock(2) on the directory dir, waiting for
// another ckptlint run that holds it. The kernel drops the lock when the
// process dies, so a killed run never leaves it held.
func lockDir(dir string) (func(), error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// owner is the uid and gid a staged file gets (set is false for a new file,
// which keeps the owner the process gives it).
type owner struct {
	uid, gid int
	set      bool
}

// ownerOf returns the owner of the existing target.
func ownerOf(target string, exists bool) (owner, error) {
	if !exists {
		return owner{}, nil
	}
	st, err := os.Stat(target)
	if err != nil {
		return owner{}, err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{}, nil
	}
	return owner{uid: int(sys.Uid), gid: int(sys.Gid), set: true}, nil
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

// syncDir fsyncs a directory so the entries created, renamed or removed in
// it are durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, fs.ErrInvalid) {
		err = nil // file systems that cannot sync a directory
	}
	return errors.Join(err, f.Close())
}

func killSelf() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}
