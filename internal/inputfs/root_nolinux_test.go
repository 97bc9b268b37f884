//go:build unix && !linux

package inputfs

import "os"

func (h *Root) openat2Path(string, string) *os.File { return nil }

func openat2Off() bool { return true }
