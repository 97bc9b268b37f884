//go:build enginetargets

package lint_test

// Engine targets: OPA's topdown interpreter (what ckptlint uses) against the
// Wasm target (OPA's planner compiles the policies to Wasm, run by wazero in
// process) on the same inputs. Built only with the tag, so the normal test
// run does not compile the policies to Wasm:
//
//	go test ./lint -tags enginetargets -run XXX -bench EngineTarget -benchtime 5x -count 5
//
// Results: docs/performance.md, "Engine targets".

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	_ "github.com/open-policy-agent/opa/v1/features/wasm" // registers the "wasm" target
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/policies"
)

// targetQuery is the query engine.Engine prepares.
const targetQuery = "f := data.ckptlint.rules[family][rule].deny[_]"

func embeddedCompiler(b *testing.B) *ast.Compiler {
	b.Helper()
	mods := map[string]*ast.Module{}
	err := fs.WalkDir(policies.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") || strings.HasSuffix(p, "_test.rego") {
			return err
		}
		src, err := fs.ReadFile(policies.FS, p)
		if err != nil {
			return err
		}
		m, err := ast.ParseModuleWithOpts(p, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true, Capabilities: engine.Capabilities()})
		mods[p] = m
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	c := ast.NewCompiler().WithCapabilities(engine.Capabilities()).WithDefaultRegoVersion(ast.RegoV1)
	if c.Compile(mods); c.Failed() {
		b.Fatal(c.Errors)
	}
	return c
}

// targetInputs are the input documents of 100 generated config sets.
func targetInputs(b *testing.B) []ast.Value {
	root := benchRepo(b, 100)
	b.Chdir(root)
	cfg, diags := config.Load(filepath.Join(root, ".ckptlint.hcl"))
	if diags.HasErrors() {
		b.Fatal(diags.Err())
	}
	sets, _, err := lint.Discover(nil, lint.Options{Config: cfg})
	if err != nil {
		b.Fatal(err)
	}
	var out []ast.Value
	for _, s := range sets {
		v, err := model.Input(s)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func benchTarget(b *testing.B, target string) {
	inputs := targetInputs(b)
	opts := []func(*rego.Rego){rego.Compiler(embeddedCompiler(b)), rego.Query(targetQuery), rego.StrictBuiltinErrors(true)}
	if target != "rego" {
		opts = append(opts, rego.Target(target))
	}
	pq, err := rego.New(opts...).PrepareForEval(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	want := 0
	for _, in := range inputs {
		rs, err := pq.Eval(context.Background(), rego.EvalParsedInput(in))
		if err != nil {
			b.Fatal(err)
		}
		want += len(rs)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		for _, in := range inputs {
			rs, err := pq.Eval(context.Background(), rego.EvalParsedInput(in))
			if err != nil {
				b.Fatal(err)
			}
			n += len(rs)
		}
		if n != want {
			b.Fatalf("%d findings, first pass %d", n, want)
		}
	}
	b.ReportMetric(float64(len(inputs)*b.N)/b.Elapsed().Seconds(), "sets/s")
	b.ReportMetric(float64(want)/float64(len(inputs)), "findings/set")
}

// BenchmarkEngineTargetTopdown evaluates 100 sets with the interpreter.
func BenchmarkEngineTargetTopdown(b *testing.B) { benchTarget(b, "rego") }

// BenchmarkEngineTargetWasm evaluates the same sets with the Wasm target.
func BenchmarkEngineTargetWasm(b *testing.B) { benchTarget(b, "wasm") }

// BenchmarkEngineTargetPrepareWasm is the one-time cost of the Wasm target:
// plan, compile to Wasm and instantiate (compare BenchmarkEngineNew).
func BenchmarkEngineTargetPrepareWasm(b *testing.B) {
	for b.Loop() {
		if _, err := rego.New(rego.Compiler(embeddedCompiler(b)), rego.Query(targetQuery), rego.Target("wasm")).PrepareForEval(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
