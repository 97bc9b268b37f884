package report_test

import (
	"bytes"
	"testing"

	"github.com/ckptlint/ckptlint/internal/report"
)

// TestReadsGroupSources renders the synthetic result (multi-byte columns,
// a snippet to show) in every format with and without its Sources: a
// format that says it does not read them (ReadsGroupSources for one that
// streams, ReadsSources for the others) must render the same bytes
// without them, since `ckptlint lint` then reads no file for the reports
// (lint.Options.NoSources); one that says it does must render otherwise,
// so the test sees each claim.
func TestReadsGroupSources(t *testing.T) {
	type variant struct {
		format string
		opts   report.Options
	}
	var vs []variant
	for _, f := range report.Formats {
		vs = append(vs, variant{f, report.Options{}})
	}
	vs = append(vs, variant{"text", report.Options{Color: true, Snippet: true}},
		variant{"text", report.Options{Compact: true}})
	for _, v := range vs {
		reads := report.ReadsSources(v.format)
		if report.Streams(v.format) {
			reads = report.ReadsGroupSources(v.format, v.opts)
		}
		rep, err := report.Get(v.format, v.opts)
		if err != nil {
			t.Fatal(err)
		}
		with, without := syntheticResult(), syntheticResult()
		without.Sources = nil
		a, b := renderWith(t, rep, with), renderWith(t, rep, without)
		if same := a == b; same == reads {
			t.Errorf("%s %+v: ReadsSources says %v, yet the output without Sources is the same: %v", v.format, v.opts, reads, same)
		}
	}
}

func renderWith(t *testing.T, rep report.Reporter, r report.Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := rep(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
