package inputfs

import "strings"

// TreeJournalName is the name of the journal `ckptlint fix` kept at the
// top of the work tree before issue 25. It now lives in the git directory
// (or the user cache directory outside git, write/journal.go), where no
// commit can put one; a file of this name in the tree is never read, and
// lint reports it (CKPT005).
const TreeJournalName = ".ckptlint-fix.journal"

// StagedTarget reports whether base is named like a file `ckptlint fix`
// stages beside its target while it writes (".NAME.ckptlint-<digits>", the
// name every version has used) and returns NAME.
func StagedTarget(base string) (string, bool) {
	i := strings.LastIndex(base, ".ckptlint-")
	if len(base) < 2 || base[0] != '.' || i < 2 {
		return "", false
	}
	digits := base[i+len(".ckptlint-"):]
	if digits == "" {
		return "", false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	return base[1:i], true
}
