// The edits (edit.go, editor.go, lines.go) are the format-neutral half of
// ckptlint's fixer: a byte
// splice (Edit), Apply, which validates and applies a set of splices, and
// the Editor interface that each format package implements on its parser's
// spans to lower semantic fix operations (set, delete, rename a key) to
// splices on the original bytes. Everything an edit does not touch stays
// byte-identical: comments, blank lines, quoting, line endings, a byte
// order mark.
//
// An Editor computes every operation against the source it was built
// from, so the edits of several operations of one editor can be applied
// together when they do not overlap; Apply reports ErrOverlap when they do
// (the caller then applies one, parses again and builds a new editor).
//
// Editors check their own work: before returning, they apply the edits,
// parse the result with the format's parser and compare what the consuming
// system would read with what the operation promises (the key has the new
// value, or is gone; every other key is unchanged). An edit that would not
// survive that check is refused with ErrCannotRepresent rather than
// returned.
//
// Errors callers branch on are sentinels: ErrCannotRepresent (the file or
// format cannot hold the change, e.g. a '#' in a legacy flink-conf.yaml
// value), ErrNotFound (delete or rename of a key the file does not set),
// ErrExists (rename onto a key the file already sets) and ErrOverlap.
// Delete and Rename of an absent key return ErrNotFound, so a fix loop
// treats ErrNotFound on a second round as "already done"; Set of the value
// the key already holds returns no edits.
//
// The line helpers (LineBreak, LineBounds, InsertAfterLine, AppendLines,
// DeleteLines) are shared by the line-oriented editors (flink-conf.yaml and
// YAML); they treat "\n", "\r\n" and a lone "\r" as line breaks, as both
// Java's BufferedReader and YAML do.

package parsed
