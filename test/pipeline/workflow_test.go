package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// actionlintModule is the actionlint the tests run, fetched through the Go
// module proxy and built once per test binary. It is not a dependency of
// the ckptlint module: go.mod does not change.
const actionlintModule = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"

var actionlint = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "actionlint-")
	if err != nil {
		return "", err
	}
	r := runQuiet(dir, []string{"GOBIN=" + dir}, "go", "install", actionlintModule)
	if r.code != 0 {
		return "", &installError{r}
	}
	return filepath.Join(dir, "actionlint"), nil
})

type installError struct{ r result }

func (e *installError) Error() string { return "go install " + actionlintModule + ": " + e.r.String() }

// requireActionlint returns the actionlint binary, or skips the test when
// it cannot be built (no module proxy); under CI=true that fails instead.
func requireActionlint(t *testing.T) string {
	t.Helper()
	p, err := actionlint()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("actionlint could not be built, and CI=true: %v", err)
		}
		t.Skipf("actionlint could not be built (is the Go module proxy reachable?): %v", err)
	}
	return p
}

const workflowUses = "uses: ckptlint/ckptlint@"

// TestWorkflowActionlint lints the documented workflow with actionlint
// twice: as published, and with `uses: ckptlint/ckptlint@…` pointed at this
// checkout's action.yml, so that actionlint also checks the inputs the
// workflow passes and the outputs it reads against the action.
func TestWorkflowActionlint(t *testing.T) {
	al := requireActionlint(t)
	wf := filepath.Join(root, "docs", "examples", "workflow.yml")
	src := readFile(t, wf)
	if r := run(t, t.TempDir(), nil, al, "-no-color", wf); r.code != 0 {
		t.Errorf("actionlint %s: %v", wf, r)
	}

	if n := strings.Count(src, workflowUses); n != 1 {
		t.Fatalf("%s uses the ckptlint action %d times, want once", wf, n)
	}
	local := regexp.MustCompile(`uses: ckptlint/ckptlint@\S+`).ReplaceAllString(src, "uses: ./")
	repo := t.TempDir()
	if err := copyFile(filepath.Join(root, "action.yml"), filepath.Join(repo, "action.yml")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".github", "workflows", "ckptlint.yml"), []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCommitAll(t, repo)
	if r := run(t, repo, nil, al, "-no-color"); r.code != 0 {
		t.Errorf("actionlint with the workflow using this action.yml: %v", r)
	}
	for _, want := range []string{"github/codeql-action/upload-sarif@", "sarif_file: ${{ steps.ckptlint.outputs.sarif-file }}",
		"security-events: write"} {
		if !strings.Contains(src, want) {
			t.Errorf("%s lacks %q", wf, want)
		}
	}
}

// TestReleaseWorkflowActionlint lints .github/workflows/release.yml with
// actionlint (and the shellcheck it runs on `run:` scripts when shellcheck is
// installed), and checks that it runs the goreleaser version the tests pin.
func TestReleaseWorkflowActionlint(t *testing.T) {
	al := requireActionlint(t)
	wf := filepath.Join(root, ".github", "workflows", "release.yml")
	if r := run(t, root, nil, al, "-no-color", wf); r.code != 0 {
		t.Errorf("actionlint %s: %v", wf, r)
	}
	src := readFile(t, wf)
	_, pinned, _ := strings.Cut(goreleaserModule, "@")
	for _, want := range []string{"tags: [\"v*\"]", "version: " + pinned, "args: release --clean", "contents: write", "id-token: write"} {
		if !strings.Contains(src, want) {
			t.Errorf("%s lacks %q", wf, want)
		}
	}
	for _, m := range regexp.MustCompile(`uses: (\S+)`).FindAllStringSubmatch(src, -1) {
		if !regexp.MustCompile(`@[0-9a-f]{40}$`).MatchString(m[1]) {
			t.Errorf("%s: %s is not pinned by commit SHA", wf, m[1])
		}
	}
}

// TestActionlintCatchesMistakes makes sure the local-action check above can
// fail: a misspelt input and output are reported.
func TestActionlintCatchesMistakes(t *testing.T) {
	al := requireActionlint(t)
	src := readFile(t, filepath.Join(root, "docs", "examples", "workflow.yml"))
	src = regexp.MustCompile(`uses: ckptlint/ckptlint@\S+`).ReplaceAllString(src, "uses: ./")
	src = strings.Replace(src, "fail-level:", "fail_level:", 1)
	src = strings.Replace(src, "outputs.sarif-file", "outputs.sarif_file", 1)
	repo := t.TempDir()
	if err := copyFile(filepath.Join(root, "action.yml"), filepath.Join(repo, "action.yml")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(repo, ".github", "workflows", "ckptlint.yml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCommitAll(t, repo)
	r := run(t, repo, nil, al, "-no-color")
	if r.code != 1 || !strings.Contains(r.stdout, `input "fail_level" is not defined`) ||
		!strings.Contains(r.stdout, `property "sarif_file" is not defined`) {
		t.Errorf("actionlint did not report the misspelt input and output: %v", r)
	}
}

// TestDocumentedWorkflowIsTheTestedOne checks that the README and
// docs/ci.md show the workflow, and that every workflow they show that uses
// the action is docs/examples/workflow.yml, verbatim.
func TestDocumentedWorkflowIsTheTestedOne(t *testing.T) {
	wf := readFile(t, filepath.Join(root, "docs", "examples", "workflow.yml"))
	block := regexp.MustCompile("(?s)```ya?ml\n(.*?)```")
	for _, doc := range []string{"docs/ci.md", "README.md"} {
		found := false
		src, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range block.FindAllStringSubmatch(string(src), -1) {
			if !strings.Contains(m[1], workflowUses) || !strings.Contains(m[1], "\njobs:") {
				continue
			}
			found = true
			if m[1] != wf {
				t.Errorf("%s shows a workflow that is not docs/examples/workflow.yml:\n%s", doc, m[1])
			}
		}
		if !found {
			t.Errorf("%s does not show docs/examples/workflow.yml", doc)
		}
	}
}

// TestScriptsShellcheck runs shellcheck on the run steps of action.yml and
// on docs/examples/deploy.sh.
func TestScriptsShellcheck(t *testing.T) {
	sc := requireTool(t, "shellcheck", "checks the action's bash steps and deploy.sh")
	a := loadAction(t, filepath.Join(root, "action.yml"))
	dir := t.TempDir()
	for i, s := range a.Runs.Steps {
		if s.Run == "" {
			continue
		}
		p := filepath.Join(dir, s.ID+".sh")
		if err := os.WriteFile(p, []byte(s.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := run(t, dir, nil, sc, "--shell=bash", "--severity=info", p); r.code != 0 {
			t.Errorf("shellcheck action.yml step %d (%s): %v", i+1, s.Name, r)
		}
	}
	if r := run(t, root, nil, sc, "--severity=info", "docs/examples/deploy.sh"); r.code != 0 {
		t.Errorf("shellcheck docs/examples/deploy.sh: %v", r)
	}
}
