package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/ckptlint/ckptlint/policies"
)

// DefaultTestTimeout bounds one Rego unit test when TestOptions.Timeout is
// zero. It equals the deadline lint gives one config set, so a rule whose
// own test cannot finish in time would not finish in lint either.
const DefaultTestTimeout = 10 * time.Second

// TestOptions configure RunTests.
type TestOptions struct {
	// PolicyDirs are the user policy directories whose _test.rego files run.
	PolicyDirs []string
	// Run, when not empty, is a regular expression a test's full name
	// (data.<package>.<test>) must match for the test to run.
	Run string
	// Timeout bounds each test (default DefaultTestTimeout).
	Timeout time.Duration
	// Bundle replaces the embedded policies (tests); nil means policies.FS.
	Bundle fs.FS
}

// Outcome is how one Rego test ended.
type Outcome int

// The outcomes, in the order a summary lists them.
const (
	Pass Outcome = iota
	Fail
	Error
	Skip // a rule named todo_*: reported, never run
)

// String returns PASS, FAIL, ERROR or SKIP.
func (o Outcome) String() string {
	return [...]string{"PASS", "FAIL", "ERROR", "SKIP"}[o]
}

// TestResult is the outcome of one Rego test rule.
type TestResult struct {
	Name     string // data.<package>.<test>
	File     string // the _test.rego file, as the policy directory was named
	Line     int
	Outcome  Outcome
	FailedAt string // Fail: the expression that was false, "file:line: expr", when the trace shows it
	Message  string // Error: what went wrong; Fail: the failing cases of a parameterised test, or that the body was undefined
	Output   []byte // what print() wrote during the test
	Duration time.Duration
}

// RunTests runs the Rego unit tests of the user policy directories with OPA's
// tester, under the restrictions lint applies: the same capabilities (no
// http.send, net lookups or opa.runtime; no remote schema references), the
// embedded lib/ helpers and rules compiled alongside, builtin errors raised
// rather than leaving a rule undefined, and a deadline per test. The
// directories must first pass New's policy contract.
//
// The returned error is a broken policy (contract, parse or compile error,
// each with file:line) or bad options; failing tests are results, not errors.
// Results are ordered by file, line and name. Embedded tests never run.
func RunTests(ctx context.Context, opts TestOptions) ([]TestResult, error) {
	if len(opts.PolicyDirs) == 0 {
		return nil, errors.New("no policy directory to test")
	}
	if opts.Run != "" {
		if _, err := regexp.Compile(opts.Run); err != nil {
			return nil, fmt.Errorf("test filter %q: %w", opts.Run, err)
		}
	}
	opts.PolicyDirs = dedupe(opts.PolicyDirs)
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTestTimeout
	}
	// The same check lint makes: policies lint would refuse are not tested.
	if _, err := New(ctx, Options{PolicyDirs: opts.PolicyDirs, Bundle: opts.Bundle}); err != nil {
		return nil, err
	}
	srcs, userFiles, err := testSources(opts)
	if err != nil {
		return nil, err
	}
	caps := Capabilities()
	mods, err := parse(srcs, caps)
	if err != nil {
		return nil, err
	}
	// A fresh compiler: the runner adds its own stages to it. Capabilities
	// set here are what the runner's queries see (rego.Compiler overrides
	// rego.Capabilities), so a test cannot call http.send either.
	c := ast.NewCompiler().WithCapabilities(caps).WithDefaultRegoVersion(ast.RegoV1).WithEnablePrintStatements(true)
	ch, err := tester.NewRunner().
		SetCompiler(c).
		SetModules(moduleMap(mods)).
		SetTimeout(timeout).
		Filter(opts.Run).
		CapturePrintOutput(true).
		RaiseBuiltinErrors(true).
		EnableTracing(true). // to name the expression a failing test stopped at
		RunTests(ctx, nil)
	if err != nil {
		var errs ast.Errors
		if errors.As(err, &errs) {
			return nil, compileError(errs)
		}
		return nil, fmt.Errorf("run policy tests: %w", err)
	}
	var out []TestResult
	for r := range ch {
		if r.Location == nil || !userFiles[r.Location.File] {
			continue
		}
		out = append(out, result(r, timeout))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b TestResult) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Name, b.Name))
	})
	return out, nil
}

// testSources are the embedded non-test modules (lib/ helpers and rules,
// as lint compiles them) and every .rego file of the user directories, tests
// included; userFiles names the latter, whose tests are the ones to report.
func testSources(opts TestOptions) ([]source, map[string]bool, error) {
	bundle := opts.Bundle
	if bundle == nil {
		bundle = policies.FS
	}
	srcs, err := readFS(bundle, ".", "policies", false, false, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("read embedded policies: %w", err)
	}
	userFiles := map[string]bool{}
	for _, d := range opts.PolicyDirs {
		us, err := readDir(d, true)
		if err != nil {
			return nil, nil, err
		}
		for _, s := range us {
			userFiles[s.name] = true
		}
		srcs = append(srcs, us...)
	}
	return srcs, userFiles, nil
}

// dedupe drops directories named twice (as "p" and "./p", say), which would
// otherwise define every rule twice.
func dedupe(dirs []string) []string {
	seen := map[string]bool{}
	return slices.DeleteFunc(slices.Clone(dirs), func(d string) bool {
		c := filepath.Clean(d)
		if seen[c] {
			return true
		}
		seen[c] = true
		return false
	})
}

// result converts one tester result.
func result(r *tester.Result, timeout time.Duration) TestResult {
	tr := TestResult{
		Name:     r.Package + "." + r.Name,
		File:     r.Location.File,
		Line:     r.Location.Row,
		Output:   r.Output,
		Duration: r.Duration,
	}
	switch {
	case r.Skip:
		tr.Outcome = Skip
	case r.Error != nil:
		tr.Outcome = Error
		tr.Message = r.Error.Error()
		if topdown.IsCancel(r.Error) {
			tr.Message = fmt.Sprintf("timed out: the test ran longer than its %s deadline", timeout)
		}
	case r.Fail:
		tr.Outcome = Fail
		tr.FailedAt, tr.Message = failedAt(r)
	}
	return tr
}

// failedAt names the last expression of the test's own body that evaluated
// to false, as `opa test --var-values` does, and the failing cases of a
// parameterised test (test_x[name] if {...}); with neither, msg says the body
// was undefined.
func failedAt(r *tester.Result) (at, msg string) {
	for _, e := range slices.Backward(r.Trace) {
		if e.Op != topdown.FailOp || e.Location == nil || e.QueryID == 0 {
			continue
		}
		if expr, ok := e.Node.(*ast.Expr); ok {
			if _, every := expr.Terms.(*ast.Every); every {
				continue // the failing expression inside the every body comes first
			}
		}
		text := strings.TrimSpace(string(e.Location.Text))
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = strings.TrimSpace(text[:i]) + " ..."
		}
		at = fmt.Sprintf("%s:%d: %s", e.Location.File, e.Location.Row, text)
		break
	}
	var failed []string
	for name, sr := range r.SubResults.Iter {
		if sr.Fail && len(sr.SubResults) == 0 {
			failed = append(failed, strings.Join(name, "/"))
		}
	}
	if len(failed) > 0 {
		slices.Sort(failed)
		msg = "failing cases: " + strings.Join(failed, ", ")
	} else if at == "" {
		msg = "the test body was undefined"
	}
	return at, msg
}
