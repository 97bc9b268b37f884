package lint_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/lint"
)

// TestReleaseSameFindings lints every fixture tree twice, keeping the
// parsed sets and freeing each set's entries once it is evaluated
// (Options.Release, what `ckptlint lint` does): findings, suppressed
// findings and the file bytes reporters read must not differ, and the
// released run must really have dropped the entries.
func TestReleaseSameFindings(t *testing.T) {
	eng := linttest.Engine(t)
	var dirs []string
	for _, g := range []string{"../testdata/rules/*/bad", "../testdata/stories/*", "../testdata/suppress",
		"../testdata/templates", "../testdata/k8s", "../testdata/realworld"} {
		m, _ := filepath.Glob(g)
		for _, d := range m {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				abs, _ := filepath.Abs(d) // before linttest.Lint changes directory
				dirs = append(dirs, abs)
			}
		}
	}
	if len(dirs) < 10 {
		t.Fatalf("only %d fixture directories found", len(dirs))
	}
	released := 0
	for _, d := range dirs {
		keep := linttest.Lint(t, eng, d, lint.Options{})
		rel := linttest.Lint(t, eng, d, lint.Options{Release: true})
		if !reflect.DeepEqual(keep.Findings, rel.Findings) || !reflect.DeepEqual(keep.Suppressed, rel.Suppressed) {
			t.Errorf("%s: findings differ with Release", d)
		}
		if len(keep.Sets) != len(rel.Sets) {
			t.Fatalf("%s: %d sets, %d with Release", d, len(keep.Sets), len(rel.Sets))
		}
		for i, s := range rel.Sets {
			for j, f := range s.Files() {
				if k := keep.Sets[i].Files()[j]; string(k.Src) != string(f.Src) || k.Path != f.Path {
					t.Errorf("%s: %s: path or bytes differ with Release", d, f.Path)
				}
				if f.Entries != nil {
					t.Errorf("%s: %s: entries kept with Release", d, f.Path)
				}
				released++
			}
		}
	}
	if released == 0 {
		t.Fatal("no file was released")
	}
}
