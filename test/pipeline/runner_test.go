package pipeline

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// This file is a small GitHub Actions runner for composite actions: enough
// of one to run action.yml's `run` steps as the real runner does (bash
// --noprofile --norc -eo pipefail, step env, working-directory,
// GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files), and strict about what it does
// not do: an expression it cannot resolve fails the test instead of running
// with a hole in the script.

// action is the part of action.yml the simulator reads.
type action struct {
	Name    string                  `yaml:"name"`
	Inputs  map[string]actionInput  `yaml:"inputs"`
	Outputs map[string]actionOutput `yaml:"outputs"`
	Runs    struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionInput struct {
	Description string `yaml:"description"`
	Required    bool   `yaml:"required"`
	Default     string `yaml:"default"`
}

type actionOutput struct {
	Description string `yaml:"description"`
	Value       string `yaml:"value"`
}

type actionStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Run              string            `yaml:"run"`
	Shell            string            `yaml:"shell"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	// usesComment is the comment after `uses:` (the pinned tag).
	usesComment string
}

// loadAction parses action.yml, keeping the comment after each `uses:`.
func loadAction(t *testing.T, path string) *action {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(src, &a); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	steps := lookup(lookup(doc.Content[0], "runs"), "steps")
	if steps == nil || len(steps.Content) != len(a.Runs.Steps) {
		t.Fatalf("%s: runs.steps not found", path)
	}
	for i, s := range steps.Content {
		if u := lookup(s, "uses"); u != nil {
			a.Runs.Steps[i].usesComment = strings.TrimSpace(strings.TrimPrefix(u.LineComment, "#"))
		}
	}
	return &a
}

// lookup returns the value node of key in a mapping node, or nil.
func lookup(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// runner runs one invocation of an action.
type runner struct {
	t          *testing.T
	a          *action
	actionPath string // github.action_path
	actionRef  string // github.action_ref
	workspace  string // GITHUB_WORKSPACE, the default working directory
	temp       string // RUNNER_TEMP
	toolCache  string // RUNNER_TOOL_CACHE
	summary    string // GITHUB_STEP_SUMMARY
	inputs     map[string]string
	// stub gives the outputs of run steps not to run, by step id (the
	// build step, when a prebuilt binary stands in for it).
	stub map[string]map[string]string
	env  []string // added to every step's environment

	steps   map[string]map[string]string // outputs by step id
	seen    map[string]bool              // step ids defined so far
	stdout  strings.Builder              // what all steps printed
	stderr  strings.Builder
	outputs map[string]string // the action's outputs, after run
}

func newRunner(t *testing.T, a *action, workspace string, inputs map[string]string) *runner {
	t.Helper()
	r := &runner{t: t, a: a, actionPath: root, workspace: workspace, temp: t.TempDir(), toolCache: t.TempDir(),
		inputs: map[string]string{}, steps: map[string]map[string]string{}, seen: map[string]bool{}}
	for k := range inputs {
		if _, ok := a.Inputs[k]; !ok {
			t.Fatalf("input %q is not declared in action.yml", k)
		}
	}
	for k, in := range a.Inputs {
		r.inputs[k] = in.Default
		if v, ok := inputs[k]; ok {
			r.inputs[k] = v
		}
	}
	r.summary = filepath.Join(t.TempDir(), "step_summary.md")
	return r
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// value resolves one context reference, as written inside ${{ }}.
func (r *runner) value(ref string) (string, error) {
	switch ref {
	case "github.action_path":
		return r.actionPath, nil
	case "github.action_ref":
		return r.actionRef, nil
	case "github.workspace":
		return r.workspace, nil
	case "runner.temp":
		return r.temp, nil
	case "runner.os":
		return "Linux", nil
	}
	if name, ok := strings.CutPrefix(ref, "inputs."); ok {
		v, ok := r.inputs[name]
		if !ok {
			return "", fmt.Errorf("${{ %s }}: no input %q in action.yml", ref, name)
		}
		return v, nil
	}
	if m := regexp.MustCompile(`^steps\.([\w-]+)\.outputs\.([\w-]+)$`).FindStringSubmatch(ref); m != nil {
		if !r.seen[m[1]] {
			return "", fmt.Errorf("${{ %s }}: no step %q before this one", ref, m[1])
		}
		return r.steps[m[1]][m[2]], nil
	}
	return "", fmt.Errorf("${{ %s }}: the simulated runner does not know this expression", ref)
}

// subst replaces every ${{ }} in s; anything it cannot resolve fails the
// test, and so does a ${{ left over.
func (r *runner) subst(where, s string) string {
	r.t.Helper()
	var err error
	out := exprRE.ReplaceAllStringFunc(s, func(m string) string {
		v, e := r.value(exprRE.FindStringSubmatch(m)[1])
		if e != nil && err == nil {
			err = e
		}
		return v
	})
	if err != nil {
		r.t.Fatalf("%s: %v", where, err)
	}
	if strings.Contains(out, "${{") {
		r.t.Fatalf("%s: unsubstituted expression left in %q", where, out)
	}
	return out
}

var refRE = regexp.MustCompile(`\b(?:steps|inputs|github|runner)(?:\.[\w-]+)+`)

// checkRefs checks the context references in an expression the simulator
// does not evaluate (the `with` and `if` of a `uses` step).
func (r *runner) checkRefs(where, expr string) {
	r.t.Helper()
	for _, ref := range refRE.FindAllString(expr, -1) {
		if _, err := r.value(ref); err != nil {
			r.t.Fatalf("%s: %v", where, err)
		}
	}
}

// run runs the steps in order and returns the exit code of the step that
// failed (0 when none did). As the runner's CompositeActionHandler does, it
// stops at the first failing step and evaluates the action's outputs
// anyway: r.outputs then holds them.
func (r *runner) run() int {
	r.t.Helper()
	if r.a.Runs.Using != "composite" {
		r.t.Fatalf("runs.using is %q, want composite", r.a.Runs.Using)
	}
	code := 0
	for i, s := range r.a.Runs.Steps {
		where := fmt.Sprintf("action.yml step %d (%s)", i+1, s.Name)
		if s.Uses != "" {
			// Actions are not run: setup-go's Go is the one on PATH, and
			// the caches are the machine's.
			r.checkRefs(where+" if", s.If)
			for k, v := range s.With {
				r.checkRefs(where+" with."+k, v)
			}
			r.define(s.ID)
			continue
		}
		if s.If != "" && !r.cond(where+" if", s.If) {
			// A skipped step defines its id with no outputs.
			r.define(s.ID)
			continue
		}
		if out, ok := r.stub[s.ID]; ok {
			r.define(s.ID)
			r.steps[s.ID] = out
			continue
		}
		if code = r.runStep(where, s); code != 0 {
			// Steps after a failure do not run; the outputs that name
			// them evaluate to empty, as on the real runner.
			for _, rest := range r.a.Runs.Steps[i+1:] {
				r.define(rest.ID)
			}
			break
		}
	}
	r.outputs = map[string]string{}
	for k, o := range r.a.Outputs {
		r.outputs[k] = r.subst("action.yml outputs."+k, o.Value)
	}
	return code
}

var condRE = regexp.MustCompile(`^([\w.-]+)\s*(==|!=)\s*'([^']*)'$`)

// cond evaluates the `if:` of a run step. The simulator knows the one form
// action.yml uses, comparisons of a context value with a string literal
// joined by &&; anything else fails the test.
func (r *runner) cond(where, expr string) bool {
	r.t.Helper()
	expr = strings.TrimSpace(expr)
	if m := exprRE.FindStringSubmatch(expr); m != nil && m[0] == expr {
		expr = m[1]
	}
	for _, part := range strings.Split(expr, "&&") {
		m := condRE.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			r.t.Fatalf("%s: the simulated runner cannot evaluate %q", where, part)
		}
		v, err := r.value(m[1])
		if err != nil {
			r.t.Fatalf("%s: %v", where, err)
		}
		// Expression comparisons of strings ignore case.
		if strings.EqualFold(v, m[3]) != (m[2] == "==") {
			return false
		}
	}
	return true
}

func (r *runner) define(id string) {
	if id != "" {
		r.seen[id] = true
	}
}

func (r *runner) runStep(where string, s actionStep) int {
	r.t.Helper()
	if s.Shell != "bash" {
		r.t.Fatalf("%s: shell %q; the simulated runner runs bash steps", where, s.Shell)
	}
	script := r.subst(where+" run", s.Run)
	dir := r.workspace
	if s.WorkingDirectory != "" {
		wd := r.subst(where+" working-directory", s.WorkingDirectory)
		if !filepath.IsAbs(wd) {
			wd = filepath.Join(r.workspace, wd)
		}
		dir = wd
	}
	tmp := r.t.TempDir()
	scriptFile := filepath.Join(tmp, "step.sh")
	outFile := filepath.Join(tmp, "github_output")
	for _, f := range []string{scriptFile, outFile, filepath.Join(tmp, "github_env"), filepath.Join(tmp, "github_path")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	if err := os.WriteFile(scriptFile, []byte(script), 0o644); err != nil {
		r.t.Fatal(err)
	}
	env := append([]string{
		"GITHUB_ACTIONS=true", "CI=true", "RUNNER_OS=Linux", "RUNNER_ARCH=" + runnerArch(),
		"RUNNER_TOOL_CACHE=" + r.toolCache,
		"GITHUB_WORKSPACE=" + r.workspace,
		"GITHUB_ACTION_PATH=" + r.actionPath,
		"RUNNER_TEMP=" + r.temp,
		"GITHUB_OUTPUT=" + outFile,
		"GITHUB_STEP_SUMMARY=" + r.summary,
		"GITHUB_ENV=" + filepath.Join(tmp, "github_env"),
		"GITHUB_PATH=" + filepath.Join(tmp, "github_path"),
	}, r.env...)
	for k, v := range s.Env {
		env = append(env, k+"="+r.subst(where+" env."+k, v))
	}
	// The command line GitHub's runner uses for `shell: bash`.
	res := run(r.t, dir, env, "bash", "--noprofile", "--norc", "-eo", "pipefail", scriptFile)
	r.stdout.WriteString(res.stdout)
	r.stderr.WriteString(res.stderr)
	r.define(s.ID)
	if s.ID != "" {
		r.steps[s.ID] = parseOutputFile(r.t, outFile)
	}
	return res.code
}

// runnerArch is RUNNER_ARCH for this machine, as GitHub's runner names it.
func runnerArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "X64"
	case "arm64":
		return "ARM64"
	case "386":
		return "X86"
	case "arm":
		return "ARM"
	}
	return runtime.GOARCH
}

// parseOutputFile reads a GITHUB_OUTPUT file: name=value lines and
// name<<DELIMITER blocks.
func parseOutputFile(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT: malformed line %q", line)
		}
		out[name] = val
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
