package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/report"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/<format>/")

// rules is the rule metadata as the CLI passes it: the one list, with
// the engine's user rules merged in.
func rules(e *engine.Engine) []*report.Rule { return rule.With(e.Rules()) }

// storyResult lints testdata/stories/<name> as `ckptlint lint` run inside
// it does and returns what the reporters see.
func storyResult(t *testing.T, name string) report.Result {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("../../testdata/stories", name))
	if err != nil {
		t.Fatal(err)
	}
	return dirResult(t, dir)
}

// dirResult lints the directory dir (absolute) as storyResult does.
func dirResult(t *testing.T, dir string) report.Result {
	t.Helper()
	e := linttest.Engine(t)
	res := linttest.Lint(t, e, dir, lint.Options{})
	r := report.Result{Version: "test", Findings: res.Findings, Suppressed: res.Suppressed, Sets: len(res.Sets),
		Files: res.Files, Sources: map[string][]byte{}, Rules: rules(e), FailLevel: finding.Error}
	for _, s := range res.Sets {
		r.ConfigSets = append(r.ConfigSets, s.Name)
		for _, f := range s.Files() {
			r.Sources[f.Path] = f.Src
		}
	}
	return r
}

func stories(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir("../../testdata/stories")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) != 3 {
		t.Fatalf("found %d stories, want 3", len(out))
	}
	return out
}

// render runs the named format ("text-tty" is text with colour and
// snippets, as on a terminal).
func render(t *testing.T, format string, r report.Result) string {
	t.Helper()
	opts := report.Options{}
	if format == "text-tty" {
		format, opts = "text", report.Options{Color: true, Snippet: true}
	}
	rep, err := report.Get(format, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep(&b, r); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return b.String()
}

// golden compares got with testdata/<format>/<name>.golden (absolute
// path given), rewriting it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/report -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (run go test ./internal/report -update and review the diff) (-want +got):\n%s", path, diff)
	}
}

// goldenFormats are the formats with a golden file per story: every
// format, and text as a terminal shows it.
var goldenFormats = append(slices.Clone(report.Formats), "text-tty")

// TestGolden renders every story in every format and compares the output
// with testdata/<format>/<story>.golden.
func TestGolden(t *testing.T) {
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, story := range stories(t) {
		t.Run(story, func(t *testing.T) {
			r := storyResult(t, story)
			if len(r.Findings) == 0 {
				t.Fatal("the story has no findings")
			}
			for _, format := range goldenFormats {
				t.Run(format, func(t *testing.T) {
					golden(t, filepath.Join(td, format, story+".golden"), render(t, format, r))
				})
			}
		})
	}
}

// TestFormatsAreListed checks that every listed format resolves and an
// unknown one is refused with the list.
func TestFormatsAreListed(t *testing.T) {
	for _, f := range report.Formats {
		if _, err := report.Get(f, report.Options{}); err != nil {
			t.Errorf("Get(%q): %v", f, err)
		}
	}
	_, err := report.Get("xml", report.Options{})
	if err == nil || !strings.Contains(err.Error(), strings.Join(report.Formats, ", ")) {
		t.Errorf("Get(xml) = %v, want an error listing the formats", err)
	}
	for _, f := range goldenFormats {
		if f != "text-tty" && !strings.Contains(strings.Join(report.Formats, " "), f) {
			t.Errorf("golden format %s is not in report.Formats", f)
		}
	}
}
