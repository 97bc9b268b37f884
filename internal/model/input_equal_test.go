package model_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/benchrepo"
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/lint"
)

// discoveredSets are the config sets under the working directory, linted
// with cfg (nil: none), as the engine's differential tests discover them
// (internal/engine/differential_test.go), sets with an unreadable or
// skipped file included.
func discoveredSets(t testing.TB, cfg *config.Config) []*model.Set {
	t.Helper()
	sets, _, err := lint.Discover(nil, lint.Options{Config: cfg, Now: linttest.Now})
	if err != nil {
		t.Logf("discover: %v", err)
	}
	return sets
}

// generatedSets are the n config sets of internal/benchrepo's generated
// monorepo of the shape ("teams" or "mixed").
func generatedSets(t testing.TB, shape string, n int) []*model.Set {
	t.Helper()
	root := t.TempDir()
	write := benchrepo.Write
	if shape == "mixed" {
		write = benchrepo.WriteMixed
	}
	if err := write(root, n); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	return discoveredSets(t, linttest.LoadConfig(t, "."))
}

// fixtureSets are the config sets of every directory under testdata/, each
// discovered on its own with its .ckptlint.hcl when it has a valid one;
// root is the repository's testdata/.
func fixtureSets(t *testing.T, root string) map[string][]*model.Set {
	t.Helper()
	out := map[string][]*model.Set{}
	linttest.FixtureDirs(t, root, func(label string, cfg *config.Config) { out[label] = discoveredSets(t, cfg) })
	return out
}

// corpusSets are the config sets of each file of ../shared/corpus alone
// under its real name, and of each Flink file of it beside the corpus's
// Hadoop files in turn (as TestPlanMatchesTopdownCorpus); nil when the
// corpus is absent. dir is ../shared/corpus beside the repository.
func corpusSets(t *testing.T, dir string) map[string][]*model.Set {
	t.Helper()
	cs, ok := linttest.CorpusSets(t, dir)
	if !ok {
		t.Logf("corpus not found at %s", dir)
		return nil
	}
	out := map[string][]*model.Set{}
	for _, c := range cs {
		out[c.Label] = setsOfFiles(t, c.Files)
	}
	return out
}

// setsOfFiles writes files into a new directory and discovers its sets.
func setsOfFiles(t *testing.T, files map[string][]byte) []*model.Set {
	t.Helper()
	tmp := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(tmp)
	return discoveredSets(t, nil)
}

// sameInput fails the test when Input's document of s differs from the
// one the Go maps converted by ast.InterfaceToValue give (the oracle,
// input_oracle_test.go): by ast.Compare, and in text, which tells 1 from
// 1.0 where Compare does not.
func sameInput(t *testing.T, label string, s *model.Set) {
	t.Helper()
	got, gerr := model.Input(s)
	want, werr := model.InputMaps(s)
	if gerr != nil || werr != nil {
		if (gerr == nil) != (werr == nil) {
			t.Errorf("%s: %s: Input error %v, maps error %v", label, s.Name, gerr, werr)
		}
		return
	}
	if ast.Compare(got, want) != 0 || !ast.ValueEqual(got, want) || got.String() != want.String() {
		t.Errorf("%s: %s: Input differs from the maps' document:\n got %s\nwant %s", label, s.Name, got, want)
	}
}

// TestInputMatchesMaps: Input builds the document the Go maps converted by
// ast.InterfaceToValue built, for every config set of the fixtures, of the
// generated monorepos of both shapes and of ../shared/corpus when it is
// there.
func TestInputMatchesMaps(t *testing.T) {
	// both before the tests change directory
	testdata, _ := filepath.Abs("../../testdata")
	corpus, _ := filepath.Abs("../../../shared/corpus")
	n := 0
	check := func(groups map[string][]*model.Set) {
		for label, sets := range groups {
			for _, s := range sets {
				sameInput(t, label, s)
				n++
			}
		}
	}
	check(fixtureSets(t, testdata))
	if n < 100 {
		t.Errorf("%d config sets under testdata/, want at least 100", n)
	}
	check(corpusSets(t, corpus))
	for _, shape := range []string{"teams", "mixed"} {
		check(map[string][]*model.Set{"benchrepo " + shape: generatedSets(t, shape, 300)})
	}
	t.Logf("%d config sets", n)
}

// BenchmarkInput is Input over 500 generated config sets of each shape.
func BenchmarkInput(b *testing.B) {
	for _, shape := range []string{"teams", "mixed"} {
		b.Run(shape, func(b *testing.B) {
			sets := generatedSets(b, shape, 500)
			for b.Loop() {
				for _, s := range sets {
					if _, err := model.Input(s); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(sets)), "ns/set")
		})
	}
}
