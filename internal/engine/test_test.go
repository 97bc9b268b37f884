package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// examples is the policy directory docs/custom-policies.md walks through.
const examples = "../../docs/examples/policies"

const goodTest = `package ckptlint.rules.user.test_rule_test

import data.ckptlint.rules.user.test_rule

test_fires if {
	some f in test_rule.deny with input as {"x": 1, "at": {"loc": {"file": "a.yaml", "line": 3}}}
	f.loc.line == 3
}

test_silent if {
	count(test_rule.deny) == 0 with input as {"x": 2}
}
`

// policyDir writes files (name → source) into a fresh directory.
func policyDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type outcome struct {
	Name    string
	Outcome string
}

func outcomes(rs []TestResult) []outcome {
	var out []outcome
	for _, r := range rs {
		out = append(out, outcome{strings.TrimPrefix(r.Name, "data."), r.Outcome.String()})
	}
	return out
}

func TestRunTestsDocumentedExample(t *testing.T) {
	rs, err := RunTests(context.Background(), TestOptions{PolicyDirs: []string{examples}})
	if err != nil {
		t.Fatal(err)
	}
	const pkg = "ckptlint.rules.acme.checkpoint_root_test."
	want := []outcome{
		{pkg + "test_team_directory_passes", "PASS"},
		{pkg + "test_team_root_itself_passes", "PASS"},
		{pkg + "test_other_team_fires", "PASS"},
		{pkg + "test_name_prefix_is_not_the_team_directory", "PASS"},
		{pkg + "test_other_namenode_fires", "PASS"},
		{pkg + "test_staging_cluster_is_silent", "PASS"},
		{pkg + "test_without_deployment_asks_for_the_team", "PASS"},
	}
	if d := cmp.Diff(want, outcomes(rs)); d != "" {
		t.Fatalf("results (-want +got):\n%s", d)
	}
	if f := rs[0].File; f != "../../docs/examples/policies/acme/checkpoint_root_test.rego" {
		t.Errorf("file = %q", f)
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].Line <= rs[i-1].Line {
			t.Errorf("results not ordered by line: %s:%d before %s:%d", rs[i-1].Name, rs[i-1].Line, rs[i].Name, rs[i].Line)
		}
	}
}

func TestRunTestsOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		test    string
		opts    TestOptions
		want    []outcome
		message string // in the first result's Message or FailedAt
		output  string // in the first result's Output
	}{
		{name: "pass", test: goodTest, want: []outcome{
			{"ckptlint.rules.user.test_rule_test.test_fires", "PASS"},
			{"ckptlint.rules.user.test_rule_test.test_silent", "PASS"}}},
		{name: "failing test names the false expression",
			test: strings.Replace(goodTest, "f.loc.line == 3", "f.loc.line == 4", 1),
			want: []outcome{
				{"ckptlint.rules.user.test_rule_test.test_fires", "FAIL"},
				{"ckptlint.rules.user.test_rule_test.test_silent", "PASS"}},
			message: "rule_test.rego:7: f.loc.line == 4"},
		{name: "print output is captured",
			test: strings.Replace(goodTest, "f.loc.line == 3", "print(\"finding\", f.message)\n\tf.loc.line == 3", 1),
			want: []outcome{
				{"ckptlint.rules.user.test_rule_test.test_fires", "PASS"},
				{"ckptlint.rules.user.test_rule_test.test_silent", "PASS"}},
			output: "finding x is one"},
		{name: "builtin errors are raised, not undefined",
			test:    goodTest + "\ntest_builtin_error if {\n\tto_number(\"abc\") == 1\n}\n",
			opts:    TestOptions{Run: "builtin"},
			want:    []outcome{{"ckptlint.rules.user.test_rule_test.test_builtin_error", "ERROR"}},
			message: `to_number: strconv.ParseFloat: parsing "abc": invalid syntax`},
		{name: "per-test timeout",
			test:    goodTest + "\ntest_slow if {\n\tsome n in numbers.range(1, 100000000)\n\tn < 0\n}\n",
			opts:    TestOptions{Run: "slow", Timeout: 200 * time.Millisecond},
			want:    []outcome{{"ckptlint.rules.user.test_rule_test.test_slow", "ERROR"}},
			message: "timed out: the test ran longer than its 200ms deadline"},
		{name: "todo tests are skipped",
			test: goodTest + "\ntodo_test_later if {\n\tfalse\n}\n",
			opts: TestOptions{Run: "later"},
			want: []outcome{{"ckptlint.rules.user.test_rule_test.todo_test_later", "SKIP"}}},
		{name: "parameterised test names its failing cases",
			test:    goodTest + "\ncases := {\"one\": 1, \"two\": 2}\n\ntest_cases[name] if {\n\tsome name, x in cases\n\tcount(test_rule.deny) == 1 with input as {\"x\": x, \"at\": null}\n}\n",
			opts:    TestOptions{Run: "cases"},
			want:    []outcome{{"ckptlint.rules.user.test_rule_test.test_cases", "FAIL"}},
			message: "failing cases: two"},
		{name: "undefined test body",
			test:    goodTest + "\ntest_undefined if {\n\tinput.nothing == 1\n}\n",
			opts:    TestOptions{Run: "undefined"},
			want:    []outcome{{"ckptlint.rules.user.test_rule_test.test_undefined", "FAIL"}},
			message: "the test body was undefined"},
		{name: "filter matching nothing", test: goodTest, opts: TestOptions{Run: "nothing_matches"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.PolicyDirs = []string{policyDir(t, map[string]string{"rule.rego": goodRule, "rule_test.rego": tt.test})}
			rs, err := RunTests(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, outcomes(rs)); d != "" {
				t.Fatalf("results (-want +got):\n%s", d)
			}
			if tt.message != "" && !strings.Contains(rs[0].Message+rs[0].FailedAt, tt.message) {
				t.Errorf("message %q / failed at %q does not contain %q", rs[0].Message, rs[0].FailedAt, tt.message)
			}
			if tt.output != "" && !strings.Contains(string(rs[0].Output), tt.output) {
				t.Errorf("output %q does not contain %q", rs[0].Output, tt.output)
			}
			for _, r := range rs {
				if !strings.HasPrefix(r.File, filepath.ToSlash(opts.PolicyDirs[0])) || r.Line == 0 {
					t.Errorf("%s at %s:%d: not in the user directory", r.Name, r.File, r.Line)
				}
			}
		})
	}
}

// TestRunTestsRefusesBrokenPolicies checks that what lint refuses is refused
// before any test runs, with the offending file and line, and that test
// files are held to the same capabilities and syntax.
func TestRunTestsRefusesBrokenPolicies(t *testing.T) {
	tests := []struct {
		name       string
		rule, test string
		want       string
	}{
		{"http.send in the rule", strings.Replace(goodRule, `input.x == 1`, `http.send({"method": "get", "url": "http://127.0.0.1:9"})`, 1), goodTest,
			"/rule.rego:14: undefined function http.send"},
		{"http.send in the test", goodRule, goodTest + "\ntest_net if {\n\thttp.send({\"method\": \"get\", \"url\": \"http://127.0.0.1:9\"})\n}\n",
			"/rule_test.rego:15: undefined function http.send"},
		{"mocking http.send", goodRule, goodTest + "\nmock(_) := {}\n\ntest_mock if {\n\tcount(test_rule.deny) == 0 with http.send as mock\n}\n",
			"/rule_test.rego:17: with keyword target must reference existing input, data, or a function"},
		{"opa.runtime in the test", goodRule, goodTest + "\ntest_env if {\n\topa.runtime().env.HOME\n}\n",
			"/rule_test.rego:15: undefined function opa.runtime"},
		{"v0 syntax in the rule", strings.Replace(goodRule, "deny contains f if {", "deny[f] {", 1), goodTest,
			"/rule.rego:13: rego_parse_error: `if` keyword is required"},
		{"v0 syntax in the test", goodRule, strings.Replace(goodTest, "test_silent if {", "test_silent {", 1),
			"/rule_test.rego:10: rego_parse_error: `if` keyword is required"},
		{"missing METADATA", goodRule[strings.Index(goodRule, "package"):], goodTest,
			"/rule.rego:1: rule package ckptlint.rules.user.test_rule has no package METADATA block"},
		{"boolean deny", strings.Replace(goodRule, "deny contains f if {", "deny if {", 1), goodTest,
			"/rule.rego:13: deny must be a partial set rule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := policyDir(t, map[string]string{"rule.rego": tt.rule, "rule_test.rego": tt.test})
			rs, err := RunTests(context.Background(), TestOptions{PolicyDirs: []string{dir}})
			if err == nil {
				t.Fatalf("policies accepted; results %v", outcomes(rs))
			}
			if !strings.Contains(err.Error(), filepath.ToSlash(dir)+tt.want) {
				t.Fatalf("error %q does not contain %q", err, filepath.ToSlash(dir)+tt.want)
			}
		})
	}
}

func TestRunTestsOptions(t *testing.T) {
	dir := policyDir(t, map[string]string{"rule.rego": goodRule, "rule_test.rego": goodTest})
	if _, err := RunTests(context.Background(), TestOptions{}); err == nil || !strings.Contains(err.Error(), "no policy directory") {
		t.Errorf("no directories: err = %v", err)
	}
	if _, err := RunTests(context.Background(), TestOptions{PolicyDirs: []string{dir}, Run: "("}); err == nil || !strings.Contains(err.Error(), `test filter "("`) {
		t.Errorf("bad filter: err = %v", err)
	}
	// The same directory named twice is loaded once, not refused as
	// duplicate rule ids.
	rs, err := RunTests(context.Background(), TestOptions{PolicyDirs: []string{dir, dir + string(filepath.Separator)}})
	if err != nil || len(rs) != 2 {
		t.Errorf("directory named twice: %d results, err = %v", len(rs), err)
	}
}

// TestCustomPoliciesDocMatchesExample keeps docs/custom-policies.md and
// docs/examples/policies in step: each block marked
// <!-- example: docs/examples/policies/... --> is that file, byte for byte,
// and every file of the example directory is shown.
func TestCustomPoliciesDocMatchesExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/custom-policies.md")
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	lines := strings.SplitAfter(string(doc), "\n")
	for i, l := range lines {
		name, ok := strings.CutPrefix(strings.TrimSpace(l), "<!-- example: ")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, " -->")
		if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != "```rego" {
			t.Errorf("custom-policies.md:%d: the example marker for %s is not followed by a ```rego block", i+1, name)
			continue
		}
		var block strings.Builder
		for _, b := range lines[i+2:] {
			if strings.TrimSpace(b) == "```" {
				break
			}
			block.WriteString(b)
		}
		want, err := os.ReadFile(filepath.Join("../..", filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("custom-policies.md:%d: %v", i+1, err)
			continue
		}
		if d := cmp.Diff(string(want), block.String()); d != "" {
			t.Errorf("custom-policies.md:%d: the block differs from %s (-file +doc):\n%s", i+1, name, d)
		}
		shown[name] = true
	}
	err = filepath.WalkDir(examples, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		name := "docs/examples/policies/" + filepath.ToSlash(strings.TrimPrefix(p, examples+string(filepath.Separator)))
		if !shown[name] {
			t.Errorf("%s is not shown in docs/custom-policies.md", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) == 0 {
		t.Fatal("no example blocks found in docs/custom-policies.md")
	}
}
