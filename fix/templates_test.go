package fix_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/fix"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/template"
	"github.com/ckptlint/ckptlint/lint"
)

// TestFixLeavesTemplatedLines fixes the template fixtures of
// testdata/templates: every line holding a placeholder survives
// unchanged, and the fixes of other lines still apply.
func TestFixLeavesTemplatedLines(t *testing.T) {
	eng := linttest.Engine(t)
	dir := copyDir(t, "../testdata/templates")
	t.Chdir(dir)
	// Flink 1.18 declared, so that the renames of deprecated keys on the
	// lines without placeholders are applied (they are held back while the
	// version is unknown).
	res, err := fix.Run(context.Background(), eng, fix.Options{Lint: lint.Options{Versions: lint.Versions{Flink: "1.18"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) == 0 {
		t.Fatal("no change planned; the fixtures hold fixable findings on lines without placeholders")
	}
	for _, c := range res.Changes {
		hadoop := strings.HasSuffix(c.Path, ".xml")
		for _, line := range strings.Split(string(c.Old), "\n") {
			o := template.Options{Hadoop: hadoop, ShellExpanded: strings.HasPrefix(line, "env.java.opts")}
			if template.Has(line, o) && !strings.Contains(string(c.New), line+"\n") {
				rel, _ := filepath.Rel(dir, c.Path)
				t.Errorf("%s: fix changed the templated line %q", rel, line)
			}
		}
	}
	for _, a := range res.Applied {
		if strings.Contains(a.File, "jinja-blocks") || strings.Contains(a.File, "helm-chart") {
			t.Errorf("fix edits a skipped template: %+v", a)
		}
	}
}
