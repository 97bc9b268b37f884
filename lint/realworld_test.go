package lint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

// TestRealWorld lints each deployment of testdata/realworld — fixtures
// written for this repository in the shape real deployments take (an
// Ambari-generated hdfs-site.xml, a core-site.xml of an HA nameservice, a
// docker-compose playground's flink-conf.yaml, a Flink 1.19+ config.yaml, an
// operator FlinkDeployment with a podTemplate and the same one with nested
// flinkConfiguration after a ServiceAccount, one on HDFS with a short
// timeout whose fix writes a number into flinkConfiguration (operator-hdfs),
// and the configuration files
// the Flink 1.4, 1.18 and 1.20 binary releases ship, dist-*) — from inside
// its directory, as a user runs ckptlint: every file is recognised, none is
// a parse error, a distribution default has no error, and the findings
// match testdata/realworld.want.txt (review it with -update). TestCorpus
// runs the same over ../shared/corpus when present.
func TestRealWorld(t *testing.T) {
	root, _ := filepath.Abs("../testdata/realworld")
	want, _ := filepath.Abs("../testdata/realworld.want.txt")
	eng := linttest.Engine(t)
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(root, d.Name()))
		t.Chdir(filepath.Join(root, d.Name()))
		res, err := lint.Lint(context.Background(), eng, nil, lint.Options{})
		if err != nil {
			t.Errorf("%s: %v", d.Name(), err)
			continue
		}
		if res.Files != len(files) {
			t.Errorf("%s: %d files read, want %d; a file was not recognised", d.Name(), res.Files, len(files))
		}
		fmt.Fprintf(&b, "== %s\n", d.Name())
		for _, fd := range res.Findings {
			if fd.RuleID == rule.ParseError {
				t.Errorf("%s: parse error: %s", d.Name(), fd)
			}
			if strings.HasPrefix(d.Name(), "dist-") && fd.Severity == finding.Error {
				t.Errorf("Flink distribution default %s: %s", d.Name(), fd)
			}
			fmt.Fprintln(&b, fd.String())
		}
	}
	if len(dirs) < 5 {
		t.Errorf("%d deployments in %s, want at least 5", len(dirs), root)
	}
	golden(t, want, b.String())
}
