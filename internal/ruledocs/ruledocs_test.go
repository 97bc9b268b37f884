package ruledocs_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/internal/ruledocs"
)

const root = "../.."

// TestEveryRuleIsComplete is the meta-test of CONTRIBUTING.md: every rule
// has its Rego test beside it, a firing and a quiet fixture with recorded
// output, a description ending in a period, and a generated doc page.
func TestEveryRuleIsComplete(t *testing.T) {
	rules, err := engine.Metadata(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		t.Run(r.ID, func(t *testing.T) {
			rel := strings.TrimPrefix(r.File, "policies/")
			test := filepath.Join(root, "policies", strings.TrimSuffix(rel, ".rego")+"_test.rego")
			for _, p := range []string{
				test,
				filepath.Join(root, "testdata", "rules", r.ID, "bad"),
				filepath.Join(root, "testdata", "rules", r.ID, "good"),
				filepath.Join(root, "testdata", "rules", r.ID, "want.txt"),
				filepath.Join(root, "docs", "rules", r.ID+".md"),
			} {
				if _, err := os.Stat(p); err != nil {
					t.Errorf("missing %s", strings.TrimPrefix(p, root+"/"))
				}
			}
			if !strings.HasSuffix(strings.TrimSpace(r.Description), ".") {
				t.Errorf("description does not end with a period")
			}
			if len(r.Related) == 0 {
				t.Errorf("no related_resources: link the Flink/Hadoop docs, source or JIRA")
			}
		})
	}
}

// TestDocsUpToDate fails when docs/rules drifts from the policies.
func TestDocsUpToDate(t *testing.T) {
	rules, err := engine.Metadata(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, err := ruledocs.Files(root, rules)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range files {
		got, err := os.ReadFile(filepath.Join(root, p))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s is out of date: run `go generate ./policies` and commit the result", p)
		}
	}
	ents, _ := os.ReadDir(filepath.Join(root, "docs", "rules"))
	for _, ent := range ents {
		if _, ok := files[filepath.Join("docs", "rules", ent.Name())]; !ok {
			t.Errorf("docs/rules/%s belongs to no rule: delete it", ent.Name())
		}
	}
}

// TestTableMatchesMetadata reads the embedded METADATA blocks and fails when
// internal/rule/rego_gen.go, the table `rules`, `explain`, config validation
// and the reporters read instead of compiling, differs from METADATA.
func TestTableMatchesMetadata(t *testing.T) {
	rules, err := engine.Metadata(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, want := rule.Rego(), rules
	if len(got) != len(want) {
		t.Errorf("internal/rule/rego_gen.go has %d rules, the policies %d: run `go generate ./policies`", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("internal/rule/rego_gen.go entry %d is stale:\n got %+v\nwant %+v\nrun `go generate ./policies`", i, got[i], want[i])
		}
	}
}
