package fix

import (
	"github.com/rogpeppe/go-internal/diff"

	"github.com/ckptlint/ckptlint/internal/safetext"
	"github.com/ckptlint/ckptlint/write"
)

// Diff renders c as a unified diff labelled a/NAME and b/NAME (from
// /dev/null for a file to create), name being the slash-separated display
// path; "" when nothing changes. patch -p1 applies it in the directory the
// names are relative to. Lines are compared exactly, line endings included,
// so a CRLF file shows as CRLF; a missing final newline is marked as diff(1)
// marks it. The algorithm is go-internal's anchored (patience) diff, which
// runs in O(n log n), so a large file cannot make --diff slow.
//
// A name that needs it is quoted in the headers as git quotes it
// (safetext.DiffPath: C escapes and octal, in double quotes), which patch
// -p1 and git apply read back as one name: a directory named
// "x\n+++ b/evil.sh" cannot add a header of its own.
func Diff(c write.Change, name string) string {
	old := safetext.DiffPath("a/" + name)
	if c.Old == nil {
		old = "/dev/null"
	}
	return string(diff.Diff(old, c.Old, safetext.DiffPath("b/"+name), c.New))
}
