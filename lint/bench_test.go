package lint_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ckptlint/ckptlint/internal/benchrepo"
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/lint"
)

// benchRepo writes the benchmark monorepo of n config sets.
func benchRepo(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	if err := benchrepo.Write(root, n); err != nil {
		b.Fatal(err)
	}
	return root
}

func benchConfig(b *testing.B, root string) *config.Config {
	cfg, diags := config.Load(filepath.Join(root, ".ckptlint.hcl"))
	if diags.HasErrors() {
		b.Fatal(diags.Err())
	}
	return cfg
}

// BenchmarkLint1000 is the whole pipeline on 1,000 config sets: walk, read,
// parse, model, one policy evaluation per set. Report sets/s.
func BenchmarkLint1000(b *testing.B) {
	root := benchRepo(b, 1000)
	b.Chdir(root)
	cfg := benchConfig(b, root)
	eng, err := engine.New(context.Background(), engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := lint.Lint(context.Background(), eng, nil, lint.Options{Config: cfg})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Sets) != 1000 {
			b.Fatalf("%d sets", len(res.Sets))
		}
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "sets/s")
}

// BenchmarkParseOnly1000 is the floor: walk, read and parse the same files
// and group them into sets, without building inputs or evaluating policies.
func BenchmarkParseOnly1000(b *testing.B) {
	root := benchRepo(b, 1000)
	b.Chdir(root)
	cfg := benchConfig(b, root)
	for b.Loop() {
		sets, _, err := lint.Discover(nil, lint.Options{Config: cfg})
		if err != nil {
			b.Fatal(err)
		}
		if len(sets) != 1000 {
			b.Fatalf("%d sets", len(sets))
		}
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "sets/s")
}

// BenchmarkEngineNew is the one-time cost per process: the embedded rules'
// metadata from internal/rule's table and their plan prepared (after the first
// iteration the process reuses the prepared plan; BenchmarkNewPlan in
// internal/engine measures that).
func BenchmarkEngineNew(b *testing.B) {
	for b.Loop() {
		if _, err := engine.New(context.Background(), engine.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
