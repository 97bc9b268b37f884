package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/ir"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/ckptlint/ckptlint/policies"
)

// planTarget is the rego.Target under which Plan receives OPA's plan of the
// query: OPA's rego package plans a query with its own planner for any
// target a registered rego.TargetPlugin claims, and hands the plan
// (*ir.Policy) to the plugin's PrepareForEval (OPA v1 rego/rego.go,
// PrepareForEval, the `default:` case of the target switch; rego/plugins.go).
const planTarget = "ckptlint-plan"

// planCapture is that plugin: it keeps the plan and evaluates nothing.
type planCapture struct {
	mu     sync.Mutex // held by Plan for a whole planning
	policy *ir.Policy
}

func (*planCapture) IsTarget(t string) bool { return t == planTarget }

func (c *planCapture) PrepareForEval(_ context.Context, p *ir.Policy, _ ...rego.PrepareOption) (rego.TargetPluginEval, error) {
	c.policy = p
	return noEval{}, nil
}

type noEval struct{}

func (noEval) Eval(context.Context, *rego.EvalContext, ast.Value) (ast.Value, error) {
	return nil, errors.New("the ckptlint-plan target only plans")
}

var capture = sync.OnceValue(func() *planCapture {
	c := &planCapture{}
	rego.RegisterPlugin(planTarget, c)
	return c
})

// Plan compiles the embedded policies (lib/ and rules/, no tests) with every
// compiler check, as a user policy is compiled, and plans the engine's query
// (`query`) with OPA's planner: the plan the embedded rules run from
// (planEval), which `go generate ./policies` writes into internal/engine/irplan
// (internal/plangen). It is for the generator and its tests; lint never
// calls it.
func Plan(ctx context.Context) (*ir.Policy, error) {
	srcs, err := readFS(policies.FS, ".", "policies", false, false, nil)
	if err != nil {
		return nil, fmt.Errorf("read embedded policies: %w", err)
	}
	mods, err := parse(srcs, Capabilities())
	if err != nil {
		return nil, err
	}
	p, err := planModules(ctx, moduleMap(mods), query)
	if err != nil {
		return nil, err
	}
	if _, err := newPlan(p); err != nil {
		return nil, fmt.Errorf("the planned query cannot run on planEval: %w", err)
	}
	return p, nil
}

// planModules compiles mods with every check and plans q over them.
func planModules(ctx context.Context, mods map[string]*ast.Module, q string) (*ir.Policy, error) {
	c := ast.NewCompiler().WithCapabilities(Capabilities()).WithDefaultRegoVersion(ast.RegoV1)
	if c.Compile(mods); c.Failed() {
		return nil, compileError(c.Errors)
	}
	pc := capture()
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.policy = nil
	_, err := rego.New(
		rego.Compiler(c),
		rego.Query(q),
		rego.StrictBuiltinErrors(true),
		rego.Target(planTarget),
	).PrepareForEval(ctx)
	if err != nil {
		return nil, fmt.Errorf("plan policy query: %w", err)
	}
	if pc.policy == nil {
		return nil, errors.New("plan policy query: OPA planned nothing")
	}
	p := pc.policy
	pc.policy = nil
	return p, nil
}
