package engine_test

// The differential tests hold the embedded rules' plan (plan.go) to OPA's
// topdown on the same policies, compiled as ckptlint compiled them before
// the plan (engine.NewTopdown): on the input document of every config set
// of the fixtures under testdata/, of ../shared/corpus when it is there, of
// generated config sets (internal/benchrepo), of mutations of those and of
// what FuzzPlanTopdown makes of them, both give the same findings in the
// same order, or both fail. An OPA upgrade that plans the query
// differently regenerates internal/engine/irplan (internal/plangen's
// TestPlanUpToDate) and must pass them.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/ckptlint/ckptlint/internal/benchrepo"
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/template"
	"github.com/ckptlint/ckptlint/lint"
)

var (
	enginesOnce     sync.Once
	planEng, refEng *engine.Engine
	enginesErr      error
)

// engines returns the engine lint builds (the plan) and the reference
// (topdown), once per test binary.
func engines(t testing.TB) (plan, ref *engine.Engine) {
	t.Helper()
	enginesOnce.Do(func() {
		if planEng, enginesErr = engine.New(context.Background(), engine.Options{}); enginesErr != nil {
			return
		}
		refEng, enginesErr = engine.NewTopdown(context.Background(), engine.Options{})
	})
	if enginesErr != nil {
		t.Fatal(enginesErr)
	}
	if !planEng.RunsPlan() || refEng.RunsPlan() {
		t.Fatal("want the engine on the plan and the reference on topdown")
	}
	return planEng, refEng
}

// view is what a finding says, for comparison.
type view struct {
	Rule             string
	Message          string
	Severity         finding.Severity
	Loc              map[string]any
	Fix              []finding.Op
	VersionDependent bool
}

func views(raws []engine.Raw) []view {
	out := make([]view, len(raws))
	for i, r := range raws {
		out[i] = view{r.Rule.ID, r.Message, r.Severity, r.Loc, r.Fix, r.VersionDependent}
	}
	return out
}

// same evaluates in with both engines and fails the test where they
// differ; it returns topdown's findings. Where both succeed, the findings
// must be the same, in the same order; where topdown fails, the plan must
// fail too. The plan may fail alone only with a built-in's error, and only
// on a document that is not one of model.Input's (crafted): planEval
// evaluates every body of a rule, where topdown skips those its rule index
// rules out and stops at the first body of a rule whose bodies all give
// the same value, so a value of a type the rules do not expect can reach a
// built-in only on the plan (plan.go).
func same(t testing.TB, label string, plan, ref *engine.Engine, in ast.Value, crafted bool) []engine.Raw {
	t.Helper()
	got, gerr := plan.Eval(context.Background(), in)
	want, werr := ref.Eval(context.Background(), in)
	switch {
	case gerr == nil && werr == nil:
		if d := cmp.Diff(views(want), views(got)); d != "" {
			t.Errorf("%s: plan findings differ from topdown's (-topdown +plan):\n%s", label, d)
		}
	case gerr != nil && werr == nil && crafted && builtinError(gerr):
	case gerr != nil && werr != nil && crafted:
	default:
		t.Errorf("%s: plan error %v, topdown error %v", label, gerr, werr)
	}
	return want
}

// builtinError reports whether err is a built-in function's error.
func builtinError(err error) bool {
	var te *topdown.Error
	return errors.As(err, &te) && (te.Code == topdown.TypeErr || te.Code == topdown.BuiltinErr)
}

// doc is an input document and where it comes from.
type doc struct {
	label string
	v     ast.Value
}

// discovered returns the input documents of the config sets under the
// working directory, linted with cfg, leaving out the sets evaluation
// leaves out (an unreadable file, a file skipped as a template).
func discovered(t testing.TB, label string, cfg *config.Config) []doc {
	t.Helper()
	sets, _, err := lint.Discover(nil, lint.Options{Config: cfg, Now: linttest.Now})
	if err != nil {
		t.Logf("%s: %v", label, err)
		return nil
	}
	var out []doc
	for _, s := range sets {
		if slices.ContainsFunc(s.Files(), func(f *parsed.File) bool { return f.Err != nil || template.Skipped(f) }) {
			continue
		}
		v, err := model.Input(s)
		if err != nil {
			t.Fatalf("%s: input of %s: %v", label, s.Name, err)
		}
		out = append(out, doc{label + ": " + s.Name, v})
	}
	return out
}

// unique drops the documents seen before.
func unique(docs []doc) []doc {
	seen := map[string]bool{}
	return slices.DeleteFunc(docs, func(d doc) bool {
		k := d.v.String()
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
}

// fixtureDocs are the input documents of every directory under testdata/,
// each discovered on its own, with its .ckptlint.hcl when it has a valid
// one.
func fixtureDocs(t *testing.T) []doc {
	t.Helper()
	root, _ := filepath.Abs("../../testdata")
	var out []doc
	linttest.FixtureDirs(t, root, func(label string, cfg *config.Config) { out = append(out, discovered(t, label, cfg)...) })
	return unique(out)
}

// TestPlanMatchesTopdownFixtures: every fixture's config sets.
func TestPlanMatchesTopdownFixtures(t *testing.T) {
	plan, ref := engines(t)
	docs := fixtureDocs(t)
	rules := map[string]bool{}
	for _, d := range docs {
		for _, r := range same(t, d.label, plan, ref, d.v, false) {
			rules[r.Rule.ID] = true
		}
	}
	// The fixtures make every embedded rule fire (testdata/rules/<ID>/bad),
	// so every rule's plan is compared with a finding.
	for _, r := range plan.Rules() {
		if !rules[r.ID] {
			t.Errorf("%s fired on no fixture: its plan is compared only where it is quiet", r.ID)
		}
	}
	if len(docs) < 100 {
		t.Errorf("%d input documents from testdata/, want at least 100", len(docs))
	}
}

// TestPlanMatchesTopdownCorpus: each file of ../shared/corpus alone under
// its real name, and each Flink file of it beside the corpus's Hadoop
// files in turn (skipped when the corpus is absent).
func TestPlanMatchesTopdownCorpus(t *testing.T) {
	dir, _ := filepath.Abs("../../../shared/corpus")
	sets, ok := linttest.CorpusSets(t, dir)
	if !ok {
		t.Skipf("corpus not found at %s (it lives in ../shared beside the repository)", dir)
	}
	plan, ref := engines(t)
	var docs []doc
	for _, c := range sets {
		tmp := t.TempDir()
		for name, src := range c.Files {
			if err := os.WriteFile(filepath.Join(tmp, name), src, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Chdir(tmp)
		docs = append(docs, discovered(t, c.Label, nil)...)
	}
	for _, d := range unique(docs) {
		same(t, d.label, plan, ref, d.v, false)
	}
}

// benchDocs are the input documents of n generated config sets.
func benchDocs(t testing.TB, n int) []doc {
	t.Helper()
	root := t.TempDir()
	if err := benchrepo.Write(root, n); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	return discovered(t, "benchrepo", linttest.LoadConfig(t, "."))
}

// TestPlanMatchesTopdownGenerated: 200 config sets of the benchmarks'
// generated monorepo.
func TestPlanMatchesTopdownGenerated(t *testing.T) {
	plan, ref := engines(t)
	for _, d := range benchDocs(t, 200) {
		same(t, d.label, plan, ref, d.v, false)
	}
}

// TestPlanConcurrent: evaluations of the plan running at once, as lint's
// workers run them, each give topdown's findings. The plan is shared: its
// functions are compiled on their first call and its evaluators reused
// (plan.go), which `go test -race` checks here.
func TestPlanConcurrent(t *testing.T) {
	plan, ref := engines(t)
	docs := benchDocs(t, 40)
	want := make([][]view, len(docs))
	for i, d := range docs {
		raws, err := ref.Eval(context.Background(), d.v)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = views(raws)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for j := range docs {
				i := (j + w*len(docs)/4) % len(docs)
				got, err := plan.Eval(context.Background(), docs[i].v)
				if err != nil {
					t.Errorf("%s: %v", docs[i].label, err)
					continue
				}
				if d := cmp.Diff(want[i], views(got)); d != "" {
					t.Errorf("%s, worker %d: plan findings differ from topdown's (-topdown +plan):\n%s", docs[i].label, w, d)
				}
			}
		})
	}
	wg.Wait()
}

// TestPlanMatchesTopdownMutated: the stories' input documents with one
// value changed at a time (a number to 0, -1 or a large one, to a string,
// null or a boolean; a string emptied; a member removed), 600 mutations
// drawn with a fixed seed, so that the rules' guards meet values no fixture
// has.
func TestPlanMatchesTopdownMutated(t *testing.T) {
	plan, ref := engines(t)
	seeds := storyDocs(t)
	rng := rand.New(rand.NewPCG(26, 2026))
	replacements := []any{json.Number("0"), json.Number("-1"), json.Number("1"), json.Number("1099511627776"), json.Number("0.5"), "", "x", "10 min", true, false, nil, deleted{}}
	for i := range 600 {
		doc := cloneJSON(seeds[rng.IntN(len(seeds))])
		var leaves [][]string
		walkLeaves(doc, nil, func(p []string) { leaves = append(leaves, slices.Clone(p)) })
		p := leaves[rng.IntN(len(leaves))]
		r := replacements[rng.IntN(len(replacements))]
		setPath(doc, p, r)
		v, err := ast.InterfaceToValue(doc)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "mutation "+strings.Join(p, ".")+" → "+describe(r)+" #"+strconv.Itoa(i), plan, ref, v, true)
	}
}

type deleted struct{}

func describe(v any) string {
	switch v.(type) {
	case deleted:
		return "(removed)"
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func cloneJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = cloneJSON(e)
		}
		return m
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = cloneJSON(e)
		}
		return a
	}
	return v
}

// walkLeaves calls fn with the path of every scalar of v (array indices as
// decimal strings).
func walkLeaves(v any, path []string, fn func([]string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			walkLeaves(e, append(path, k), fn)
		}
	case []any:
		for i, e := range v {
			walkLeaves(e, append(path, strconv.Itoa(i)), fn)
		}
	default:
		fn(path)
	}
}

func setPath(v any, path []string, r any) {
	for i, k := range path {
		last := i == len(path)-1
		switch c := v.(type) {
		case map[string]any:
			if last {
				if _, del := r.(deleted); del {
					delete(c, k)
				} else {
					c[k] = r
				}
				return
			}
			v = c[k]
		case []any:
			n, _ := strconv.Atoi(k)
			if last {
				if _, del := r.(deleted); del {
					c[n] = nil
				} else {
					c[n] = r
				}
				return
			}
			v = c[n]
		}
	}
}

// storyDocs are the input documents of testdata/stories, as JSON values.
func storyDocs(t testing.TB) []any {
	t.Helper()
	var out []any
	root, _ := filepath.Abs("../../testdata/stories")
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		// Back to the package directory at once rather than at the end of
		// the test: a fuzzing worker starts in the coordinator's working
		// directory, and t.Chdir's cleanup comes only after f.Fuzz.
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Chdir(filepath.Join(root, e.Name())); err != nil {
			t.Fatal(err)
		}
		docs := discovered(t, e.Name(), linttest.LoadConfig(t, "."))
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			v, err := ast.JSON(d.v)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		t.Fatal("no story input documents")
	}
	return out
}

var (
	fuzzOnce          sync.Once
	fuzzPlan, fuzzRef *engine.Engine
	fuzzErr           error
)

// fuzzEngines are engines whose evaluations time out after 2 s.
func fuzzEngines(t testing.TB) (plan, ref *engine.Engine) {
	fuzzOnce.Do(func() {
		opts := engine.Options{Timeout: 2 * time.Second}
		if fuzzPlan, fuzzErr = engine.New(context.Background(), opts); fuzzErr == nil {
			fuzzRef, fuzzErr = engine.NewTopdown(context.Background(), opts)
		}
	})
	if fuzzErr != nil {
		t.Fatal(fuzzErr)
	}
	return fuzzPlan, fuzzRef
}

// plainNumbers reports whether every number in v is one model.Input could
// write: at most 2^53 in magnitude, written in at most 24 characters.
// OPA's numbers have arbitrary precision, so 1e999999 makes every built-in
// that computes with it run until the evaluation's deadline, on both
// engines alike: the fuzzer would spend its time there.
func plainNumbers(v any) bool {
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		return err == nil && len(v) <= 24 && f <= 1<<53 && f >= -(1<<53)
	case map[string]any:
		for _, e := range v {
			if !plainNumbers(e) {
				return false
			}
		}
	case []any:
		for _, e := range v {
			if !plainNumbers(e) {
				return false
			}
		}
	}
	return true
}

// FuzzPlanTopdown evaluates JSON input documents with both engines. The
// seeds are the stories' input documents; .ci/fuzz mutates them.
func FuzzPlanTopdown(f *testing.F) {
	for _, v := range storyDocs(f) {
		b, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil || !plainNumbers(v) {
			return
		}
		in, err := ast.InterfaceToValue(v)
		if err != nil {
			return
		}
		plan, ref := fuzzEngines(t)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, gerr := plan.Eval(ctx, in)
		_, werr := ref.Eval(ctx, in)
		if errors.Is(gerr, context.DeadlineExceeded) || errors.Is(werr, context.DeadlineExceeded) {
			t.Skip("an evaluation ran out of time: not a difference") // a large number in a loop bound, say
		}
		same(t, "fuzzed input", plan, ref, in, true)
	})
}

// userRule is a user rule in package ckptlint.rules.<family>.<name> with
// id, that reports msg on every config set whose body holds.
func userRule(family, name, id, body string) string {
	return `# METADATA
# title: A user rule of the differential tests
# description: Reports on every config set where its body holds.
# custom:
#   id: ` + id + `
#   name: differential-user-rule
#   severity: warning
#   fixable: false
package ckptlint.rules.` + family + `.` + name + `

import data.ckptlint.lib.result

deny contains result.finding(null, "` + id + ` fired") if {
	` + body + `
}
`
}

func policyDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestUserRulesMerge: user rules on topdown beside the embedded rules on
// the plan give the findings, in the order, of every rule on topdown
// compiled together, as before the plan; the user rules' families sort
// before, among and after the embedded ones. When a user module could
// change or read what the embedded rules compute, every rule runs on
// topdown.
func TestUserRulesMerge(t *testing.T) {
	root, _ := filepath.Abs("../../testdata/stories")
	docs := benchDocs(t, 20)
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if e.IsDir() {
			t.Chdir(filepath.Join(root, e.Name()))
			docs = append(docs, discovered(t, e.Name(), linttest.LoadConfig(t, "."))...)
		}
	}
	for _, tt := range []struct {
		name  string
		files map[string]string
		plan  bool // the embedded rules still run from the plan
	}{
		{"families before, among and after", map[string]string{
			"a.rego": userRule("aaa", "first", "USR001", "true"),
			"b.rego": userRule("blocksize", "zz_mine", "USR002", "input.effective.hdfs_client.blocksize.value > 1"),
			"c.rego": userRule("zzz", "last", "USR003", "true"),
		}, true},
		{"a helper under ckptlint.user", map[string]string{
			"h.rego": "package ckptlint.user.h\n\nbig(v) if v > 1\n",
			"r.rego": strings.Replace(userRule("acme", "big", "USR004", "h.big(input.effective.hdfs_client.blocksize.value)"), "import data.ckptlint.lib.result", "import data.ckptlint.lib.result\nimport data.ckptlint.user.h", 1),
		}, true},
		{"a module in a lib package", map[string]string{
			"l.rego": "package ckptlint.lib.blocksize\n\nextra_helper := 1\n",
			"r.rego": userRule("acme", "r", "USR005", "true"),
		}, false},
		{"a rule reading an embedded rule's findings", map[string]string{
			"r.rego": userRule("acme", "echo", "USR006", "count(data.ckptlint.rules.blocksize.scheduled_space.deny) > 0"),
		}, false},
		{"a rule reading every embedded rule", map[string]string{
			"r.rego": userRule("acme", "all", "USR007", "some fam\n\tcount(data.ckptlint.rules[fam].scheduled_space.deny) > 0"),
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := engine.Options{PolicyDirs: []string{policyDir(t, tt.files)}}
			plan, err := engine.New(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := engine.NewTopdown(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if plan.RunsPlan() != tt.plan {
				t.Fatalf("embedded rules from the plan: %v, want %v", plan.RunsPlan(), tt.plan)
			}
			fired := map[string]bool{}
			for _, d := range docs {
				for _, r := range same(t, d.label, plan, ref, d.v, false) {
					if r.Rule.User {
						fired[r.Rule.ID] = true
					}
				}
			}
			for _, r := range plan.Rules() {
				if r.User && !fired[r.ID] {
					t.Errorf("%s never fired: the merge is not tested", r.ID)
				}
			}
		})
	}
}

// TestPlanRuleNotInTable: a finding of the plan for a rule package
// internal/rule's table does not list (go generate not run after a rule was
// added) is an error, not dropped.
func TestPlanRuleNotInTable(t *testing.T) {
	e, err := engine.New(context.Background(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.DropRule("blocksize.scheduled_space")
	t.Chdir("../../testdata/stories/a-blocksize")
	for _, d := range discovered(t, "a-blocksize", linttest.LoadConfig(t, ".")) {
		if _, err := e.Eval(context.Background(), d.v); err == nil || !strings.Contains(err.Error(), "go generate ./policies") {
			t.Errorf("%s: err = %v, want a request to run go generate", d.label, err)
		}
	}
}

// BenchmarkEvalPlan and BenchmarkEvalTopdown evaluate the input documents
// of 100 generated config sets with the plan and with topdown
// (docs/performance.md):
//
//	go test ./internal/engine -run XXX -bench Eval -benchmem
func BenchmarkEvalPlan(b *testing.B)    { benchEval(b, true) }
func BenchmarkEvalTopdown(b *testing.B) { benchEval(b, false) }

func benchEval(b *testing.B, plan bool) {
	p, ref := engines(b)
	e := ref
	if plan {
		e = p
	}
	docs := benchDocs(b, 100)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			if _, err := e.Eval(context.Background(), d.v); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(docs)), "µs/set")
}
