package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/report"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

// TestReportsWriteNothingUntilDone feeds the outputs of `ckptlint lint`
// far more groups than any buffer holds: nothing reaches standard output
// or a report's directory before finish, an aborted run leaves no file behind
// (a run that fails writes no report, docs/output.md), and a finished one
// writes every group.
func TestReportsWriteNothingUntilDone(t *testing.T) {
	const sets = 2000
	tmp := ""
	feed := func(t *testing.T) (*reports, *bytes.Buffer, string) {
		t.Helper()
		dir := t.TempDir()
		tmp = t.TempDir()
		t.Setenv("TMPDIR", tmp) // the spools
		var out bytes.Buffer
		g := &globals{stdout: &out, stderr: io.Discard}
		if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		outs := []output{{name: "github", path: filepath.Join(dir, "gh.txt")}, {name: "text"},
			{name: "junit", path: filepath.Join(dir, "sub", "out.xml")}, {name: "json", path: filepath.Join(dir, "r.json")}}
		r, err := newReports(g, outs, report.Result{Rules: rule.Builtins(), FailLevel: finding.Warning}, false, false, false, func(string) finding.Severity { return finding.Info })
		if err != nil {
			t.Fatal(err)
		}
		for i := range sets {
			name := fmt.Sprintf("job-%04d/conf", i)
			f := finding.Finding{RuleID: "CKPT201", RuleName: "checkpoint-timeout", Severity: finding.Warning, ConfigSet: name,
				Message: strings.Repeat("a checkpoint that overlaps a stall expires; ", 4),
				Range:   finding.Range{File: name + "/flink-conf.yaml", Span: parsed.Span{Start: parsed.Pos{Line: 1, Col: 1}, End: parsed.Pos{Line: 1, Col: 2}}}}
			if err := r.group(lint.Group{Set: name, Findings: []finding.Finding{f}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.group(lint.Group{}); err != nil {
			t.Fatal(err)
		}
		if out.Len() != 0 {
			t.Errorf("%d bytes on standard output before the run is done", out.Len())
		}
		// Not even a staged file: the report's directory may be one the
		// run lists, and the result cache records what it holds.
		if ents := tree(t, dir); len(ents) != 1 || ents[0] != "sub" {
			t.Errorf("the report directories hold %v before the run is done, want sub alone", ents)
		}
		return r, &out, dir
	}
	t.Run("aborted", func(t *testing.T) {
		r, out, dir := feed(t)
		r.abort()
		if ents := tree(t, dir); len(ents) != 1 {
			t.Errorf("an aborted run left %v", ents)
		}
		if out.Len() != 0 {
			t.Errorf("an aborted run wrote %d bytes on standard output", out.Len())
		}
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("an aborted run left %v in TMPDIR", ents)
		}
	})
	// A report that cannot be written (its directory is gone): no report
	// is written, the others neither, and nothing reaches standard output.
	t.Run("unwritable", func(t *testing.T) {
		r, out, dir := feed(t)
		defer r.abort()
		if err := os.Remove(filepath.Join(dir, "sub")); err != nil {
			t.Fatal(err)
		}
		err := r.finish(report.Result{Sets: sets})
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitUsage || !strings.Contains(err.Error(), "write junit report") {
			t.Fatalf("finish: %v, want exit 2 naming the junit report", err)
		}
		if ents := tree(t, dir); len(ents) != 0 {
			t.Errorf("a run that could not write a report left %v", ents)
		}
		if out.Len() != 0 {
			t.Errorf("a run that could not write a report wrote %d bytes on standard output", out.Len())
		}
		r.abort()
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("left %v in TMPDIR", ents)
		}
	})
	t.Run("finished", func(t *testing.T) {
		r, out, dir := feed(t)
		defer r.abort()
		if err := r.finish(report.Result{Sets: sets}); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(out.String(), "\n"); n != sets {
			t.Errorf("%d text lines, want %d", n, sets)
		}
		if ents := tree(t, dir); !slices.Equal(ents, []string{"gh.txt", "r.json", "sub", "sub/out.xml"}) {
			t.Errorf("the reports are %v", ents)
		}
		b, err := os.ReadFile(filepath.Join(dir, "sub", "out.xml"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Suites   []struct {
				Name string `xml:"name,attr"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(b, &doc); err != nil {
			t.Fatalf("JUnit report: %v", err)
		}
		if len(doc.Suites) != sets+1 || doc.Failures != sets || doc.Suites[sets].Name != "(ignore comments)" {
			t.Errorf("JUnit: %d suites, %d failures, want %d and %d, the last \"(ignore comments)\"", len(doc.Suites), doc.Failures, sets+1, sets)
		}
		if gh, _ := os.ReadFile(filepath.Join(dir, "gh.txt")); strings.Count(string(gh), "::warning ") != sets {
			t.Errorf("GitHub: %d annotations, want %d", strings.Count(string(gh), "::warning "), sets)
		}
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("a run left %v in TMPDIR", ents)
		}
		if r.max != finding.Warning {
			t.Errorf("highest severity %v, want warning", r.max)
		}
	})
}

// tree lists the files and directories below dir, slash-separated.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if rel, _ := filepath.Rel(dir, p); rel != "." {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
