package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/report"
)

// TestEveryFormatClipsValues: a 10 MB value quoted in a message (and on
// the snippet's source line) is cut to finding.MaxQuoted runes with a
// marker in every format, so one hostile file cannot flood a CI log.
func TestEveryFormatClipsValues(t *testing.T) {
	value := strings.Repeat("v", 10<<20)
	src := []byte("state.checkpoints.dir: " + value + "\n")
	f := finding.Finding{RuleID: "CKPT000", RuleName: "parse-error", Severity: finding.Error,
		Message: `state.checkpoints.dir "` + value + `" is not a URI`,
		Range: finding.Range{File: "flink-conf.yaml", Span: parsed.Span{
			Start: parsed.Pos{Line: 1, Col: 24, Offset: 23}, End: parsed.Pos{Line: 1, Col: 24 + len(value), Offset: 23 + len(value)}}}}
	r := report.Result{Version: "test", Findings: []finding.Finding{f}, Sets: 1, Files: 1,
		Sources: map[string][]byte{"flink-conf.yaml": src}, FailLevel: finding.Error}
	for _, name := range report.Formats {
		opts := report.Options{}
		if name == "text" {
			opts = report.Options{Snippet: true}
		}
		rep, err := report.Get(name, opts)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := rep(&b, r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b.Len() > 64<<10 {
			t.Errorf("%s: %d bytes of output for one finding", name, b.Len())
		}
		// markdown shortens its table cells further, with its own marker.
		if name != "markdown" && !strings.Contains(b.String(), "bytes cut]") {
			t.Errorf("%s: no truncation marker in %.300q", name, b.String())
		}
	}
	if len(r.Findings[0].Message) < 10<<20 {
		t.Error("the reporter changed the caller's findings")
	}
}
