package policies_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/format"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/policies"
)

// The two checks below are `opa fmt --fail policies/` and
// `opa check --strict policies/` done through OPA's Go API (the module
// go.mod pins), so the gate needs no opa binary and runs in `go test ./...`.
// The options mirror those commands in OPA's cmd/fmt.go (formatFile) and
// cmd/check.go (checkModules), with ckptlint's own capabilities
// (engine.Capabilities) in place of the default set.

var fmtWrite = flag.Bool("fmt", false, "rewrite the .rego files that `opa fmt` would change (like `opa fmt -w`)")

// regoFiles returns every .rego file of the bundle, tests included, keyed
// by its path relative to policies/.
func regoFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := fs.WalkDir(policies.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		b, err := fs.ReadFile(policies.FS, p)
		files[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no .rego files in the bundle")
	}
	return files
}

// TestRegoFormat fails when a .rego file is not as `opa fmt` writes it.
// `go test ./policies -run TestRegoFormat -fmt` rewrites them; review the diff.
func TestRegoFormat(t *testing.T) {
	for p, src := range regoFiles(t) {
		got, err := format.SourceWithOpts(p, src, format.Opts{
			RegoVersion:   ast.RegoV1,
			Capabilities:  engine.Capabilities(),
			ParserOptions: &ast.ParserOptions{RegoVersion: ast.RegoV1, Capabilities: engine.Capabilities()},
		})
		if err != nil {
			t.Errorf("%s: opa fmt: %v", p, err)
			continue
		}
		if bytes.Equal(got, src) {
			continue
		}
		if *fmtWrite {
			if err := os.WriteFile(filepath.FromSlash(p), got, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: formatted", p)
			continue
		}
		t.Errorf("%s: not formatted as `opa fmt` writes it (first difference at line %d); run `go test ./policies -run TestRegoFormat -fmt`",
			p, firstDiffLine(src, got))
	}
}

// TestRegoStrict compiles the whole bundle, tests included, the way
// `opa check --strict` does: unused local variables and imports, duplicate
// imports, deprecated built-ins and shadowed `input`/`data` are errors.
func TestRegoStrict(t *testing.T) {
	caps := engine.Capabilities()
	mods := map[string]*ast.Module{}
	for p, src := range regoFiles(t) {
		m, err := ast.ParseModuleWithOpts(p, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true, Capabilities: caps})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		mods[p] = m
	}
	c := ast.NewCompiler().
		SetErrorLimit(0).
		WithCapabilities(caps).
		WithDefaultRegoVersion(ast.RegoV1).
		WithEnablePrintStatements(true).
		WithStrict(true).
		WithUseTypeCheckAnnotations(true)
	if c.Compile(mods); c.Failed() {
		for _, e := range c.Errors {
			t.Error(e)
		}
	}
}

// firstDiffLine is the 1-based line where a and b first differ.
func firstDiffLine(a, b []byte) int {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}
