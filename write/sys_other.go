//go:build !unix

package write

import (
	"io/fs"
	"os"
)

const (
	nonBlock = 0
	noFollow = 0
)

// lockFile is a no-op where there is no flock(2): two runs writing in one
// repository at once are not serialised there.
func lockFile(*os.File) (func(), error) { return func() {}, nil }

// owner is not kept where there is no chown(2).
type owner struct{}

func ownerOf(fs.FileInfo) owner { return owner{} }

func (owner) apply(*os.File) error { return nil }

// links is 1: hard links are not counted here.
func links(fs.FileInfo) uint64 { return 1 }

// syncFile and syncDir are no-ops: directories cannot be opened for fsync
// on Windows, whose renames (MoveFileEx) are journaled by NTFS itself.
func syncFile(*os.File) error { return nil }

func syncDir(string) error { return nil }

func killSelf() { os.Exit(137) }
