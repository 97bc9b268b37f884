package engine

import "context"

// NewTopdown is New with every rule on OPA's topdown, the embedded ones
// too, compiled as ckptlint compiled them before they ran from the plan:
// the reference of the differential tests (differential_test.go).
func NewTopdown(ctx context.Context, opts Options) (*Engine, error) {
	opts.topdown = true
	return New(ctx, opts)
}

// RunsPlan reports whether e runs the embedded rules from the plan.
func (e *Engine) RunsPlan() bool { return e.plan != nil }

// DropRule forgets the rule of package family.rule, as a stale
// internal/rule/rego_gen.go would (TestPlanRuleNotInTable).
func (e *Engine) DropRule(pkg string) { delete(e.byPkg, pkg) }
