// Package report renders lint results. Each reporter is a pure function of
// the result, Reporter(w, Result) error, and sees only findings and rule
// metadata, never the engine. Formats (listed once in Formats, resolved by
// Get): text, json, sarif, github, junit and markdown; docs/output.md
// documents each.
package report
