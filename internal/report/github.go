package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

// GitHub writes one GitHub Actions workflow command per finding:
//
//	::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=ID name::message
//
// (::warning for warnings, ::notice for infos). Paths are relative to the
// repository root and columns count Unicode code points. The message's
// first line is the finding's headline; the detail follows after a blank
// line, then the fix in words, when there is one, and the rule's
// documentation link. Suppressed findings are not annotated.
func GitHub(w io.Writer, r Result) error { return streamed("github", Options{})(w, r) }

// githubGroup writes the workflow commands of a group.
func githubGroup(head Result) func(b *bytes.Buffer, g Group) {
	return func(b *bytes.Buffer, g Group) {
		cols := newColumns(g.Sources)
		for _, f := range g.Findings {
			cmd := map[finding.Severity]string{finding.Error: "error", finding.Warning: "warning"}[f.Severity]
			if cmd == "" {
				cmd = "notice"
			}
			file, _ := head.repoPath(f.Range.File)
			rg := cols.region(f.Range.File, f.Range.Span)
			// The annotation is text people read: the message and the fix
			// are shown with visible escapes (one line each), and only
			// the file property keeps the name as it is, for GitHub to
			// find the file.
			msg := safetext.Text(f.Message)
			if f.Detail != "" {
				msg += "\n\n" + safetext.Text(f.Detail)
			}
			if len(f.Fix) > 0 {
				msg += "\nFixable with ckptlint fix: " + safetext.Text(fixWords(f.Fix)) + "."
			}
			if f.DocURL != "" {
				msg += "\n" + safetext.Text(f.DocURL)
			}
			fmt.Fprintf(b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n", cmd,
				escapeProperty(file), rg.startLine, rg.startCol, rg.endLine, rg.endCol,
				escapeProperty(safetext.Text(f.RuleID+" "+f.RuleName)), escapeData(msg))
		}
	}
}

// escapeData escapes a workflow command's message as the Actions runner
// unescapes it (actions/toolkit command.ts escapeData).
var dataEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

func escapeData(s string) string { return dataEscaper.Replace(s) }

// escapeProperty escapes a workflow command's property value (toolkit
// escapeProperty): the data escapes plus ':' and ','.
var propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
