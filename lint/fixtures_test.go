package lint_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/report"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

var update = flag.Bool("update", false, "rewrite golden files")

// lintDir lints dir as `ckptlint lint` run inside it would: its
// .ckptlint.hcl applies, paths are relative to it.
func lintDir(t *testing.T, eng *engine.Engine, dir string) []finding.Finding {
	t.Helper()
	return linttest.Lint(t, eng, dir, lint.Options{}).Findings
}

func textOf(t *testing.T, fs []finding.Finding) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.Text(&b, report.Result{Findings: fs}, report.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./lint -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run go test ./lint -update and review the diff):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// TestRuleFixtures lints testdata/rules/<ID>/bad and good for every rule:
// bad must produce the rule and match want.txt; good must not produce it.
func TestRuleFixtures(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/rules")
	for _, r := range eng.Rules() {
		t.Run(r.ID, func(t *testing.T) { ruleFixture(t, eng, filepath.Join(root, r.ID), r.ID) })
	}
}

// TestBuiltinFixtures is TestRuleFixtures for the rules the Go code reports
// that have a directory under testdata/rules: CKPT000 (files Flink or
// Hadoop refuses) and CKPT005 (fix leftovers). The ignore comments' rules
// have testdata/suppress, the template note testdata/templates.
func TestBuiltinFixtures(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/rules")
	var ran []string
	for _, r := range rule.Builtins() {
		dir := filepath.Join(root, r.ID)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		ran = append(ran, r.ID)
		t.Run(r.ID, func(t *testing.T) { ruleFixture(t, eng, dir, r.ID) })
	}
	if !slices.Contains(ran, rule.ParseError) || !slices.Contains(ran, rule.FixLeftover) {
		t.Errorf("fixtures of built-in rules: %v, want CKPT000 and CKPT005 among them", ran)
	}
}

// ruleFixture lints dir/bad and dir/good: bad must produce rule id and
// match dir/want.txt; good must not produce it.
func ruleFixture(t *testing.T, eng *engine.Engine, dir, id string) {
	t.Helper()
	bad := lintDir(t, eng, filepath.Join(dir, "bad"))
	if !slices.ContainsFunc(bad, func(f finding.Finding) bool { return f.RuleID == id }) {
		t.Errorf("bad fixture does not produce %s; got:\n%s", id, textOf(t, bad))
	}
	golden(t, filepath.Join(dir, "want.txt"), textOf(t, bad))
	good := lintDir(t, eng, filepath.Join(dir, "good"))
	for _, f := range good {
		if f.RuleID == id {
			t.Errorf("good fixture produces %s", f)
		}
	}
}

// TestReadmeExample: the finding README.md opens with is, unwrapped, a finding
// (headline and detail lines) of story (a)'s golden output, which TestStories compares with what lint
// reports, so the README cannot drift from the tool's numbers.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.SplitN(string(readme), "```", 3)
	if len(parts) < 3 {
		t.Fatal("README.md has no code block")
	}
	example := strings.Join(strings.Fields(parts[1]), " ")
	want, err := os.ReadFile("../testdata/stories/a-blocksize.want.txt")
	if err != nil {
		t.Fatal(err)
	}
	// A finding is its headline line and the indented detail lines below it.
	lines := strings.Split(string(want), "\n")
	for i, line := range lines {
		f := line
		for j := i + 1; j < len(lines) && strings.HasPrefix(lines[j], "    "); j++ {
			f += " " + lines[j]
		}
		if strings.Join(strings.Fields(f), " ") == example {
			return
		}
	}
	t.Errorf("README.md's example finding is not in story (a)'s output:\n%s", example)
}

// TestStories lints the three failure stories; their golden output names the
// rules, lines and figures each produces.
func TestStories(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/stories")
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			fs := lintDir(t, eng, filepath.Join(root, e.Name()))
			golden(t, filepath.Join(root, e.Name()+".want.txt"), textOf(t, fs))
			if !slices.ContainsFunc(fs, func(f finding.Finding) bool { return f.Severity == finding.Error }) {
				t.Errorf("story %s produces no error", e.Name())
			}
			for _, f := range fs {
				if f.RuleID == rule.ParseError {
					t.Errorf("story %s has a parse error: %s", e.Name(), f)
				}
				if strings.Contains(f.Range.File, "..") {
					t.Errorf("finding outside the story: %s", f)
				}
			}
		})
	}
}

// TestStoriesFixedByHand lints testdata/stories-fixed: each story with the
// values its findings suggest applied by hand (dfs.blocksize 1m; timeout
// 2 min and tolerable failures 3; max-concurrent 1). None may keep an
// error; warnings and infos may remain.
func TestStoriesFixedByHand(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/stories-fixed")
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 3 {
		t.Fatalf("%d fixed stories, want 3", len(ents))
	}
	for _, e := range ents {
		t.Run(e.Name(), func(t *testing.T) {
			for _, f := range lintDir(t, eng, filepath.Join(root, e.Name())) {
				if f.Severity == finding.Error {
					t.Errorf("%s", f)
				}
			}
		})
	}
}
