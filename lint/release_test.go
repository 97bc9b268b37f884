package lint_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/lint/parsed"
)

// TestReleaseSameFindings lints every fixture tree twice, keeping the
// parsed sets and streaming them (Options.Release, what `ckptlint lint`
// does: files parsed again when a set is assembled, each set evaluated
// while the next are assembled, its entries freed after): findings,
// suppressed findings, the sets' names and order and the file bytes
// reporters read must not differ, and the streaming run must really have
// dropped the entries. Only a Hadoop file with xi:include keeps them: it
// cannot be parsed again without reading its includes again, and a set
// still to come may read it.
func TestReleaseSameFindings(t *testing.T) {
	eng := linttest.Engine(t)
	var dirs []string
	for _, g := range []string{"../testdata/rules/*/bad", "../testdata/rules/*/good", "../testdata/stories/*",
		"../testdata/stories-fixed/*", "../testdata/suppress",
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
			if s.Name != keep.Sets[i].Name {
				t.Errorf("%s: set %d is %s, %s with Release", d, i, keep.Sets[i].Name, s.Name)
			}
			for j, f := range s.Files() {
				if k := keep.Sets[i].Files()[j]; string(k.Src) != string(f.Src) || k.Path != f.Path {
					t.Errorf("%s: %s: path or bytes differ with Release", d, f.Path)
				}
				hadoop := f.Format == parsed.HadoopCoreSite || f.Format == parsed.HadoopHDFSSite
				if f.Entries != nil && !(hadoop && bytes.Contains(f.Src, []byte("include"))) {
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
