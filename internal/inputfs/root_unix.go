//go:build unix && !linux

package inputfs

import (
	"os"
	"syscall"
)

func openRoot(dir string) (*Root, error) { return openRootPortable(dir) }

// open opens rel below h (path is its real path) as openNonBlocking opens
// a path.
func (h *Root) open(rel, _ string) (*os.File, error) {
	return h.r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
