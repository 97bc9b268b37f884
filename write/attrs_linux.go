//go:build linux

package write

import (
	"os"

	"golang.org/x/sys/unix"
)

// The inode flags of include/uapi/linux/fs.h that FS_IOC_GETFLAGS returns
// (golang.org/x/sys/unix has the ioctl, not the flags).
const (
	fsImmutableFL = 0x00000010 // FS_IMMUTABLE_FL, chattr +i
	fsAppendFL    = 0x00000020 // FS_APPEND_FL, chattr +a
)

// fileAttrs reports whether the open file or directory f carries the
// append-only or the immutable attribute (chattr(1) +a, +i; read with
// FS_IOC_GETFLAGS, ioctl_iflags(2)). A file system without these
// attributes answers ENOTTY: neither.
func fileAttrs(f *os.File) (appendOnly, immutable bool) {
	c, err := f.SyscallConn()
	if err != nil {
		return false, false
	}
	var flags uint32
	var ierr error
	if c.Control(func(fd uintptr) { flags, ierr = unix.IoctlGetUint32(int(fd), unix.FS_IOC_GETFLAGS) }) != nil || ierr != nil {
		return false, false
	}
	return flags&fsAppendFL != 0, flags&fsImmutableFL != 0
}
