package assemble

import (
	"strings"

	"github.com/ckptlint/ckptlint/internal/format/hadoopxml"
	"github.com/ckptlint/ckptlint/internal/model"
)

// cdataIgnoredFor reports whether the declared Hadoop version certainly
// drops CDATA sections. Files are read the way current releases read them
// (CDATA is text) otherwise: a version that is unknown, only a lower bound
// inferred from the files, or without the patch level on a line where the
// patch level decides (2.10, 3.1, 3.2) keeps that reading, and the
// xml-cdata notice says what declaring the exact version changes.
func cdataIgnoredFor(r model.Resolved) bool {
	v := r.Version
	if !r.Declared() || v.IsZero() {
		return false
	}
	patchKnown := strings.Count(r.Raw, ".") >= 2
	if !patchKnown && (v.Major == 2 && v.Minor == 10 || v.Major == 3 && (v.Minor == 1 || v.Minor == 2)) {
		return false
	}
	return hadoopxml.CDATAIgnored(v.Major, v.Minor, v.Patch)
}
