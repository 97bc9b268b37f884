package report_test

import (
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/report"
)

// TestTextDetail: the text report shows a finding's headline line, then its
// detail on the next line indented by four spaces; Compact shows the
// headline line only.
func TestTextDetail(t *testing.T) {
	r := report.Result{Findings: []finding.Finding{
		{RuleID: "CKPT201", RuleName: "checkpoint-timeout-below-write-stall", Severity: finding.Error,
			Message: "execution.checkpointing.timeout 30 s is not longer than the 40 s HDFS write stall: checkpoints expire.",
			Detail:  "30 s (flink-conf.yaml:3) against 40 s (write_stall in .ckptlint.hcl)\nsecond line",
			Range:   finding.Range{File: "flink-conf.yaml"}},
		{RuleID: "ACME001", RuleName: "user", Severity: finding.Warning, Message: "one string", Range: finding.Range{File: "a.xml"}},
	}}
	var full, compact strings.Builder
	if err := report.Text(&full, r, report.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := report.Text(&compact, r, report.Options{Compact: true}); err != nil {
		t.Fatal(err)
	}
	want := "flink-conf.yaml:0:0: error: execution.checkpointing.timeout 30 s is not longer than the 40 s HDFS write stall: checkpoints expire. [CKPT201 checkpoint-timeout-below-write-stall]\n" +
		"    30 s (flink-conf.yaml:3) against 40 s (write_stall in .ckptlint.hcl)\\nsecond line\n" +
		"a.xml:0:0: warning: one string [ACME001 user]\n"
	if full.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", full.String(), want)
	}
	if got := strings.Count(compact.String(), "\n"); got != 2 || strings.Contains(compact.String(), "write_stall in") {
		t.Errorf("compact text is not one line per finding:\n%s", compact.String())
	}
}

// TestMachineFormatsCarryDetail: SARIF keeps the headline as message.text
// and headline and detail as message.markdown; GitHub annotations start
// with the headline and carry the detail after a blank line; JSON has both
// fields; Code Climate the detail as content.body. The Markdown fields
// escape Markdown's characters (a "<" is "\<").
func TestMachineFormatsCarryDetail(t *testing.T) {
	r := report.Result{Findings: []finding.Finding{{RuleID: "CKPT201", RuleName: "n", Severity: finding.Error,
		Message: "The headline.", Detail: "The evidence: 30 s < 40 s.", Range: finding.Range{File: "f.yaml"}}}}
	for name, want := range map[string][]string{
		"sarif":       {`"text": "The headline."`, `"markdown": "The headline.\n\nThe evidence: 30 s \\< 40 s."`},
		"github":      {"::The headline.%0A%0AThe evidence: 30 s < 40 s."},
		"json":        {`"message": "The headline."`, `"detail": "The evidence: 30 s \u003c 40 s."`},
		"codeclimate": {`"description": "CKPT201 n: The headline."`, `"body": "The evidence: 30 s \\\u003c 40 s."`},
		"junit":       {"The headline. [CKPT201 n]\n    The evidence: 30 s &lt; 40 s."},
	} {
		rep, err := report.Get(name, report.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := rep(&b, r); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", name, w, b.String())
			}
		}
	}
}
