package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/template"
	"github.com/ckptlint/ckptlint/lint"
)

// placeholderOn reports whether line of file holds a placeholder, judged
// as the readers judge it (Hadoop XML after substitution aside: the
// fixtures' Hadoop references all stay unresolved or are named below).
func placeholderOn(t *testing.T, file string, line int) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if line < 1 || line > len(lines) {
		return false
	}
	text := lines[line-1]
	o := template.Options{Hadoop: strings.HasSuffix(file, ".xml"), ShellExpanded: strings.HasPrefix(strings.TrimSpace(text), "env.java.opts")}
	return template.Has(text, o)
}

// TestTemplates lints testdata/templates, one directory per template
// syntax: each templated file gets exactly one CKPT003 info, no error or
// warning sits on a line holding a placeholder, no fix touches such a key,
// and files whose structure is templated are not linted at all. With
// placeholders literal, the same files give the errors a rendered-output
// user wants to see.
func TestTemplates(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/templates")
	res := linttest.Lint(t, eng, root, lint.Options{})
	golden(t, filepath.Join(root, "..", "templates.want.txt"), textOf(t, res.Findings))

	want := map[string]bool{ // file → skipped
		"envsubst/flink-conf.yaml":                  false,
		"helm-values/flink-conf.yaml":               false,
		"jinja/config.yaml":                         false,
		"jinja-blocks/flink-conf.yaml":              true,
		"erb-xml/hdfs-site.xml":                     true,
		"hadoop-subst/core-site.xml":                false,
		"hadoop-subst/hdfs-site.xml":                false,
		"markers/flink-conf.yaml":                   false,
		"helm-chart/templates/flinkdeployment.yaml": true,
		"yaml-unrendered/config.yaml":               true,
	}
	notes := map[string]int{}
	for _, f := range res.Findings {
		if f.RuleID == rule.Template {
			notes[f.Range.File]++
			if f.Severity != finding.Info {
				t.Errorf("template note is not info: %s", f)
			}
			if skipped := strings.Contains(f.Message, "not linted"); skipped != want[f.Range.File] {
				t.Errorf("%s: skipped = %v, want %v", f.Range.File, skipped, want[f.Range.File])
			}
			continue
		}
		if f.RuleID == rule.ParseError {
			t.Errorf("a template is a parse error: %s", f)
		}
		if strings.HasPrefix(f.Range.File, "jinja-blocks/") || strings.HasPrefix(f.Range.File, "erb-xml/") ||
			strings.HasPrefix(f.Range.File, "yaml-unrendered/") || strings.HasPrefix(f.Range.File, "helm-chart/") {
			t.Errorf("finding in a config set with a skipped template: %s", f)
		}
		if f.Severity >= finding.Warning && placeholderOn(t, filepath.Join(root, f.Range.File), f.Range.Start.Line) {
			t.Errorf("error or warning on a templated line: %s", f)
		}
		for _, op := range f.Fix {
			if slices.Contains([]string{"state.checkpoints.dir", "execution.checkpointing.interval", "execution.checkpointing.timeout", "parallelism.default", "dfs.blocksize", "dfs.replication"}, op.Key) {
				t.Errorf("fix touches a templated key: %s %+v", f, op)
			}
		}
	}
	for file := range want {
		if notes[file] != 1 {
			t.Errorf("%s: %d template notes, want 1", file, notes[file])
		}
	}

	lit := linttest.Lint(t, eng, root, lint.Options{Placeholders: lint.PlaceholdersLiteral})
	var litErrors int
	for _, f := range lit.Findings {
		if f.RuleID == rule.Template {
			t.Errorf("template note with placeholders literal: %s", f)
		}
		if f.Severity == finding.Error && placeholderOn(t, filepath.Join(root, f.Range.File), f.Range.Start.Line) {
			litErrors++
		}
	}
	if litErrors < 5 {
		t.Errorf("with placeholders literal, %d errors on placeholder lines; want the values judged as written", litErrors)
	}
}
