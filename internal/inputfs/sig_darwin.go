//go:build darwin

package inputfs

import (
	"io/fs"
	"syscall"
	"time"
)

// statTimes returns a file's identity and change times from its stat
// data: device, inode, modification and status-change time (ctime, which
// no program can set back: see stat(2)). ok is false when st carries no
// stat data.
func statTimes(st fs.FileInfo) (dev, ino uint64, mtime, ctime time.Time, ok bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, time.Time{}, time.Time{}, false
	}
	return uint64(s.Dev), s.Ino, time.Unix(s.Mtimespec.Unix()), time.Unix(s.Ctimespec.Unix()), true //nolint:unconvert // Dev is int32 on darwin
}
