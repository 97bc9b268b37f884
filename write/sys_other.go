//go:build !unix

package write

import "os"

// lockDir is a no-op where there is no flock(2): two runs writing in one
// repository at once are not serialised there.
func lockDir(string) (func(), error) { return func() {}, nil }

// owner is not kept where there is no chown(2).
type owner struct{}

func ownerOf(string, bool) (owner, error) { return owner{}, nil }

func (owner) apply(*os.File) error { return nil }

// syncDir is a no-op: directories cannot be opened for fsync on Windows,
// whose renames (MoveFileEx) are journaled by NTFS itself.
func syncDir(string) error { return nil }

func killSelf() { os.Exit(137) }
