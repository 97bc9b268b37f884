//go:build !unix

package inputfs

import "os"

func openRoot(dir string) (*Root, error) { return openRootPortable(dir) }

// open opens rel below h (path is its real path) as openNonBlocking opens
// a path.
func (h *Root) open(rel, path string) (*os.File, error) {
	st, err := h.r.Stat(rel)
	if err != nil {
		return nil, err
	}
	if err := CheckRegular(path, st); err != nil {
		return nil, err
	}
	return h.r.Open(rel)
}
