package report_test

import (
	"encoding/json"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/report"
	"github.com/ckptlint/ckptlint/internal/safetext"
)

// hostileDirs are directory names a pull request can commit (issue 25):
// a newline and a workflow command, Markdown and HTML meant to leave the
// job summary's table, backticks meant to close a code span, escape
// sequences and a bidirectional override.
var hostileDirs = []string{
	"x\n::error file=a.yaml::all checks passed\n##[error]fake",
	"x\n<img src=x onerror=alert(1)> **all checks passed**",
	"a|b```c`|",
	"`lead",
	"\x1b]0;owned\x07\x1b[2J\u202ecod",
	"x\r::stop-commands::tok",
}

// hostileResult is one finding per hostile directory, each message
// quoting the file and a value with a newline.
func hostileResult() report.Result {
	var r report.Result
	for i, d := range hostileDirs {
		file := d + "/flink-conf.yaml"
		set := d
		r.ConfigSets = append(r.ConfigSets, set)
		r.Findings = append(r.Findings, finding.Finding{
			RuleID: "CKPT207", RuleName: "invalid-checkpoint-duration", Severity: finding.Error, ConfigSet: set,
			Message: "execution.checkpointing.timeout: x\n::add-mask::ckptlint (" + file + ":2) is not a duration",
			Range:   finding.Range{File: file, Span: parsed.Span{Start: pos(2, 1, 0), End: pos(2, 5, 4)}},
			DocURL:  docURL("CKPT207"),
			Fix:     []finding.Op{{Op: "set", Target: "flink", Key: "k" + strings.Repeat("`", i), Value: "v\n::warning::x"}},
		})
	}
	r.Sets, r.Files = len(hostileDirs), len(hostileDirs)
	return r
}

// unescapedPipes counts the pipes of a GFM table row that split cells:
// those not preceded by a backslash that is itself not escaped.
func unescapedPipes(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

// TestMarkdownHostileNames: the job summary's table keeps one row per
// finding with four cells whatever the names and values hold, no raw HTML
// or emphasis markup survives, and a name's backticks cannot end its code
// span (issue 25, medium "Markdown summary injection").
func TestMarkdownHostileNames(t *testing.T) {
	r := hostileResult()
	md := render(t, "markdown", r)
	var rows []string
	inTable := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "| File | Severity | Rule | Message |"):
			inTable = true
		case inTable && line == "":
			inTable = false
		case inTable && !strings.HasPrefix(line, "|---"):
			rows = append(rows, line)
		}
	}
	if len(rows) != len(r.Findings) {
		t.Fatalf("%d table rows, want %d (one per finding):\n%s", len(rows), len(r.Findings), md)
	}
	for i, row := range rows {
		if !strings.HasPrefix(row, "| ") || !strings.HasSuffix(row, " |") || unescapedPipes(row) != 5 {
			t.Errorf("row %d does not hold four cells: %q", i, row)
		}
		// The file's code span: a fence longer than any backtick run in it.
		cell := strings.TrimPrefix(row, "| ")
		fence := cell[:strings.IndexFunc(cell, func(r rune) bool { return r != '`' })]
		body := cell[len(fence):]
		end := strings.Index(body, fence+" |")
		if end < 0 {
			t.Errorf("row %d: code span %q not closed by its fence before the cell ends", i, fence)
			continue
		}
		if strings.Contains(body[:end], fence) {
			t.Errorf("row %d: the name holds the fence %q: %q", i, fence, body[:end])
		}
		if !strings.Contains(strings.ReplaceAll(body[:end], `\|`, "|"), safetext.Path(r.Findings[i].Range.File)) {
			t.Errorf("row %d: the code span %q does not show the quoted name %q", i, body[:end], safetext.Path(r.Findings[i].Range.File))
		}
		// Outside the code span (where markup is literal), no markup.
		if rest := body[end+len(fence):]; regexp.MustCompile(`(^|[^\\])(<|\*\*|\x60)`).MatchString(rest) {
			t.Errorf("row %d: markup survives in %q", i, rest)
		}
	}
}

// runnerCommand reports a line of out that GitHub's runner or Azure's
// agent would read as a command (safetext's package comment).
func runnerCommand(out string) (string, bool) {
	for _, line := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") ||
			strings.Contains(line, "##[") || strings.Contains(line, "##vso[") {
			return line, true
		}
	}
	return "", false
}

// TestFormatsHostileNames: printed to a CI log or a terminal, no format
// carries a command, an escape sequence or a bidirectional override a name
// or value held (the GitHub format's own commands aside), and the machine
// formats still carry the data exactly: JSON and Code Climate decode to the
// names and messages as they are, the JUnit report parses as XML 1.0 with
// them (issue 25, high 3).
func TestFormatsHostileNames(t *testing.T) {
	r := hostileResult()
	control := regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
	for _, format := range report.Formats {
		out := render(t, format, r)
		if format == "github" {
			for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if !regexp.MustCompile(`^::error file=[^\r\n]*::`).MatchString(line) {
					t.Errorf("github: a line that is not one annotation: %q", line)
				}
			}
			if got := strings.Count(out, "\n"); got != len(r.Findings) {
				t.Errorf("github: %d lines, want %d", got, len(r.Findings))
			}
			continue
		}
		if line, ok := runnerCommand(out); ok {
			t.Errorf("%s: the runner reads a command in %q", format, line)
		}
		if m := control.FindString(out); m != "" {
			t.Errorf("%s: raw %q in the output", format, m)
		}
	}
	// JSON: the data exactly.
	var doc struct {
		Findings []finding.Finding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(render(t, "json", r)), &doc); err != nil {
		t.Fatal(err)
	}
	for i, f := range doc.Findings {
		if f.Range.File != r.Findings[i].Range.File || f.Message != r.Findings[i].Message {
			t.Errorf("json: finding %d carries %q / %q, want the data as it is", i, f.Range.File, f.Message)
		}
	}
	var cc []struct {
		Location struct {
			Path string `json:"path"`
		} `json:"location"`
	}
	if err := json.Unmarshal([]byte(render(t, "codeclimate", r)), &cc); err != nil {
		t.Fatal(err)
	}
	for i, c := range cc {
		if c.Location.Path != r.Findings[i].Range.File {
			t.Errorf("codeclimate: path %q, want %q", c.Location.Path, r.Findings[i].Range.File)
		}
	}
	// JUnit: XML 1.0 a strict parser reads, the suite names the directory
	// exactly (XML forbids ESC and BEL: those become U+FFFD, and \r stays
	// \r).
	var ju junitDoc
	if err := xml.Unmarshal([]byte(render(t, "junit", r)), &ju); err != nil {
		t.Fatalf("junit is not XML: %v", err)
	}
	valid := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
				return '\uFFFD'
			}
			return r
		}, s)
	}
	for i, s := range ju.Suites[:len(hostileDirs)] {
		if s.Name != valid(hostileDirs[i]) {
			t.Errorf("junit: suite %q, want %q", s.Name, valid(hostileDirs[i]))
		}
	}
}

// FuzzReportNames: a finding whose file name, message and rule name hold
// anything renders in every format with no command, control or
// bidirectional override a CI log or a terminal acts on (the GitHub
// format's own commands aside: one line per finding), JSON carries the
// data exactly, and the Markdown table keeps one row.
func FuzzReportNames(f *testing.F) {
	for _, d := range hostileDirs {
		f.Add(d, "value "+d, "rule-name")
	}
	f.Fuzz(func(t *testing.T, dir, msg, name string) {
		if !utf8.ValidString(dir) || !utf8.ValidString(msg) || !utf8.ValidString(name) {
			t.Skip() // findings carry text read as UTF-8; JSON would replace the bytes
		}
		file := dir + "/flink-conf.yaml"
		r := report.Result{ConfigSets: []string{dir}, Sets: 1, Files: 1, Findings: []finding.Finding{{
			RuleID: "X001", RuleName: name, Severity: finding.Warning, Message: msg, ConfigSet: dir,
			Range: finding.Range{File: file, Span: parsed.Span{Start: pos(1, 1, 0), End: pos(1, 2, 1)}},
		}}}
		control := regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
		for _, format := range report.Formats {
			out := render(t, format, r)
			if format == "github" {
				if strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "::warning file=") || strings.ContainsRune(out, '\r') {
					t.Errorf("github: not one annotation line: %q", out)
				}
				continue
			}
			if line, ok := runnerCommand(out); ok {
				t.Errorf("%s: the runner reads a command in %q", format, line)
			}
			if m := control.FindString(out); m != "" {
				t.Errorf("%s: raw %q in %q", format, m, out)
			}
			switch format {
			case "json":
				var doc struct{ Findings []finding.Finding }
				if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Findings) != 1 ||
					doc.Findings[0].Range.File != file || doc.Findings[0].RuleName != name {
					t.Errorf("json: %v, %+v", err, doc.Findings)
				}
			case "markdown":
				rows := 0
				for _, line := range strings.Split(out, "\n") {
					if strings.HasPrefix(line, "| `") {
						rows++
						if unescapedPipes(line) != 5 {
							t.Errorf("markdown: a row of %d cells: %q", unescapedPipes(line)-1, line)
						}
					}
				}
				if rows != 1 {
					t.Errorf("markdown: %d rows:\n%s", rows, out)
				}
			case "junit":
				var ju junitDoc
				if err := xml.Unmarshal([]byte(out), &ju); err != nil {
					t.Errorf("junit is not XML: %v", err)
				}
			}
		}
	})
}
