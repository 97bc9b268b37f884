//go:build linux

package inputfs

import "os"

func (h *Root) openat2Path(rel, path string) *os.File { return h.openat2(rel, path) }

func openat2Off() bool { return noOpenat2.Load() }
