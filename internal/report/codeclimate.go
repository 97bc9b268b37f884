package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"strings"

	"github.com/ckptlint/ckptlint/internal/finding"
)

// codeClimateIssue is one entry of a GitLab Code Quality report: the
// subset of the Code Climate issue format GitLab reads
// (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format:
// description, check_name, fingerprint, severity, location.path,
// location.lines.begin), plus type and categories, which the Code Climate
// spec requires (https://github.com/codeclimate/platform/blob/master/spec/analyzers/SPEC.md)
// and GitLab ignores.
type codeClimateIssue struct {
	Type        string              `json:"type"`
	CheckName   string              `json:"check_name"`
	Description string              `json:"description"`
	Categories  []string            `json:"categories"`
	Severity    string              `json:"severity"`
	Fingerprint string              `json:"fingerprint"`
	Location    codeClimateLocation `json:"location"`
	// Content is the finding's detail (the spec's "content.body", Markdown).
	Content *codeClimateContent `json:"content,omitempty"`
}

type codeClimateContent struct {
	Body string `json:"body"`
}

type codeClimateLocation struct {
	Path  string           `json:"path"`
	Lines codeClimateLines `json:"lines"`
}

type codeClimateLines struct {
	Begin int `json:"begin"`
	End   int `json:"end"`
}

// codeClimateSeverity maps ckptlint's severities onto GitLab's five:
// a file Flink or Hadoop cannot read at all (CKPT000) is a blocker, an error
// (Flink or HDFS will fail or refuse the setting) critical, a warning (a
// risk under stated conditions) major, an info info. minor is not used.
func codeClimateSeverity(f finding.Finding) string {
	switch {
	case f.RuleID == "CKPT000":
		return "blocker"
	case f.Severity == finding.Error:
		return "critical"
	case f.Severity == finding.Warning:
		return "major"
	}
	return "info"
}

// CodeClimate writes the findings as a GitLab Code Quality report, a JSON
// array (empty when there is nothing to report). Paths are relative to the
// repository root, as GitLab matches them against the merge request's
// files. Suppressed findings are left out.
//
// The fingerprint is what GitLab compares between the merge request and its
// target branch to tell new findings from fixed ones, so it must not change
// when unrelated lines move: it hashes the rule id, the path, the config set
// and the text of the finding's source line (not its number, nor the
// message, which quotes line numbers; nothing for a finding about a
// default, reported at the top of the file), and a counter for findings
// that share all of these.
func CodeClimate(w io.Writer, r Result) error {
	issues := make([]codeClimateIssue, 0, len(r.Findings))
	seen := map[string]int{}
	for _, f := range r.Findings {
		path, _ := r.repoPath(f.Range.File)
		begin := max(f.Range.Span.Start.Line, 1)
		end := max(f.Range.Span.End.Line, begin)
		text := "" // a finding about a default sits on an empty span at 1:1, whatever line 1 holds
		if f.Range.Span.End != f.Range.Span.Start {
			text = strings.TrimSpace(sourceLine(r.Sources[f.Range.File], begin))
		}
		key := strings.Join([]string{f.RuleID, path, f.ConfigSet, text}, "\x00")
		n := seen[key]
		seen[key]++
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
		desc := f.RuleID + " " + f.RuleName + ": " + f.Message
		if len(f.Fix) > 0 {
			desc += " (fixable with ckptlint fix: " + fixWords(f.Fix) + ")"
		}
		issue := codeClimateIssue{
			Type: "issue", CheckName: f.RuleID + " " + f.RuleName, Description: desc,
			Categories: []string{"Bug Risk"}, Severity: codeClimateSeverity(f),
			Fingerprint: hex.EncodeToString(sum[:16]),
			Location:    codeClimateLocation{Path: path, Lines: codeClimateLines{Begin: begin, End: end}},
		}
		if f.Detail != "" {
			issue.Content = &codeClimateContent{Body: mdEscape(f.Detail)}
		}
		issues = append(issues, issue)
	}
	return encodeJSON(w, issues, true)
}

// sourceLine returns 1-based line n of src without its line break, or "".
func sourceLine(src []byte, n int) string {
	for i := 1; ; i++ {
		line, rest, more := bytes.Cut(src, []byte("\n"))
		if i == n {
			return string(bytes.TrimSuffix(line, []byte("\r")))
		}
		if !more {
			return ""
		}
		src = rest
	}
}
