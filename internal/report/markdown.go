package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/safetext"
)

// Markdown limits: GitHub caps a job summary at 1 MiB and a PR comment at
// 65536 characters, so long messages are shortened and the table stops
// after maxMarkdownRows rows (the other formats carry everything).
const (
	maxMarkdownRows    = 100
	maxMarkdownMessage = 180
)

// Markdown writes a summary for $GITHUB_STEP_SUMMARY and PR comments: the
// counts per severity, a table of findings (file:line, severity, rule with
// a link to its documentation, shortened message), the rules involved with
// their titles, and the suppressed findings with their reasons. With
// nothing found it says so.
func Markdown(w io.Writer, r Result) error {
	var b bytes.Buffer
	c := Counts(r.Findings)
	b.WriteString("## ckptlint\n\n")
	scope := fmt.Sprintf("%s, %s", plural(r.Sets, "config set"), plural(r.Files, "file"))
	if len(r.Findings) == 0 {
		fmt.Fprintf(&b, "No findings in %s.\n", scope)
	} else {
		b.WriteString("| Errors | Warnings | Infos | Suppressed |\n|---:|---:|---:|---:|\n")
		fmt.Fprintf(&b, "| %d | %d | %d | %d |\n\n", c["error"], c["warning"], c["info"], len(r.Suppressed))
		fmt.Fprintf(&b, "%s in %s:\n\n", capitalize(plural(len(r.Findings), "finding")), scope)
		b.WriteString("| File | Severity | Rule | Message |\n|---|---|---|---|\n")
		for i, f := range r.Findings {
			if i == maxMarkdownRows {
				fmt.Fprintf(&b, "\n%s not shown: see the SARIF or JSON report, or run `ckptlint lint`.\n",
					capitalize(plural(len(r.Findings)-maxMarkdownRows, "more finding")))
				break
			}
			rule := mdLink(f.RuleID, f.DocURL) + " " + mdEscape(f.RuleName)
			if len(f.Fix) > 0 {
				rule += ", fixable"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCode(fmt.Sprintf("%s:%d", safetext.Path(f.Range.File), f.Range.Start.Line)),
				f.Severity, rule, mdEscape(shorten(oneLine(f.Message), maxMarkdownMessage)))
		}
		writeMarkdownRules(&b, r)
	}
	if len(r.Suppressed) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%s by <code>ckptlint:ignore</code></summary>\n\n",
			capitalize(plural(len(r.Suppressed), "suppressed finding")))
		b.WriteString("| File | Rule | Reason |\n|---|---|---|\n")
		for _, f := range r.Suppressed {
			reason := ""
			if f.Suppression != nil {
				reason = f.Suppression.Reason
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCode(fmt.Sprintf("%s:%d", safetext.Path(f.Range.File), f.Range.Start.Line)),
				mdLink(f.RuleID, f.DocURL)+" "+mdEscape(f.RuleName), mdEscape(shorten(oneLine(reason), maxMarkdownMessage)))
		}
		b.WriteString("\n</details>\n")
	}
	if r.Version != "" {
		fmt.Fprintf(&b, "\n<sub>ckptlint %s</sub>\n", mdEscape(r.Version))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// writeMarkdownRules lists the rules with findings, each linked to its page.
func writeMarkdownRules(b *bytes.Buffer, r Result) {
	rules, idx := r.rules()
	seen := map[string]bool{}
	var lines []string
	for _, f := range r.Findings {
		if seen[f.RuleID] {
			continue
		}
		seen[f.RuleID] = true
		ru := rules[idx[f.RuleID]]
		url := ru.HelpURI
		if url == "" {
			url = f.DocURL
		}
		line := "- " + mdLink(ru.ID+" "+ru.Name, url)
		if ru.Title != "" && ru.Title != ru.Name {
			line += ": " + mdEscape(oneLine(ru.Title))
		}
		lines = append(lines, line)
	}
	b.WriteString("\nRules:\n\n")
	b.WriteString(strings.Join(lines, "\n") + "\n")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// shorten cuts s to at most n runes at a word boundary, marking the cut
// with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)[:n-1]
	cut := string(rs)
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// mdEscaper backslash-escapes the characters that would end a table cell
// or start Markdown or HTML markup (an entity included).
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`",
	"<", `\<`, ">", `\>`, "[", `\[`, "]", `\]`, "&", `\&`, "~", `\~`)

// mdEscape renders text for a table cell: shown on one line with visible
// escapes (safetext.Text: a newline cannot end the row), then with every
// character of Markdown or HTML markup escaped.
func mdEscape(s string) string { return mdEscaper.Replace(safetext.Text(s)) }

// mdCode renders s, a name as safetext.Path shows it (no newline, and any
// backslash doubled), as a code span inside a table cell. Its fence is one
// backtick longer than the longest run of backticks in s, with a space
// inside each end when s starts or ends with a backtick (CommonMark 0.31,
// 6.1, "Code spans"), so no backtick in a name can end it; a pipe is
// escaped, which GFM tables read inside code spans too (GFM 0.29,
// "Tables").
func mdCode(s string) string {
	s = safetext.Text(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != '`' {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	fence := strings.Repeat("`", longest+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// mdLink renders a link, or the escaped text when there is no URL.
func mdLink(text, url string) string {
	if url == "" {
		return mdEscape(text)
	}
	return "[" + mdEscape(text) + "](" + strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E").Replace(safetext.Text(url)) + ")"
}
