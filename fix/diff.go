package fix

import (
	"github.com/rogpeppe/go-internal/diff"

	"github.com/ckptlint/ckptlint/write"
)

// Diff renders c as a unified diff labelled a/NAME and b/NAME (from
// /dev/null for a file to create), name being the slash-separated display
// path; "" when nothing changes. patch -p1 applies it in the directory the
// names are relative to. Lines are compared exactly, line endings included,
// so a CRLF file shows as CRLF; a missing final newline is marked as diff(1)
// marks it. The algorithm is go-internal's anchored (patience) diff, which
// runs in O(n log n), so a large file cannot make --diff slow.
func Diff(c write.Change, name string) string {
	old := "a/" + name
	if c.Old == nil {
		old = "/dev/null"
	}
	return string(diff.Diff(old, c.Old, "b/"+name, c.New))
}
