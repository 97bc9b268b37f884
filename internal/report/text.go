package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiGray   = "\x1b[90m"
)

// Text writes each finding as its headline line, path:line:col: severity:
// message [id name] (with ", fixable" in the brackets when the finding has
// a fix), then its detail on the next line indented by four spaces, and
// with opts.Snippet the source line with a caret under the span. With
// opts.Compact it writes the headline line only: one line per finding. It
// streams (NewStreamer): r's groups in order.
func Text(w io.Writer, r Result, opts Options) error { return streamed("text", opts)(w, r) }

// textGroup writes the lines of a group.
func textGroup(opts Options) func(b *bytes.Buffer, g Group) {
	return func(b *bytes.Buffer, g Group) {
		for _, f := range g.Findings {
			sev := f.Severity.String()
			if opts.Color {
				c := map[finding.Severity]string{finding.Error: ansiRed, finding.Warning: ansiYellow, finding.Info: ansiCyan}[f.Severity]
				// The colours are the only escapes: names and values are
				// shown as String shows them (internal/safetext).
				fmt.Fprintf(b, "%s%s:%d:%d:%s %s%s%s: %s %s[%s]%s\n", ansiBold, safetext.Path(f.Range.File), f.Range.Start.Line, f.Range.Start.Col, ansiReset,
					c, sev, ansiReset, safetext.Text(f.Message), ansiGray, safetext.Text(f.Tag()), ansiReset)
			} else {
				fmt.Fprintln(b, f.String())
			}
			if f.Detail != "" && !opts.Compact {
				fmt.Fprintf(b, "%s%s\n", detailIndent, safetext.Text(finding.Clip(f.Detail)))
			}
			if opts.Snippet {
				writeSnippet(b, g.Sources[f.Range.File], f)
			}
		}
	}
}

// detailIndent starts the line of a finding's detail in the text report.
const detailIndent = "    "

// writeSnippet writes the finding's first line and a caret line under its
// span: under the whole span on that line, to the end of the line when the
// span goes on, one caret when it is empty. Widths count runes, and tabs
// before the span are kept so that the caret lines up. A line longer than
// finding.MaxQuoted runes is shown around the span only, with "…" where it
// is cut. The line is shown with visible escapes (safetext.Source), and
// the caret counts the runes of what is shown.
func writeSnippet(b *bytes.Buffer, src []byte, f finding.Finding) {
	if src == nil || f.Range.Start.Line <= 0 {
		return
	}
	line, ok := lineOf(src, f.Range.Start.Line)
	if !ok {
		return
	}
	line = strings.TrimRight(line, "\r")
	start := min(max(f.Range.Start.Col, 1)-1, len(line))
	end := start
	switch {
	case f.Range.End.Line > f.Range.Start.Line:
		end = len(line)
	case f.Range.End.Line == f.Range.Start.Line && f.Range.End.Col-1 > start:
		end = min(f.Range.End.Col-1, len(line))
	}
	prefix := ""
	if utf8.RuneCountInString(line) > finding.MaxQuoted {
		// Keep up to 40 bytes before the span and MaxQuoted bytes of it.
		from := max(start-40, 0)
		for from > 0 && !utf8.RuneStart(line[from]) {
			from--
		}
		to := min(max(end, start+1), start+finding.MaxQuoted, len(line))
		for to < len(line) && !utf8.RuneStart(line[to]) {
			to++
		}
		suffix := ""
		if to < len(line) {
			suffix = "…"
		}
		if from > 0 {
			prefix = "…"
		}
		line = line[from:to] + suffix
		start, end = start-from, min(end, to)-from
	}
	// What Source shows of a prefix of the line is a prefix of what it
	// shows of the line (an escape depends only on what comes before).
	shown, before, upTo := safetext.Source(line), safetext.Source(line[:start]), safetext.Source(line[:end])
	fmt.Fprintf(b, "  %4d | %s%s\n", f.Range.Start.Line, prefix, shown)
	width := max(utf8.RuneCountInString(shown[len(before):len(upTo)]), 1)
	pad := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, prefix+before)
	fmt.Fprintf(b, "       | %s%s\n", pad, strings.Repeat("^", width))
}

// lineOf returns 1-based line n of src without its newline.
func lineOf(src []byte, n int) (string, bool) {
	for i := 1; ; i++ {
		j := bytes.IndexByte(src, '\n')
		if i == n {
			if j < 0 {
				return string(src), true
			}
			return string(src[:j]), true
		}
		if j < 0 {
			return "", false
		}
		src = src[j+1:]
	}
}

// Summary is the one-line tally printed after text findings on a TTY:
// counts are the findings per severity name (Counts).
func Summary(counts map[string]int, sets, files int) string {
	return fmt.Sprintf("%d error(s), %d warning(s), %d info in %d config set(s), %d file(s)",
		counts["error"], counts["warning"], counts["info"], sets, files)
}
