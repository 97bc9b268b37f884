package lint_test

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

// corpusDir is ../shared/corpus beside the repository, or "" when absent.
func corpusDir(t *testing.T) string {
	t.Helper()
	d, _ := filepath.Abs("../../shared/corpus")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("corpus not found at %s (it lives in ../shared beside the repository): %v", d, err)
	}
	return d
}

// realName is the name a corpus file has in its project.
var realName = map[string]string{
	"flink-conf":        "flink-conf.yaml",
	"flink-config-yaml": "config.yaml",
	"core-site":         "core-site.xml",
	"hdfs-site":         "hdfs-site.xml",
	"flinkdeployment":   "flinkdeployment.yaml",
}

// TestCorpus lints every real-world file of ../shared/corpus on its own,
// under its real name in a temporary directory: each is linted without a Go
// error or panic, unreadable files are CKPT000 findings with a line, the
// Apache Flink distribution defaults produce no error, and the full list of
// findings is recorded in docs/corpus-findings.txt (review it with -update).
func TestCorpus(t *testing.T) {
	want, _ := filepath.Abs("../docs/corpus-findings.txt")
	eng := linttest.Engine(t)
	var lines []string
	eachCorpusFile(t, func(label, name string) {
		res, err := lint.Lint(context.Background(), eng, nil, lint.Options{})
		if err != nil {
			t.Errorf("%s: %v", label, err)
			return
		}
		if res.Files != 1 {
			t.Errorf("%s: read as %d files; the file was not recognised", label, res.Files)
		}
		base := path.Base(label)
		distDefault := strings.HasPrefix(base, "apache__flink@") && strings.Contains(base, "flink-dist__src__main")
		for _, fd := range res.Findings {
			if fd.RuleID == rule.ParseError && fd.Range.Start.Line < 1 {
				t.Errorf("%s: parse error without a line: %s", label, fd)
			}
			if distDefault && fd.Severity == finding.Error {
				t.Errorf("Flink distribution default %s: %s", base, fd)
			}
			lines = append(lines, fmt.Sprintf("%s: %s", label, strings.TrimPrefix(fd.String(), name+":")))
		}
	})
	sort.Strings(lines)
	golden(t, want, strings.Join(lines, "\n")+"\n")
}

// eachCorpusFile calls fn for every file of ../shared/corpus (skipping the
// test when it is absent) with the working directory set to a fresh
// temporary directory that holds the file alone under its real name;
// label is kind/file, name the real name.
func eachCorpusFile(t *testing.T, fn func(label, name string)) {
	t.Helper()
	dir := corpusDir(t)
	kinds, _ := os.ReadDir(dir)
	for _, k := range kinds {
		name, ok := realName[k.Name()]
		if !ok {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(dir, k.Name()))
		for _, f := range files {
			src, err := os.ReadFile(filepath.Join(dir, k.Name(), f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			if err := os.WriteFile(filepath.Join(tmp, name), src, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(tmp)
			fn(k.Name()+"/"+f.Name(), name)
		}
	}
}
