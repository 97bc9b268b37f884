package engine

import (
	"cmp"
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

	"github.com/ckptlint/ckptlint/internal/engine/irplan"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
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

	// topdown runs the embedded rules on OPA's topdown too, as ckptlint did
	// before they ran from the plan: the reference of the differential
	// tests (export_test.go).
	topdown bool
}

// Engine holds the compiled policies and the prepared query. It is safe for
// concurrent use.
//
// The embedded rules run from the plan generated at build time (plan.go,
// internal/engine/irplan): nothing of them is parsed or compiled at run time.
// User policies (Options.PolicyDirs) run on OPA's topdown, compiled with
// every check together with the embedded lib/ modules they may import, and
// their findings are merged with the embedded rules' in the order one query
// over all of them gives (Eval). When a user module could change or read
// what the embedded rules compute (a module in a ckptlint.lib.* package or
// in an embedded rule's package, or a reference into an embedded rule's
// document), every rule runs on topdown, compiled together, as before the
// plan; so does a replaced bundle (Options.Bundle).
type Engine struct {
	rules   []*Rule
	byPkg   map[string]*Rule // "family.rule" → rule
	mode    mode
	plan    *plan                   // the embedded rules; nil when they run on topdown
	pq      *rego.PreparedEvalQuery // the rules on topdown; nil when there are none
	timeout time.Duration
	srcs    []source
	modules []*ast.Module // what topdown compiles: user modules and the modules beside them
	trusted bool          // the embedded bundle alone: compiled without check-only stages
}

// mode is where an engine's rules run.
type mode int

const (
	planOnly   mode = iota // the embedded rules alone, from the plan
	planUser               // the embedded rules from the plan; user rules on topdown with lib/
	topdownAll             // every rule on topdown (a replaced bundle, Metadata, the fallback)
)

func modeOf(opts Options) mode {
	switch {
	case opts.Bundle != nil || opts.topdown:
		return topdownAll
	case len(opts.PolicyDirs) == 0:
		return planOnly
	}
	return planUser
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
// internal/rule's generated table instead (parsing the METADATA blocks is half
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
	opts.topdown = true
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
// the rules' metadata, nothing compiled yet. The embedded rules' metadata
// comes from internal/rule's generated table; what is parsed depends on where
// the rules run (mode): nothing for the embedded rules alone, the user
// modules and lib/ beside the plan, everything on topdown.
func load(srcs []source, opts Options) (*Engine, error) {
	e := &Engine{byPkg: map[string]*Rule{}, timeout: opts.Timeout, srcs: srcs, mode: modeOf(opts)}
	// The embedded bundle alone skips the compiler's check-only stages: its
	// own tests compile it with every check (TestEmbeddedBundleFullChecks,
	// policies.TestRego). User policies always get every check.
	e.trusted = opts.Bundle == nil && len(opts.PolicyDirs) == 0
	if e.timeout <= 0 {
		e.timeout = 10 * time.Second
	}
	if e.mode != topdownAll {
		for _, r := range rule.Rego() {
			if err := e.add(r); err != nil {
				return nil, err
			}
		}
	}
	if e.mode == planOnly {
		slices.SortFunc(e.rules, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
		return e, nil
	}
	srcs = slices.DeleteFunc(slices.Clone(srcs), func(s source) bool {
		return e.mode == planUser && s.embedded && !strings.HasPrefix(s.name, "policies/lib/")
	})
	caps := Capabilities()
	mods, err := parse(srcs, caps)
	if err != nil {
		return nil, err
	}
	e.modules = mods
	var table map[string]*Rule // internal/rule's generated table by package, for embedded modules
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
					Msg: fmt.Sprintf("rule package %s is not in internal/rule/rego_gen.go: run `go generate ./policies`", strings.TrimPrefix(m.Package.Path.String(), "data."))}
			}
		} else {
			var err error
			if r, err = ruleFromModule(m); err != nil {
				return nil, err
			}
		}
		r.User = srcs[i].user
		if err := e.add(r); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(e.rules, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	if e.mode == planUser {
		for i, m := range mods {
			if srcs[i].user && userShadows(m.Package.Path) {
				return load(e.srcs, withTopdown(opts))
			}
		}
	}
	return e, nil
}

// add registers a rule, refusing an id already used.
func (e *Engine) add(r *Rule) error {
	for _, prev := range e.rules {
		if prev.ID == r.ID {
			return &ContractError{File: r.File, Line: r.Line, Msg: fmt.Sprintf("rule id %s is already used by %s:%d", r.ID, prev.File, prev.Line)}
		}
	}
	e.rules = append(e.rules, r)
	e.byPkg[strings.TrimPrefix(r.Package, "data.ckptlint.rules.")] = r
	return nil
}

func withTopdown(opts Options) Options {
	opts.topdown = true
	return opts
}

// userShadows reports whether a user module in package pkg could change
// what the embedded rules compute: a module in a ckptlint.lib.* package
// (the embedded rules' helpers) or in an embedded rule's package.
func userShadows(pkg ast.Ref) bool {
	return strings.HasPrefix(pkg.String(), "data.ckptlint.lib.") || readsEmbeddedRule(pkg)
}

// readsEmbeddedRule reports whether ref may name an embedded rule's
// document or a document that holds one: data, then terms each either the
// package path's next element or not a constant (a variable can be any).
func readsEmbeddedRule(ref ast.Ref) bool {
	if len(ref) == 0 || !ref[0].Equal(ast.DefaultRootDocument) {
		return false
	}
	for _, p := range embeddedPaths() {
		match := true
		for i := 1; i < len(ref) && i-1 < len(p) && match; i++ {
			switch v := ref[i].Value.(type) {
			case ast.String:
				match = string(v) == p[i-1]
			case ast.Var, ast.Ref, ast.Call:
			default:
				match = false
			}
		}
		if match {
			return true
		}
	}
	return false
}

// embeddedPaths are the embedded rules' package paths below data,
// ["ckptlint", "rules", family, rule].
var embeddedPaths = sync.OnceValue(func() [][]string {
	var out [][]string
	for _, r := range rule.Rego() {
		out = append(out, strings.Split(strings.TrimPrefix(r.Package, "data."), "."))
	}
	return out
})

// embeddedPlan is the plan of internal/engine/irplan, prepared once per process.
var embeddedPlan = sync.OnceValues(func() (*plan, error) { return preparePlan(irplan.Embedded) })

// compile prepares what evaluates the rules: the plan for the embedded
// ones, the compiled modules and the prepared query for those on topdown
// (mode).
func (e *Engine) compile(ctx context.Context) error {
	if e.mode != topdownAll {
		p, err := embeddedPlan()
		if err != nil {
			return fmt.Errorf("the embedded rules' plan (internal/engine/irplan; run `go generate ./policies`): %w", err)
		}
		e.plan = p
	}
	if e.mode == planOnly {
		return nil
	}
	pq, c, err := compile(ctx, e.modules, Capabilities(), e.trusted && e.mode == topdownAll)
	if err != nil {
		return err
	}
	if e.mode == planUser && userReadsEmbedded(c, e.srcs) {
		// A user rule reads an embedded rule's document: every rule on
		// topdown, compiled together (the rules are the same).
		f, err := load(e.srcs, Options{Timeout: e.timeout, topdown: true})
		if err != nil {
			return err
		}
		if pq, _, err = compile(ctx, f.modules, Capabilities(), false); err != nil {
			return err
		}
		e.mode, e.plan, e.modules = topdownAll, nil, f.modules
	}
	e.pq = &pq
	return nil
}

// userReadsEmbedded reports whether a compiled user module refers to an
// embedded rule's document (readsEmbeddedRule).
func userReadsEmbedded(c *ast.Compiler, srcs []source) bool {
	for _, s := range srcs {
		m := c.Modules[s.name]
		if !s.user || m == nil {
			continue
		}
		found := false
		ast.WalkRefs(m, func(r ast.Ref) bool {
			found = found || readsEmbeddedRule(r)
			return found
		})
		if found {
			return true
		}
	}
	return false
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
func compile(ctx context.Context, mods []*ast.Module, caps *ast.Capabilities, trusted bool) (rego.PreparedEvalQuery, *ast.Compiler, error) {
	gcMu.Lock()
	defer gcMu.Unlock()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	c := ast.NewCompiler().WithCapabilities(caps).WithDefaultRegoVersion(ast.RegoV1)
	if trusted {
		c = c.WithSkipStages(append(slices.Clip(checkOnlyStages), noopStages...)...)
	}
	c.Compile(moduleMap(mods))
	if c.Failed() {
		return rego.PreparedEvalQuery{}, nil, compileError(c.Errors)
	}
	pq, err := rego.New(
		rego.Compiler(c),
		rego.Query(query),
		rego.StrictBuiltinErrors(true),
	).PrepareForEval(ctx)
	if err != nil {
		return rego.PreparedEvalQuery{}, nil, fmt.Errorf("prepare policy query: %w", err)
	}
	return pq, c, nil
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

// Modules returns the parsed non-test modules topdown compiles: none for
// the embedded rules alone, which run from the plan.
func (e *Engine) Modules() []*ast.Module { return e.modules }

// Raw is one finding as a rule emitted it, before locations are resolved.
type Raw struct {
	Rule    *Rule
	Message string // the headline
	// Detail is the evidence behind the headline (result.msg), "" when the
	// rule gave one string.
	Detail   string
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

// Eval evaluates all rules against one converted input document. The
// findings come rule by rule in the order of their packages (family, then
// rule), each rule's in the order of OPA's sets: the order of one query
// over every rule, the embedded ones from the plan and the user ones on
// topdown merged into it.
func (e *Engine) Eval(ctx context.Context, input ast.Value) ([]Raw, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	var planned, user []Raw
	var err error
	if e.plan != nil {
		if planned, err = e.evalPlan(ctx, input); err != nil {
			return nil, e.evalError(ctx, err)
		}
	}
	if e.pq != nil {
		if user, err = e.evalTopdown(ctx, input); err != nil {
			return nil, e.evalError(ctx, err)
		}
	}
	switch {
	case len(user) == 0:
		return planned, nil
	case len(planned) == 0:
		return user, nil
	}
	out := make([]Raw, 0, len(planned)+len(user))
	for len(planned) > 0 && len(user) > 0 {
		if comparePkg(user[0].Rule, planned[0].Rule) < 0 {
			out, user = append(out, user[0]), user[1:]
		} else {
			out, planned = append(out, planned[0]), planned[1:]
		}
	}
	return append(append(out, planned...), user...), nil
}

func (e *Engine) evalError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("policy evaluation exceeded %s: %w", e.timeout, err)
	}
	return fmt.Errorf("evaluate policies: %w", err)
}

// comparePkg orders rules as OPA iterates data.ckptlint.rules[family][rule]:
// by family, then by rule.
func comparePkg(a, b *Rule) int {
	fa, ra := splitPkg(a)
	fb, rb := splitPkg(b)
	return cmp.Or(strings.Compare(fa, fb), strings.Compare(ra, rb))
}

func splitPkg(r *Rule) (family, name string) {
	family, name, _ = strings.Cut(strings.TrimPrefix(r.Package, "data.ckptlint.rules."), ".")
	return family, name
}

var (
	familyKey  = ast.StringTerm("family")
	ruleKey    = ast.StringTerm("rule")
	findingKey = ast.StringTerm("f")
)

// evalPlan evaluates the embedded rules' plan.
func (e *Engine) evalPlan(ctx context.Context, input ast.Value) ([]Raw, error) {
	rs, err := e.plan.eval(ctx, input)
	if err != nil {
		return nil, err
	}
	out := make([]Raw, 0, len(rs))
	for _, r := range rs {
		obj, ok := r.Value.(ast.Object)
		if !ok {
			return nil, fmt.Errorf("plan result %v is not an object", r)
		}
		var family, name ast.String
		if t := obj.Get(familyKey); t != nil {
			family, _ = t.Value.(ast.String)
		}
		if t := obj.Get(ruleKey); t != nil {
			name, _ = t.Value.(ast.String)
		}
		rule := e.byPkg[string(family)+"."+string(name)]
		f := obj.Get(findingKey)
		if rule == nil || f == nil {
			return nil, fmt.Errorf("the plan's rule package ckptlint.rules.%s.%s is not in internal/rule/rego_gen.go: run `go generate ./policies`", family, name)
		}
		v, err := ast.JSON(f.Value)
		if err != nil {
			return nil, err
		}
		raw, err := decode(rule, v)
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, nil
}

// evalTopdown evaluates the prepared query on topdown.
func (e *Engine) evalTopdown(ctx context.Context, input ast.Value) ([]Raw, error) {
	rs, err := e.pq.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		return nil, err
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
	raw.Detail, _ = obj["detail"].(string)
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
