package policies_test

import (
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/policies"
)

// TestRego runs every _test.rego of the embedded bundle with OPA's tester,
// so `go test ./...` covers the policies too.
func TestRego(t *testing.T) {
	mods := map[string]*ast.Module{}
	err := fs.WalkDir(policies.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		b, err := fs.ReadFile(policies.FS, p)
		if err != nil {
			return err
		}
		m, err := ast.ParseModuleWithOpts(p, string(b), ast.ParserOptions{RegoVersion: ast.RegoV1, ProcessAnnotation: true, Capabilities: engine.Capabilities()})
		if err != nil {
			return err
		}
		mods[p] = m
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := tester.NewRunner().
		SetCompiler(ast.NewCompiler().WithCapabilities(engine.Capabilities()).WithDefaultRegoVersion(ast.RegoV1)).
		SetModules(mods).
		CapturePrintOutput(true).
		RaiseBuiltinErrors(true).
		RunTests(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := range ch {
		n++
		name := strings.TrimPrefix(r.Package, "data.") + "." + r.Name
		if r.Error != nil {
			t.Errorf("%s (%s:%d): error: %v", name, r.Location.File, r.Location.Row, r.Error)
		} else if r.Fail {
			t.Errorf("%s (%s:%d): FAIL\n%s", name, r.Location.File, r.Location.Row, r.Output)
		}
	}
	t.Logf("%d Rego tests", n)
	if n == 0 {
		t.Fatal("no Rego tests found")
	}
}
