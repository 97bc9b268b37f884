package report_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/report"
)

// gitlabCodeQualitySchema is the shape GitLab documents for a Code Quality
// report (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
// an array of objects with description, check_name, fingerprint, severity
// (info, minor, major, critical, blocker), location.path and
// location.lines.begin, all required. GitLab ignores other fields.
const gitlabCodeQualitySchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "array",
  "items": {
    "type": "object",
    "required": ["description", "check_name", "fingerprint", "severity", "location"],
    "properties": {
      "description": {"type": "string", "minLength": 1},
      "check_name": {"type": "string", "minLength": 1},
      "fingerprint": {"type": "string", "minLength": 1},
      "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
      "location": {
        "type": "object",
        "required": ["path", "lines"],
        "properties": {
          "path": {"type": "string", "minLength": 1, "not": {"pattern": "^(/|[A-Za-z]:)"}},
          "lines": {
            "type": "object",
            "required": ["begin"],
            "properties": {"begin": {"type": "integer", "minimum": 1}}
          }
        }
      }
    }
  }
}`

type ccIssue struct {
	CheckName   string `json:"check_name"`
	Severity    string `json:"severity"`
	Fingerprint string `json:"fingerprint"`
	Location    struct {
		Path  string `json:"path"`
		Lines struct{ Begin int }
	} `json:"location"`
}

func codeClimateOf(t *testing.T, r report.Result) []ccIssue {
	t.Helper()
	out := render(t, "codeclimate", r)
	var issues []ccIssue
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("codeclimate output is not a JSON array: %v\n%s", err, out)
	}
	return issues
}

// TestCodeClimateShape validates the report of every story against the
// fields GitLab documents, and checks what the schema cannot: one issue per
// finding, unique fingerprints, the severities mapped as docs/output.md says.
func TestCodeClimateShape(t *testing.T) {
	v := newValidator(t, gitlabCodeQualitySchema)
	for _, story := range stories(t) {
		t.Run(story, func(t *testing.T) {
			r := storyResult(t, story)
			if errs := v.errors(t, []byte(render(t, "codeclimate", r))); errs != nil {
				t.Fatalf("not a GitLab Code Quality report:\n%s", strings.Join(errs, "\n"))
			}
			issues := codeClimateOf(t, r)
			if len(issues) != len(r.Findings) {
				t.Fatalf("%d issues for %d findings", len(issues), len(r.Findings))
			}
			fps := map[string]bool{}
			for i, is := range issues {
				f := r.Findings[i]
				if fps[is.Fingerprint] {
					t.Errorf("fingerprint %s repeats", is.Fingerprint)
				}
				fps[is.Fingerprint] = true
				want := map[string]string{"error": "critical", "warning": "major", "info": "info"}[f.Severity.String()]
				if is.Severity != want || is.CheckName != f.RuleID+" "+f.RuleName || is.Location.Path != f.Range.File ||
					is.Location.Lines.Begin != f.Range.Span.Start.Line {
					t.Errorf("issue %+v for finding %s %s at %s:%d", is, f.RuleID, f.Severity, f.Range.File, f.Range.Span.Start.Line)
				}
			}
		})
	}
	// The validator does reject a wrong shape.
	for _, bad := range []string{`{}`, `[{"description":"d","check_name":"c","fingerprint":"f","severity":"error","location":{"path":"p","lines":{"begin":1}}}]`,
		`[{"description":"d","check_name":"c","fingerprint":"f","severity":"info","location":{"path":"p","lines":{}}}]`,
		`[{"description":"d","check_name":"c","fingerprint":"f","severity":"info","location":{"path":"/abs","lines":{"begin":1}}}]`} {
		if v.errors(t, []byte(bad)) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
	// No finding: an empty array, which GitLab reads as "no issues".
	if got := strings.TrimSpace(render(t, "codeclimate", report.Result{})); got != "[]" {
		t.Errorf("codeclimate of no findings = %s, want []", got)
	}
}

// TestCodeClimateFingerprintStable checks that moving lines does not change
// the fingerprints (GitLab would report every finding as new and fixed),
// while a different value does.
func TestCodeClimateFingerprintStable(t *testing.T) {
	src, err := filepath.Abs("../../testdata/stories/a-blocksize")
	if err != nil {
		t.Fatal(err)
	}
	fingerprints := func(dir string) []string {
		r := dirResult(t, dir)
		var out []string
		for _, is := range codeClimateOf(t, r) {
			out = append(out, is.Fingerprint)
		}
		slices.Sort(out)
		return out
	}
	base := fingerprints(src)
	tmp := t.TempDir()
	linttest.CopyTree(t, src, tmp, nil)
	conf := filepath.Join(tmp, "flink", "conf", "flink-conf.yaml")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, append([]byte("# reviewed\n\n"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	moved := fingerprints(tmp)
	if !slices.Equal(base, moved) {
		t.Errorf("fingerprints changed when lines moved:\n%v\n%v", base, moved)
	}
}
