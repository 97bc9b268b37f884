package config

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// wrapWidth is the column at which Write wraps diagnostic details.
const wrapWidth = 78

// Diagnostics holds what Load (and, appended by the caller, Validate) found
// wrong with a configuration file, together with the parsed sources that
// Write needs to show snippets. Methods other than Append accept a nil
// *Diagnostics.
type Diagnostics struct {
	// Diags are the diagnostics in file order.
	Diags hcl.Diagnostics
	files map[string]*hcl.File
}

// Append adds diagnostics, for example those of Config.Validate.
func (d *Diagnostics) Append(diags ...*hcl.Diagnostic) {
	d.Diags = append(d.Diags, diags...)
	sortDiagnostics(d.Diags)
}

// HasErrors reports whether any diagnostic is an error.
func (d *Diagnostics) HasErrors() bool {
	return d != nil && d.Diags.HasErrors()
}

// Err returns the diagnostics as an error when there is at least one error,
// else nil. Its text is hcl's one-line summary (file:line,col: summary;
// detail, and N other diagnostic(s)); use Write for the full rendering.
func (d *Diagnostics) Err() error {
	if !d.HasErrors() {
		return nil
	}
	return d.Diags
}

// Write renders the diagnostics with source snippets (highlighted when color
// is true), wrapped at 78 columns, in the form hcl uses:
//
//	Error: Unsupported argument
//
//	  on .ckptlint.hcl line 3, in cluster "prod":
//	   3:   datanode = 3
//
//	An argument named "datanode" is not expected here. Did you mean
//	"datanodes"?
//
// At most maxWritten diagnostics are rendered, then one line counting the
// rest: hcl's writer rescans the file for every snippet, so a hostile file
// with thousands of mistakes would otherwise take seconds to report
// (docs/security.md).
func (d *Diagnostics) Write(w io.Writer, color bool) error {
	if d == nil || len(d.Diags) == 0 {
		return nil
	}
	diags := d.Diags
	if len(diags) > maxWritten {
		diags = diags[:maxWritten]
	}
	if err := hcl.NewDiagnosticTextWriter(w, d.files, wrapWidth, color).WriteDiagnostics(diags); err != nil {
		return err
	}
	if rest := len(d.Diags) - len(diags); rest > 0 {
		_, err := fmt.Fprintf(w, "... and %d more diagnostic(s) not shown; fix the ones above first.\n", rest)
		return err
	}
	return nil
}

// maxWritten bounds the diagnostics Write renders.
const maxWritten = 20

// sortDiagnostics orders diagnostics by file and start offset; diagnostics
// without a subject (an unreadable file) come first.
func sortDiagnostics(diags hcl.Diagnostics) {
	slices.SortStableFunc(diags, func(a, b *hcl.Diagnostic) int {
		switch {
		case a.Subject == nil && b.Subject == nil:
			return 0
		case a.Subject == nil:
			return -1
		case b.Subject == nil:
			return 1
		}
		return cmp.Or(
			cmp.Compare(a.Subject.Filename, b.Subject.Filename),
			cmp.Compare(a.Subject.Start.Byte, b.Subject.Start.Byte),
		)
	})
}
