//go:build !linux

package cache

import "os"

// replace puts the finished temporary file tmp in place of the entry p
// (replace_linux.go says why Linux exchanges the names instead).
func replace(tmp, p string) error { return os.Rename(tmp, p) }
