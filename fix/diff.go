package fix

import (
	"bytes"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
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
// runs in O(n log n) and keeps an inserted block whole; it anchors on
// unique lines only, so where lines repeat (two compose services with the
// same FLINK_PROPERTIES lines; every <property> of a Hadoop file) it can
// show a line that stayed as removed and added again: go-udiff's (gopls'
// Myers LCS with a bounded effort) is computed too and taken when it
// changes fewer lines. A 200,000-line file with
// every seventh line changed diffs in well under a second (go test ./fix
// -bench DiffLarge).
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
	new := safetext.DiffPath("b/" + name)
	if bytes.Equal(c.Old, c.New) {
		return ""
	}
	anchored := diff.Diff(old, c.Old, new, c.New)
	u := udiff.Unified(old, new, string(c.Old), string(c.New))
	if changed(u) < changed(string(anchored)) {
		return "diff " + old + " " + new + "\n" + u
	}
	return string(anchored)
}

// changed counts the removed and added lines of a unified diff.
func changed(d string) int {
	n := 0
	for l := range strings.Lines(d) {
		if (l[0] == '-' && !strings.HasPrefix(l, "--- ")) || (l[0] == '+' && !strings.HasPrefix(l, "+++ ")) {
			n++
		}
	}
	return n
}
