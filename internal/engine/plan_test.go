package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/ckptlint/ckptlint/internal/engine/irplan"
)

// planSnippets are policies using Rego constructs the embedded rules use
// rarely or not at all, each planned by OPA and run by planEval, against
// topdown on the same inputs (TestPlanEvalSnippets): iteration over every
// kind of collection, negation, every, comprehensions, else and default,
// functions, conflicts, partial objects and rule heads with variables,
// unification with arrays and objects, relations (walk), built-in errors.
var planSnippets = []string{`package t

all_pos if { every x in input.xs { x > 0 } }
none_neg if not any_neg
any_neg if { some x in input.xs; x < 0 }
keys contains k if { some k, _ in input.obj }
pairs contains [i, x] if { some i, x in input.xs }
members contains m if { some m in {1, "a", [2]} }
small := {x | some x in input.xs; x < 3}
`, `package t

default grade := "none"
grade := "high" if input.n > 10
else := "mid" if input.n > 5
else := "low" if input.n >= 0

f(x) := y if { y := x * 2 }
f(x) := -1 if x < -100
doubled := f(input.n)

conflict := f(-200)

g(x) := "neg" if x < 0
g(x) := "small" if { x >= 0; x < 10 }
labels := [g(x) | some x in input.xs]
`, `package t

squares := [y | some x in input.xs; y := x * x]
parity := {y | some x in input.xs; y := x % 2}
copy := {k: v | some k, v in input.obj}
first if { [a, _, _] := input.xs; a == 1 }
named if { {"a": a} := input.small; a == "x" }
nested if { [[a, b], c] := input.deep; a + b == c }
`, `package t

po[k] := v if { some k, v in input.obj; v != 0 }
grouped.by[k] contains v if { some k, vs in input.groups; some v in vs }
deep.one.two := 2
`, `package t

paths contains p if walk(input.obj, [p, _])
n := count(input.xs)
s := sprintf("%v-%d", [input.name, count(input.xs)])
num := to_number(input.name)
union := {1, 2} | {x | some x in input.xs}
up := upper(input.name)
loud contains u if { some x in input.xs; u := upper(x) }
`, `package t

# every over what is not a collection, not over what is undefined
every_str if { every x in input.name { x } }
not_missing if not input.missing
scan_obj contains [k, v] if { some k, v in input.obj; v > 1 }
ord := [k | some k, _ in {"b": 1, "a": 2, "c": 3}]
`}

var planInputs = []string{
	`{"xs": [1, 2, 3], "obj": {"b": 2, "a": 1, "z": 0}, "n": 7, "name": "x", "small": {"a": "x"}, "deep": [[1, 2], 3], "groups": {"g": [1, 2], "h": []}}`,
	`{"xs": [-1, 5], "obj": {}, "n": -3, "name": "12", "small": {"a": "y", "b": 1}, "deep": [[1], 3], "groups": {}}`,
	`{"xs": [], "obj": {"k": [1, {"l": 2}]}, "n": 11, "name": "1e3", "groups": {"g": [3]}}`,
	`{"xs": "abc", "obj": [1, 2], "n": "7", "name": 3}`,
	`{}`,
}

func TestPlanEvalSnippets(t *testing.T) {
	for i, src := range planSnippets {
		parse := func() map[string]*ast.Module {
			m, err := ast.ParseModuleWithOpts("t.rego", src, ast.ParserOptions{RegoVersion: ast.RegoV1, Capabilities: Capabilities()})
			if err != nil {
				t.Fatal(err)
			}
			return map[string]*ast.Module{"t.rego": m}
		}
		names := map[string]bool{}
		for _, r := range parse()["t.rego"].Rules {
			if len(r.Head.Args) == 0 {
				names[r.Head.Ref().GroundPrefix().String()] = true
			}
		}
		for name := range names {
			// One query per rule: `data.t` as a whole would merge the
			// virtual document with the data document, which is empty here
			// (and planEval refuses ObjectMergeStmt).
			snippet(t, i, parse, "x := data.t."+name)
		}
	}
}

func snippet(t *testing.T, i int, parse func() map[string]*ast.Module, query string) {
	ctx := context.Background()
	{
		ir, err := planModules(ctx, parse(), query)
		if err != nil {
			t.Fatalf("snippet %d: %v", i, err)
		}
		p, err := newPlan(ir)
		if err != nil {
			t.Fatalf("snippet %d, %s: %v", i, query, err)
		}
		c := ast.NewCompiler().WithCapabilities(Capabilities()).WithDefaultRegoVersion(ast.RegoV1)
		if c.Compile(parse()); c.Failed() {
			t.Fatal(c.Errors)
		}
		pq, err := rego.New(rego.Compiler(c), rego.Query(query), rego.StrictBuiltinErrors(true)).PrepareForEval(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for j, in := range planInputs {
			var v any
			if err := util.UnmarshalJSON([]byte(in), &v); err != nil {
				t.Fatal(err)
			}
			input := ast.MustInterfaceToValue(v)
			rs, werr := pq.Eval(ctx, rego.EvalParsedInput(input))
			got, gerr := p.eval(ctx, input)
			switch {
			case werr != nil || gerr != nil:
				var te *topdown.Error
				if (werr == nil) != (gerr == nil) && !(werr == nil && errors.As(gerr, &te) && (te.Code == topdown.TypeErr || te.Code == topdown.BuiltinErr)) {
					t.Errorf("snippet %d, %s, input %d: plan error %v, topdown error %v", i, query, j, gerr, werr)
				}
			default:
				var want, have []any
				for _, r := range rs {
					want = append(want, map[string]any(r.Bindings))
				}
				for _, r := range got {
					j, err := ast.JSON(r.Value)
					if err != nil {
						t.Fatal(err)
					}
					have = append(have, j)
				}
				if d := cmp.Diff(want, have); d != "" {
					t.Errorf("snippet %d, %s, input %d: (-topdown +plan)\n%s", i, query, j, d)
				}
			}
		}
	}
}

// TestPlanRefusesWith: a plan with a statement planEval does not run (here
// the WithStmt of a `with`) is refused when it is planned, naming it.
func TestPlanRefusesWith(t *testing.T) {
	m := ast.MustParseModuleWithOpts("package t\n\np if input.x == 1\nq if p with input.x as 1\n", ast.ParserOptions{RegoVersion: ast.RegoV1})
	ir, err := planModules(context.Background(), map[string]*ast.Module{"t.rego": m}, "x := data.t.q")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newPlan(ir); err == nil || !strings.Contains(err.Error(), "WithStmt") {
		t.Fatalf("err = %v, want WithStmt refused", err)
	}
}

// TestPlanBreakOutOfScan pins what the planner never emits for the
// embedded rules but the IR allows: a BreakStmt leaving a ScanStmt's block.
// As in OPA's Wasm compiler (a scan is a loop inside a block), leaving the
// scan's block goes on with the next element, leaving one more ends the
// scan, two more leave the block the scan is in; a NotStmt's block counts
// as one block. Each case breaks on the element "a" only.
func TestPlanBreakOutOfScan(t *testing.T) {
	str := func(i int) ir.Operand { return ir.Operand{Value: ir.StringIndex(i)} }
	onA := func(then ...ir.Stmt) ir.Stmt {
		return &ir.BlockStmt{Blocks: []*ir.Block{{Stmts: append([]ir.Stmt{&ir.EqualStmt{A: ir.Operand{Value: ir.Local(4)}, B: str(0)}}, then...)}}}
	}
	run := func(body ...ir.Stmt) []string {
		stmts := []ir.Stmt{
			&ir.MakeArrayStmt{Target: 2},
			&ir.ArrayAppendStmt{Array: 2, Value: str(0)},
			&ir.ArrayAppendStmt{Array: 2, Value: str(1)},
			&ir.BlockStmt{Blocks: []*ir.Block{{Stmts: []ir.Stmt{
				&ir.ScanStmt{Source: 2, Key: 3, Value: 4, Block: &ir.Block{Stmts: append(body, &ir.ResultSetAddStmt{Value: 4})}},
				&ir.AssignVarStmt{Source: str(2), Target: 5},
				&ir.ResultSetAddStmt{Value: 5},
			}}}},
			&ir.AssignVarStmt{Source: str(3), Target: 6},
			&ir.ResultSetAddStmt{Value: 6},
		}
		pol := &ir.Policy{
			Static: &ir.Static{Strings: []*ir.StringConst{{Value: "a"}, {Value: "b"}, {Value: "after scan"}, {Value: "after block"}}},
			Plans:  &ir.Plans{Plans: []*ir.Plan{{Name: "eval", Blocks: []*ir.Block{{Stmts: stmts}}}}},
			Funcs:  &ir.Funcs{},
		}
		p, err := newPlan(pol)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := p.eval(context.Background(), ast.NewObject())
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, string(r.Value.(ast.String)))
		}
		return out
	}
	not := func(stmts ...ir.Stmt) ir.Stmt { return &ir.NotStmt{Block: &ir.Block{Stmts: stmts}} }
	for _, tt := range []struct {
		name string
		body []ir.Stmt
		want []string
	}{
		{"nothing", nil, []string{"a", "b", "after scan", "after block"}},
		{"leave the element's block: the next element", []ir.Stmt{onA(&ir.BreakStmt{Index: 1})}, []string{"b", "after scan", "after block"}},
		{"leave one block more: the scan ends", []ir.Stmt{onA(&ir.BreakStmt{Index: 2})}, []string{"after scan", "after block"}},
		{"leave two blocks more: the block around the scan ends", []ir.Stmt{onA(&ir.BreakStmt{Index: 3})}, []string{"after block"}},
		{"a not that holds", []ir.Stmt{not(&ir.BreakStmt{Index: 0})}, []string{"a", "b", "after scan", "after block"}},
		{"a not that fails", []ir.Stmt{not()}, []string{"after scan", "after block"}},
		{"leave the not and its block: the next element", []ir.Stmt{onA(not(&ir.BreakStmt{Index: 2}))}, []string{"b", "after scan", "after block"}},
		{"leave the not, its block and one more: the scan ends", []ir.Stmt{onA(not(&ir.BreakStmt{Index: 3}))}, []string{"after scan", "after block"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := run(tt.body...); !slices.Equal(got, tt.want) {
				t.Errorf("results %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEmbeddedPlanChecks: the generated plan passes every check of
// newPlan, which a run skips (preparePlan).
func TestEmbeddedPlanChecks(t *testing.T) {
	if _, err := newPlan(irplan.Embedded); err != nil {
		t.Fatal(err)
	}
}

// TestEveryRunStatementHasAKind: every statement newPlan accepts
// (locals) has an opKind, so stmt never meets one it would call refused.
func TestEveryRunStatementHasAKind(t *testing.T) {
	for _, s := range []ir.Stmt{
		&ir.CallStmt{}, &ir.DotStmt{}, &ir.AssignVarStmt{}, &ir.AssignVarOnceStmt{}, &ir.ResetLocalStmt{},
		&ir.IsDefinedStmt{}, &ir.IsUndefinedStmt{}, &ir.NotEqualStmt{}, &ir.EqualStmt{}, &ir.BlockStmt{},
		&ir.ScanStmt{}, &ir.NotStmt{}, &ir.BreakStmt{}, &ir.ReturnLocalStmt{}, &ir.MakeObjectStmt{},
		&ir.MakeArrayStmt{}, &ir.MakeSetStmt{}, &ir.MakeNullStmt{}, &ir.MakeNumberIntStmt{},
		&ir.MakeNumberRefStmt{}, &ir.AssignIntStmt{}, &ir.ObjectInsertStmt{}, &ir.ObjectInsertOnceStmt{},
		&ir.ArrayAppendStmt{}, &ir.SetAddStmt{}, &ir.IsArrayStmt{}, &ir.IsObjectStmt{}, &ir.IsSetStmt{},
		&ir.LenStmt{}, &ir.ResultSetAddStmt{}, &ir.NopStmt{},
		&ir.WithStmt{}, &ir.CallDynamicStmt{}, &ir.ObjectMergeStmt{},
	} {
		runs := locals(s, func(ir.Local) {}) == nil
		if has := kindOf(s) != opOther; has != runs {
			t.Errorf("%T: has a kind %v, newPlan runs it %v", s, has, runs)
		}
	}
}
