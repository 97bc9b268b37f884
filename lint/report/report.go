package report

import (
	"fmt"
	"io"

	"github.com/ckptlint/ckptlint/lint/finding"
)

// Result is what reporters see.
type Result struct {
	Version  string            // ckptlint version
	Findings []finding.Finding // sorted
	Sets     int               // config sets linted
	Files    int               // files read
	// Sources holds file contents by display path, for the TTY text form
	// that shows the offending line.
	Sources map[string][]byte
}

// Reporter renders a result.
type Reporter func(w io.Writer, r Result) error

// Options tune the text reporter.
type Options struct {
	Color   bool // ANSI colours (only on a TTY)
	Snippet bool // source line with a caret under the span (only on a TTY)
}

// Formats lists the reporter names, for flag validation and help.
var Formats = []string{"text", "json"}

// Get returns the reporter for name.
func Get(name string, opts Options) (Reporter, error) {
	switch name {
	case "text":
		return func(w io.Writer, r Result) error { return Text(w, r, opts) }, nil
	case "json":
		return JSON, nil
	}
	return nil, fmt.Errorf("unknown format %q (want one of %v)", name, Formats)
}

// Counts returns the number of findings per severity name.
func Counts(fs []finding.Finding) map[string]int {
	m := map[string]int{"error": 0, "warning": 0, "info": 0}
	for _, f := range fs {
		m[f.Severity.String()]++
	}
	return m
}
