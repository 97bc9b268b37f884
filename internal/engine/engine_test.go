package engine

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/ckptlint/ckptlint/policies"
)

const goodRule = `# METADATA
# title: Test rule
# description: A rule for the engine tests.
# custom:
#   id: USER001
#   name: user-test-rule
#   severity: warning
#   fixable: false
package ckptlint.rules.user.test_rule

import data.ckptlint.lib.result

deny contains f if {
	input.x == 1
	f := result.finding(input.at, "x is one")
}
`

func writePolicy(t *testing.T, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestEmbeddedBundleCompiles(t *testing.T) {
	e, err := New(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Rules()) == 0 {
		t.Fatal("no rules loaded")
	}
	for _, r := range e.Rules() {
		if r.User {
			t.Errorf("%s marked as a user rule", r.ID)
		}
	}
}

// TestEmbeddedBundleFullChecks compiles the embedded bundle with every
// compiler stage, including the check-only ones New skips for it
// (checkOnlyStages): a type error, unused import or unsafe builtin in the
// bundle fails here.
func TestEmbeddedBundleFullChecks(t *testing.T) {
	srcs, err := readFS(policies.FS, ".", "policies", false, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	mods, err := parse(srcs, Capabilities())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := compile(context.Background(), mods, Capabilities(), false); err != nil {
		t.Fatal(err)
	}
}

// TestUserPolicyTypeChecked: a user policy with a type error is refused
// although the embedded bundle alone compiles without the check stages.
func TestUserPolicyTypeChecked(t *testing.T) {
	bad := strings.Replace(goodRule, "input.x == 1", "input.x == 1\n\tcount(1) > 0", 1)
	dir := writePolicy(t, "rule.rego", bad)
	_, err := New(context.Background(), Options{PolicyDirs: []string{dir}})
	if err == nil || !strings.Contains(err.Error(), "count") {
		t.Fatalf("want a type error naming count, got %v", err)
	}
}

func TestUserPolicyEvaluates(t *testing.T) {
	dir := writePolicy(t, "rule.rego", goodRule)
	e, err := New(context.Background(), Options{PolicyDirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	r := e.Rule("USER001")
	if r == nil || !r.User || r.Name != "user-test-rule" {
		t.Fatalf("USER001 = %+v", r)
	}
	v, err := ToValue(map[string]any{"x": 1, "at": map[string]any{"loc": map[string]any{"file": "a.yaml", "line": 7}}})
	if err != nil {
		t.Fatal(err)
	}
	raws, err := e.Eval(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	var got []Raw
	for _, r := range raws {
		if r.Rule.ID == "USER001" {
			got = append(got, r)
		}
	}
	if len(got) != 1 || got[0].Message != "x is one" || got[0].Loc["file"] != "a.yaml" {
		t.Fatalf("findings = %+v", got)
	}
}

// TestContract checks that each way of breaking the policy contract is
// refused with the file and line of the offending policy.
func TestContract(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"http.send refused", strings.Replace(goodRule, `input.x == 1`, `http.send({"method": "get", "url": "http://127.0.0.1:9"})`, 1),
			"rule.rego:14: undefined function http.send"},
		{"net.lookup_ip_addr refused", strings.Replace(goodRule, `input.x == 1`, `net.lookup_ip_addr("localhost")`, 1),
			"rule.rego:14: undefined function net.lookup_ip_addr"},
		{"opa.runtime refused", strings.Replace(goodRule, `input.x == 1`, `opa.runtime().env`, 1),
			"rule.rego:14: undefined function opa.runtime"},
		{"no metadata", goodRule[strings.Index(goodRule, "package"):], "has no package METADATA block"},
		{"bad id", strings.Replace(goodRule, "USER001", "user-1", 1), `custom.id "user-1" must look like CKPT101`},
		{"bad name", strings.Replace(goodRule, "user-test-rule", "User_Test", 1), "must be kebab-case"},
		{"bad severity", strings.Replace(goodRule, "severity: warning", "severity: fatal", 1), `unknown severity "fatal"`},
		{"fixable missing", strings.Replace(goodRule, "#   fixable: false\n", "", 1), "custom.fixable must be true or false"},
		{"boolean deny", strings.Replace(goodRule, "deny contains f if {", "deny if {", 1), "deny must be a partial set rule"},
		{"wrong package", strings.Replace(goodRule, "ckptlint.rules.user.test_rule", "mycompany.rules", 1), "must be ckptlint.rules.<family>.<rule>"},
		{"rego v0 syntax", strings.Replace(goodRule, "deny contains f if {", "deny[f] {", 1), "rule.rego:13: rego_parse_error: `if` keyword is required"},
		{"duplicate id", strings.Replace(goodRule, "USER001", "CKPT101", 1), "rule id CKPT101 is already used by"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writePolicy(t, "rule.rego", tt.src)
			_, err := New(context.Background(), Options{PolicyDirs: []string{dir}})
			if err == nil {
				t.Fatal("policy accepted")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not contain %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), filepath.ToSlash(dir)) {
				t.Errorf("error %q does not name the policy file", err)
			}
		})
	}
}

func TestEvalDeadline(t *testing.T) {
	slow := strings.Replace(goodRule, "input.x == 1", "some n in numbers.range(1, 100000000)\n\tn < 0", 1)
	slow = strings.Replace(slow, "input.at", "null", 1)
	dir := writePolicy(t, "rule.rego", slow)
	e, err := New(context.Background(), Options{PolicyDirs: []string{dir}, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := ToValue(map[string]any{})
	if _, err := e.Eval(context.Background(), v); err == nil || !strings.Contains(err.Error(), "exceeded 200ms") {
		t.Fatalf("err = %v, want a deadline error", err)
	}
}

// TestEmbeddedRulesFromTable: New takes the embedded rules' metadata from
// internal/rule's generated table without parsing the METADATA blocks; it must
// be what the blocks say (internal/ruledocs checks the table itself).
func TestEmbeddedRulesFromTable(t *testing.T) {
	e, err := New(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Metadata(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(e.Rules(), want) {
		t.Fatalf("rules from internal/rule's table differ from METADATA: run `go generate ./policies`")
	}
	for _, m := range e.Modules() {
		if len(m.Annotations) > 0 {
			t.Errorf("%s: METADATA parsed for an embedded module", m.Package.Location.File)
		}
	}
}

// TestEmbeddedRuleNotInTable: an embedded rule package internal/rule's table
// does not list (go generate not run) is refused, not silently dropped.
func TestEmbeddedRuleNotInTable(t *testing.T) {
	srcs, err := readSources(Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(goodRule, "ckptlint.rules.user.test_rule", "ckptlint.rules.hygiene.not_generated", 1)
	srcs = append(srcs, source{name: "policies/rules/hygiene/not_generated.rego", src: []byte(src), embedded: true})
	_, err = load(srcs, Options{topdown: true})
	if err == nil || !strings.Contains(err.Error(), "go generate ./policies") || !strings.Contains(err.Error(), "not_generated.rego") {
		t.Fatalf("err = %v, want a request to run go generate naming the file", err)
	}
}

// TestNoopStagesChangeNothing is the proof behind noopStages: the embedded
// bundle uses none of the constructs those stages rewrite, and compiling it
// without them gives the same modules, body for body, as compiling it with
// them. When a policy starts to use one (a `with`, print, rego.metadata, a
// template string) this fails and noopStages must lose that stage.
func TestNoopStagesChangeNothing(t *testing.T) {
	srcs, err := readSources(Options{})
	if err != nil {
		t.Fatal(err)
	}
	compiled := func(skip []ast.StageID) map[string]*ast.Module {
		mods, err := parse(srcs, Capabilities())
		if err != nil {
			t.Fatal(err)
		}
		c := ast.NewCompiler().WithCapabilities(Capabilities()).WithDefaultRegoVersion(ast.RegoV1).WithSkipStages(skip...)
		c.Compile(moduleMap(mods))
		if c.Failed() {
			t.Fatal(c.Errors)
		}
		return c.Modules
	}

	mods, err := parse(srcs, Capabilities())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		at := func(loc *ast.Location, what string) {
			t.Errorf("%s:%d: %s: remove its stage from noopStages", loc.File, loc.Row, what)
		}
		ast.WalkWiths(m, func(w *ast.With) bool { at(w.Location, "a with modifier"); return false })
		ast.WalkExprs(m, func(e *ast.Expr) bool {
			if e.IsCall() {
				switch name := e.Operator().String(); name {
				case "print", "rego.metadata.chain", "rego.metadata.rule":
					at(e.Location, "a call of "+name)
				}
			}
			return false
		})
		ast.WalkTerms(m, func(x *ast.Term) bool {
			if _, ok := x.Value.(*ast.TemplateString); ok {
				at(x.Location, "a template string")
			}
			return false
		})
	}

	all := compiled(checkOnlyStages)
	fewer := compiled(append(slices.Clip(checkOnlyStages), noopStages...))
	if len(all) != len(fewer) {
		t.Fatalf("%d modules compiled with every stage, %d without noopStages", len(all), len(fewer))
	}
	for name, m := range all {
		if got, want := fewer[name].String(), m.String(); got != want {
			t.Errorf("%s compiles differently without noopStages", name)
		}
	}
}
