//go:build linux

package inputfs

import (
	"errors"
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 is found missing (ENOSYS: a kernel before
// 5.6) or refused (EPERM: a seccomp profile that predates it, as older
// container runtimes' defaults do); every read then goes through os.Root.
var noOpenat2 atomic.Bool

func openRoot(dir string) (*Root, error) {
	h, err := openRootPortable(dir)
	if err != nil || noOpenat2.Load() {
		return h, err
	}
	// The directory's descriptor, opened through the os.Root, so that both
	// are the same directory whatever happens to its path meanwhile.
	if self, err := h.r.Open("."); err == nil {
		h.self = self
	}
	return h, nil
}

// open opens rel below h (path is its real path) as openNonBlocking opens
// a path: with openat2(2) and RESOLVE_BENEATH, which fails (EXDEV) where
// any step of the resolution, a symlink's target or a "..", would leave
// the directory, and RESOLVE_NO_MAGICLINKS (no /proc/*/fd links). That is
// os.Root's rule in one system call, so a read that openat2 completes is
// one os.Root would complete with the same file; any other answer (an
// escape, a missing file, EAGAIN on a concurrent rename, a magic link) is
// asked of os.Root again, whose error the run reports as before.
func (h *Root) open(rel, path string) (*os.File, error) {
	if h.self != nil && !noOpenat2.Load() {
		if f := h.openat2(rel, path); f != nil {
			return f, nil
		}
	}
	return h.r.OpenFile(rel, os.O_RDONLY|unix.O_NONBLOCK, 0)
}

func (h *Root) openat2(rel, path string) *os.File {
	rc, err := h.self.SyscallConn()
	if err != nil {
		return nil
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY | unix.O_LARGEFILE,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, oerr := -1, error(nil)
	if err := rc.Control(func(dir uintptr) {
		for {
			fd, oerr = unix.Openat2(int(dir), rel, &how)
			if !errors.Is(oerr, unix.EINTR) {
				return
			}
		}
	}); err != nil {
		return nil
	}
	if oerr != nil {
		if errors.Is(oerr, unix.ENOSYS) || errors.Is(oerr, unix.EPERM) {
			noOpenat2.Store(true)
		}
		return nil
	}
	return os.NewFile(uintptr(fd), path)
}
