package lint_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/lint"
)

// TestDerivedFactsAgree: the facts the Go side computes into input.derived
// (docs/input.md) give the same findings as the policy library's own
// derivation, which it uses for inputs without them (policies/lib/flink.rego,
// timing.rego). Every config set of the repository's fixtures is evaluated
// with and without input.derived.
func TestDerivedFactsAgree(t *testing.T) {
	eng := linttest.Engine(t)
	var dirs []string
	for _, d := range []string{"stories", "k8s", "realworld", "templates", "suppress"} {
		dirs = append(dirs, filepath.Join("..", "testdata", d))
	}
	rules, _ := filepath.Glob(filepath.Join("..", "testdata", "rules", "*"))
	dirs = append(dirs, rules...)
	derivedKey := ast.InternedTerm("derived")
	var n, checkpointing, onHDFS int
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		sets, _, err := lint.Discover([]string{dir}, lint.Options{Config: linttest.LoadConfig(t, dir)})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, s := range sets {
			v, err := model.Input(s)
			if err != nil {
				t.Fatal(err)
			}
			obj := v.(ast.Object)
			d := obj.Get(derivedKey)
			if d == nil {
				continue
			}
			n++
			if ast.BooleanTerm(true).Equal(d.Get(ast.InternedTerm("checkpointing"))) {
				checkpointing++
			}
			if ast.BooleanTerm(true).Equal(d.Get(ast.InternedTerm("checkpoints_on_hdfs"))) {
				onHDFS++
			}
			without := ast.NewObject()
			obj.Foreach(func(k, x *ast.Term) {
				if !k.Equal(derivedKey) {
					without.Insert(k, x)
				}
			})
			got, gotErr := findings(eng, v)
			want, wantErr := findings(eng, without)
			if gotErr != nil || wantErr != nil {
				t.Errorf("%s %s: with derived: %v; without: %v", dir, s.Name, gotErr, wantErr)
				continue
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: findings differ\nwith input.derived:\n%v\nwithout:\n%v", dir, s.Name, got, want)
			}
		}
	}
	t.Logf("%d sets with input.derived: %d checkpointing, %d on HDFS", n, checkpointing, onHDFS)
	if n < 20 || checkpointing < 10 || onHDFS < 10 || onHDFS == n {
		t.Errorf("too few sets exercise the derived facts: %d sets, %d checkpointing, %d on HDFS", n, checkpointing, onHDFS)
	}
}

func findings(eng *engine.Engine, v ast.Value) ([]string, error) {
	raws, err := eng.Eval(context.Background(), v)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(raws))
	for _, r := range raws {
		out = append(out, fmt.Sprintf("%s %v %q %v %v %v", r.Rule.ID, r.Severity, r.Message, r.Loc, r.Fix, r.VersionDependent))
	}
	slices.Sort(out)
	return out, nil
}
