//go:build unix

package inputfs

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only with O_NONBLOCK, so opening a FIFO
// with no writer returns at once instead of waiting for one. Reads of a
// regular file ignore the flag.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
