//go:build !unix

package inputfs

import (
	"os"
)

// openNonBlocking checks the type before opening where O_NONBLOCK does not
// exist; the descriptor is checked again after opening.
func openNonBlocking(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := CheckRegular(path, st); err != nil {
		return nil, err
	}
	return os.Open(path)
}
