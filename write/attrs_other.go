//go:build !linux

package write

import "os"

// fileAttrs reports neither attribute where ckptlint does not read
// chattr(1)-style attributes; a write they prevent fails at its rename and
// is undone.
func fileAttrs(*os.File) (appendOnly, immutable bool) { return false, false }
