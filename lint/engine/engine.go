package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/rule"
	"github.com/ckptlint/ckptlint/policies"
)

// query returns every finding of every rule with the rule's package path.
const query = "f := data.ckptlint.rules[family][rule].deny[_]"

// Options configure an Engine. The zero value loads only the embedded bundle.
type Options struct {
	// PolicyDirs are user policy directories loaded under the same contract.
	PolicyDirs []string
	// Timeout bounds one evaluation (default 10 s).
	Timeout time.Duration
	// Bundle replaces the embedded policies (tests); nil means policies.FS.
	Bundle fs.FS
}

// Engine holds the compiled policies and the prepared query. It is safe for
// concurrent use.
type Engine struct {
	rules   []*Rule
	byPkg   map[string]*Rule // "family.rule" → rule
	pq      rego.PreparedEvalQuery
	timeout time.Duration
	modules []*ast.Module
	trusted bool // the embedded bundle alone: compiled without check-only stages
}

// New loads, checks and compiles the policies and prepares the query.
func New(ctx context.Context, opts Options) (*Engine, error) {
	srcs, err := readSources(opts)
	if err != nil {
		return nil, err
	}
	e, err := load(srcs, opts)
	if err != nil {
		return nil, err
	}
	if err := e.compile(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// Metadata parses the policies with their METADATA blocks and checks every
// rule module, embedded ones included, against the policy contract; it
// compiles nothing. New and NewLazy take the embedded rules' metadata from
// lint/rule's generated table instead (parsing the METADATA blocks is half
// of the parse time); `go generate ./policies` writes that table from
// Metadata, and internal/ruledocs' tests fail when it is stale.
func Metadata(opts Options) ([]*Rule, error) {
	srcs, err := readSources(opts)
	if err != nil {
		return nil, err
	}
	for i := range srcs {
		srcs[i].embedded = false
	}
	e, err := load(srcs, opts)
	if err != nil {
		return nil, err
	}
	return e.rules, nil
}

// readSources reads the embedded bundle (or opts.Bundle) and the user
// policy directories, test files left out.
func readSources(opts Options) ([]source, error) {
	bundle := opts.Bundle
	if bundle == nil {
		bundle = policies.FS
	}
	srcs, err := readFS(bundle, ".", "policies", false, false, nil)
	if err != nil {
		return nil, fmt.Errorf("read embedded policies: %w", err)
	}
	if opts.Bundle == nil {
		for i := range srcs {
			srcs[i].embedded = true
		}
	}
	for _, d := range opts.PolicyDirs {
		us, err := readDir(d, false)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, us...)
	}
	return srcs, nil
}

// load parses the sources and checks them against the policy contract:
// the rules' metadata, nothing compiled yet.
func load(srcs []source, opts Options) (*Engine, error) {
	caps := Capabilities()
	mods, err := parse(srcs, caps)
	if err != nil {
		return nil, err
	}
	e := &Engine{byPkg: map[string]*Rule{}, timeout: opts.Timeout, modules: mods}
	// The embedded bundle alone skips the compiler's check-only stages: its
	// own tests compile it with every check (TestEmbeddedBundleFullChecks,
	// policies.TestRego). User policies always get every check.
	e.trusted = opts.Bundle == nil && len(opts.PolicyDirs) == 0
	if e.timeout <= 0 {
		e.timeout = 10 * time.Second
	}
	seen := map[string]*Rule{}
	var table map[string]*Rule // lint/rule's generated table by package, for embedded modules
	for i, m := range mods {
		if !strings.HasPrefix(m.Package.Path.String(), "data.ckptlint.rules.") {
			if srcs[i].user && !strings.HasPrefix(m.Package.Path.String(), "data.ckptlint.lib.") && !strings.HasPrefix(m.Package.Path.String(), "data.ckptlint.user.") {
				return nil, &ContractError{File: srcs[i].name, Line: m.Package.Location.Row,
					Msg: fmt.Sprintf("user policy package %s must be ckptlint.rules.<family>.<rule> (or a helper under ckptlint.user.*)", strings.TrimPrefix(m.Package.Path.String(), "data."))}
			}
			continue
		}
		var r *Rule
		if srcs[i].embedded {
			if table == nil {
				table = map[string]*Rule{}
				for _, r := range rule.Rego() {
					table[r.Package] = r
				}
			}
			if r = table[m.Package.Path.String()]; r == nil {
				return nil, &ContractError{File: srcs[i].name, Line: m.Package.Location.Row,
					Msg: fmt.Sprintf("rule package %s is not in lint/rule/rego_gen.go: run `go generate ./policies`", strings.TrimPrefix(m.Package.Path.String(), "data."))}
			}
		} else {
			var err error
			if r, err = ruleFromModule(m); err != nil {
				return nil, err
			}
		}
		r.User = srcs[i].user
		if prev, ok := seen[r.ID]; ok {
			return nil, &ContractError{File: r.File, Line: r.Line, Msg: fmt.Sprintf("rule id %s is already used by %s:%d", r.ID, prev.File, prev.Line)}
		}
		seen[r.ID] = r
		e.rules = append(e.rules, r)
		e.byPkg[strings.TrimPrefix(r.Package, "data.ckptlint.rules.")] = r
	}
	slices.SortFunc(e.rules, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return e, nil
}

// compile compiles the loaded modules and prepares the query.
func (e *Engine) compile(ctx context.Context) error {
	pq, err := compile(ctx, e.modules, Capabilities(), e.trusted)
	if err != nil {
		return err
	}
	e.pq = pq
	return nil
}

// checkOnlyStages are the compiler stages that only report errors and leave
// the compiled policies unchanged (OPA v1 ast/compile.go: each returns
// errors and rewrites nothing; CheckSafetyRuleBodies is not among them, it
// reorders body expressions). CheckTypes is most of the compile time.
var checkOnlyStages = []ast.StageID{
	ast.StageCheckUnusedImports,
	ast.StageCheckKeywordOverrides,
	ast.StageCheckDuplicateImports,
	ast.StageCheckVoidCalls,
	ast.StageCheckRuleConflicts,
	ast.StageCheckUndefinedFuncs,
	ast.StageCheckSafetyRuleHeads,
	ast.StageCheckRecursion,
	ast.StageCheckTypes,
	ast.StageCheckUnsafeBuiltins,
	ast.StageCheckDeprecatedBuiltins,
	ast.StageBuildRequiredCapabilities,
}

// noopStages are the compiler stages that rewrite a construct the embedded
// bundle does not use, so for it they only walk every module (OPA v1
// ast/compile.go): template strings ($"..."), print calls (erased when print
// is disabled), rego.metadata.chain/rule calls and the METADATA blocks they
// would read, `with` modifiers, and the test-rule rewrite for tracing.
// TestNoopStagesChangeNothing compiles the bundle with and without them and
// fails, naming the construct, once the bundle starts to use one.
var noopStages = []ast.StageID{
	ast.StageRewriteTemplateStrings,
	ast.StageRewritePrintCalls,
	ast.StageParseMetadataBlocks,
	ast.StageRewriteRegoMetadataCalls,
	ast.StageRewriteWithValues,
	ast.StageRewriteTestRulesForTracing,
}

// gcMu serialises compilations that switch the garbage collector off, so
// two concurrent New calls cannot restore each other's setting.
var gcMu sync.Mutex

// compile compiles the modules and prepares the query. Compilation allocates
// about 30 MB of short-lived objects that all stay reachable until it ends,
// so collecting during it only costs time: the collector is off meanwhile.
// trusted (the embedded bundle alone) drops the check-only stages and the
// stages that do nothing for it (noopStages).
func compile(ctx context.Context, mods []*ast.Module, caps *ast.Capabilities, trusted bool) (rego.PreparedEvalQuery, error) {
	gcMu.Lock()
	defer gcMu.Unlock()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	c := ast.NewCompiler().WithCapabilities(caps).WithDefaultRegoVersion(ast.RegoV1)
	if trusted {
		c = c.WithSkipStages(append(slices.Clip(checkOnlyStages), noopStages...)...)
	}
	c.Compile(moduleMap(mods))
	if c.Failed() {
		return rego.PreparedEvalQuery{}, compileError(c.Errors)
	}
	pq, err := rego.New(
		rego.Compiler(c),
		rego.Query(query),
		rego.StrictBuiltinErrors(true),
	).PrepareForEval(ctx)
	if err != nil {
		return rego.PreparedEvalQuery{}, fmt.Errorf("prepare policy query: %w", err)
	}
	return pq, nil
}

func moduleMap(mods []*ast.Module) map[string]*ast.Module {
	m := make(map[string]*ast.Module, len(mods))
	for _, mod := range mods {
		m[mod.Package.Location.File] = mod
	}
	return m
}

// compileError renders OPA compile errors as file:line: message lines.
func compileError(errs ast.Errors) error {
	var lines []string
	for _, e := range errs {
		if e.Location != nil {
			lines = append(lines, fmt.Sprintf("%s:%d: %s", e.Location.File, e.Location.Row, e.Message))
		} else {
			lines = append(lines, e.Message)
		}
	}
	return fmt.Errorf("compile policies:\n  %s", strings.Join(lines, "\n  "))
}

// Rules returns the metadata of every loaded rule, ordered by id.
func (e *Engine) Rules() []*Rule { return e.rules }

// Rule returns the rule with the given id, or nil.
func (e *Engine) Rule(id string) *Rule {
	for _, r := range e.rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Modules returns the parsed non-test modules (for `policy test`).
func (e *Engine) Modules() []*ast.Module { return e.modules }

// Raw is one finding as a rule emitted it, before locations are resolved.
type Raw struct {
	Rule     *Rule
	Message  string
	Severity finding.Severity // 0: the rule's default
	Loc      map[string]any   // the `loc` object of the input value the rule pointed at, or nil
	Fix      []finding.Op
	// VersionDependent: the rule marked the finding with result.versioned.
	VersionDependent bool
}

// ToValue converts an input document once, for reuse across evaluations.
func ToValue(input map[string]any) (ast.Value, error) {
	return ast.InterfaceToValue(input)
}

// Eval evaluates all rules against one converted input document.
func (e *Engine) Eval(ctx context.Context, input ast.Value) ([]Raw, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	rs, err := e.pq.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("policy evaluation exceeded %s: %w", e.timeout, err)
		}
		return nil, fmt.Errorf("evaluate policies: %w", err)
	}
	out := make([]Raw, 0, len(rs))
	for _, r := range rs {
		family, _ := r.Bindings["family"].(string)
		name, _ := r.Bindings["rule"].(string)
		rule := e.byPkg[family+"."+name]
		if rule == nil {
			continue // a helper package under ckptlint.rules without metadata cannot reach here: New refuses it
		}
		raw, err := decode(rule, r.Bindings["f"])
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, nil
}

// decode turns a finding object built by ckptlint.lib.result into a Raw.
func decode(rule *Rule, v any) (Raw, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return Raw{}, fmt.Errorf("%s:%d: rule %s: deny element must be an object built with data.ckptlint.lib.result, got %T", rule.File, rule.Line, rule.ID, v)
	}
	raw := Raw{Rule: rule}
	raw.Message, _ = obj["message"].(string)
	if raw.Message == "" {
		return Raw{}, fmt.Errorf("%s:%d: rule %s: finding has no message", rule.File, rule.Line, rule.ID)
	}
	if s, ok := obj["severity"].(string); ok {
		sev, err := finding.ParseSeverity(s)
		if err != nil {
			return Raw{}, fmt.Errorf("%s:%d: rule %s: %w", rule.File, rule.Line, rule.ID, err)
		}
		raw.Severity = sev
	}
	raw.Loc, _ = obj["loc"].(map[string]any)
	raw.VersionDependent, _ = obj["version_dependent"].(bool)
	if fx, ok := obj["fix"].([]any); ok {
		for _, o := range fx {
			om, _ := o.(map[string]any)
			op := finding.Op{}
			op.Op, _ = om["op"].(string)
			op.Target, _ = om["target"].(string)
			op.Key, _ = om["key"].(string)
			op.Value = stringify(om["value"])
			op.NewKey, _ = om["new_key"].(string)
			op.NeedsVersion, _ = om["needs_version"].(bool)
			if op.Op == "" || op.Target == "" || op.Key == "" {
				return Raw{}, fmt.Errorf("%s:%d: rule %s: fix operation needs op, target and key: %v", rule.File, rule.Line, rule.ID, om)
			}
			raw.Fix = append(raw.Fix, op)
		}
	}
	return raw, nil
}

func stringify(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	default:
		return fmt.Sprint(x)
	}
}
