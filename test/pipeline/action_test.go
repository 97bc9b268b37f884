package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// summaryBefore stands for what earlier steps of the job wrote to the job
// summary: the action must append to it.
const summaryBefore = "## earlier step\n\nkept\n"

// newWorkspace makes a GITHUB_WORKSPACE holding a copy of the story src at
// sub ("" for the top), committed to git as actions/checkout leaves it.
func newWorkspace(t *testing.T, src, sub string) string {
	t.Helper()
	ws := t.TempDir()
	copyTree(t, src, filepath.Join(ws, sub))
	gitCommitAll(t, ws)
	return ws
}

// lintJSON runs the prebuilt ckptlint on dir and returns its JSON summary:
// the counts the action's outputs must repeat.
func lintJSON(t *testing.T, dir string, args ...string) map[string]int {
	t.Helper()
	r := run(t, dir, nil, ckptlint, append([]string{"lint", "--format", "json", "--fail-level", "info"}, args...)...)
	if r.code > 1 {
		t.Fatalf("ckptlint lint --format json in %s: %v", dir, r)
	}
	var doc struct{ Summary map[string]int }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("ckptlint --format json: %v\n%s", err, r.stdout)
	}
	return doc.Summary
}

// runAction runs action.yml with the prebuilt ckptlint standing in for the
// build step.
func runAction(t *testing.T, ws string, inputs map[string]string) (*runner, int) {
	t.Helper()
	requireTool(t, "jq", "action.yml reads its count outputs with it, as GitHub-hosted runners have it")
	r := newRunner(t, loadAction(t, filepath.Join(root, "action.yml")), ws, inputs)
	r.stub = map[string]map[string]string{"build": {"path": ckptlint}}
	if err := os.WriteFile(r.summary, []byte(summaryBefore), 0o644); err != nil {
		t.Fatal(err)
	}
	return r, r.run()
}

// checkCounts compares the errors/warnings/infos outputs with the JSON
// summary of the same lint.
func checkCounts(t *testing.T, r *runner, want map[string]int) {
	t.Helper()
	for out, key := range map[string]string{"errors": "errors", "warnings": "warnings", "infos": "infos"} {
		got, err := strconv.Atoi(r.outputs[out])
		if err != nil {
			t.Errorf("output %s = %q, want a number (%d)", out, r.outputs[out], want[key])
			continue
		}
		if got != want[key] {
			t.Errorf("output %s = %d, want %d", out, got, want[key])
		}
	}
}

// checkSARIF checks that path is a SARIF 2.1.0 log with one result per
// finding, each with a rule id and a line.
func checkSARIF(t *testing.T, path string, findings int, fileWant string) {
	t.Helper()
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name string `json:"name"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(readFile(t, path)), &log); err != nil {
		t.Fatalf("%s is not JSON: %v", path, err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("%s: version %q with %d runs, want 2.1.0 with one run", path, log.Version, len(log.Runs))
	}
	res := log.Runs[0].Results
	if len(res) != findings {
		t.Errorf("%s: %d results, want %d (one per finding)", path, len(res), findings)
	}
	uris := map[string]bool{}
	for i, r := range res {
		if !regexp.MustCompile(`^CKPT\d{3}$`).MatchString(r.RuleID) || len(r.Locations) == 0 ||
			r.Locations[0].PhysicalLocation.Region.StartLine < 1 {
			t.Errorf("%s: result %d has rule %q and no line", path, i, r.RuleID)
			continue
		}
		uris[r.Locations[0].PhysicalLocation.ArtifactLocation.URI] = true
	}
	if fileWant != "" && !uris[fileWant] {
		t.Errorf("%s: no result in %s (repository-relative); files: %v", path, fileWant, uris)
	}
}

// checkSummary checks the job summary: what was there is kept, and the
// action added a Markdown table.
func checkSummary(t *testing.T, r *runner, wants ...string) string {
	t.Helper()
	s := readFile(t, r.summary)
	if !strings.HasPrefix(s, summaryBefore) {
		t.Errorf("the job summary lost what earlier steps wrote (the action must append):\n%s", s)
	}
	added := strings.TrimPrefix(s, summaryBefore)
	for _, w := range wants {
		if !strings.Contains(added, w) {
			t.Errorf("job summary lacks %q:\n%s", w, added)
		}
	}
	return added
}

var tableRE = regexp.MustCompile(`(?m)^\|.*\|\s*\n\|(\s*:?-{3,}:?\s*\|)+\s*$`)

func TestActionStoryB(t *testing.T) {
	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "")
	want := lintJSON(t, ws)
	r, code := runAction(t, ws, nil)
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (story b has errors)\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	checkCounts(t, r, want)
	if want["errors"] == 0 {
		t.Fatalf("story b has no errors: %v", want)
	}
	if got := r.outputs["sarif-file"]; got != "ckptlint.sarif" {
		t.Errorf("output sarif-file = %q, want ckptlint.sarif", got)
	}
	checkSARIF(t, filepath.Join(ws, "ckptlint.sarif"), want["errors"]+want["warnings"]+want["infos"], "flink/flink-conf.yaml")
	out := r.stdout.String()
	if !strings.Contains(out, "::error file=flink/flink-conf.yaml,line=10,") {
		t.Errorf("no ::error annotation on flink/flink-conf.yaml line 10 in the step output:\n%s", out)
	}
	if n := strings.Count(out, "::error "); n < want["errors"] {
		t.Errorf("%d ::error annotations, want at least %d:\n%s", n, want["errors"], out)
	}
	// An info is no annotation by default (show-level), and is one with
	// show-level: info; the SARIF report above holds it either way.
	if want["infos"] == 0 {
		t.Fatalf("story b has no infos: %v", want)
	}
	if strings.Contains(out, "::notice ") {
		t.Errorf("an info became an annotation at the default show-level:\n%s", out)
	}
	ri, _ := runAction(t, ws, map[string]string{"show-level": "info"})
	if n := strings.Count(ri.stdout.String(), "::notice "); n != want["infos"] {
		t.Errorf("show-level info: %d ::notice annotations, want %d (the infos):\n%s", n, want["infos"], ri.stdout.String())
	}
	added := checkSummary(t, r, "CKPT201")
	if !tableRE.MatchString(added) {
		t.Errorf("the job summary has no Markdown table:\n%s", added)
	}
	if strings.Contains(added, "ckptlint fix") {
		t.Errorf("fix-diff is off, yet the summary shows fix output:\n%s", added)
	}
}

func TestActionWorkingDirectoryAndFixDiff(t *testing.T) {
	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "deploy/flink")
	conf := filepath.Join(ws, "deploy/flink/flink/flink-conf.yaml")
	before := readFile(t, conf)
	want := lintJSON(t, filepath.Join(ws, "deploy/flink"))
	r, code := runAction(t, ws, map[string]string{
		"working-directory": "deploy/flink",
		"fix-diff":          "true",
		"fail-level":        "warning",
		"sarif-file":        "results.sarif",
	})
	if code != 1 {
		t.Fatalf("exit code %d, want 1\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	checkCounts(t, r, want)
	if got := r.outputs["sarif-file"]; got != "deploy/flink/results.sarif" {
		t.Errorf("output sarif-file = %q, want deploy/flink/results.sarif (relative to the workspace)", got)
	}
	checkSARIF(t, filepath.Join(ws, "deploy/flink/results.sarif"), want["errors"]+want["warnings"]+want["infos"],
		"deploy/flink/flink/flink-conf.yaml")
	// GitHub places annotations by repository-relative path.
	if out := r.stdout.String(); !strings.Contains(out, "::error file=deploy/flink/flink/flink-conf.yaml,line=10,") {
		t.Errorf("annotations are not relative to the repository root:\n%s", out)
	}
	checkSummary(t, r, "### What `ckptlint fix` would change", "```diff",
		"+execution.checkpointing.timeout: 2 min", "-execution.checkpointing.timeout: 10 s")
	if after := readFile(t, conf); after != before {
		t.Errorf("fix-diff changed %s:\n%s", conf, after)
	}
}

func TestActionCleanConfigNoSARIF(t *testing.T) {
	ws := newWorkspace(t, story("stories-fixed", "b-directoryscanner"), "")
	want := lintJSON(t, ws)
	r, code := runAction(t, ws, map[string]string{
		"paths":      "flink\nhadoop/client  hadoop/cluster",
		"sarif-file": "",
		"fix-diff":   "true",
		"fail-level": "error", // gate on errors only
	})
	if code != 0 {
		t.Fatalf("exit code %d, want 0 (stories-fixed/b lints clean at error)\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	checkCounts(t, r, want)
	if want["errors"] != 0 {
		t.Fatalf("stories-fixed/b has errors: %v", want)
	}
	if got := r.outputs["sarif-file"]; got != "" {
		t.Errorf("output sarif-file = %q with sarif-file empty, want none", got)
	}
	if m, _ := filepath.Glob(filepath.Join(ws, "*.sarif")); len(m) > 0 {
		t.Errorf("sarif-file is empty, yet %v was written", m)
	}
	if strings.Contains(r.stdout.String(), "::error ") {
		t.Errorf("::error annotations on a clean configuration:\n%s", r.stdout.String())
	}
	checkSummary(t, r, "Nothing: no finding has an automatic fix.")
}

// TestActionDefaultGateFailsOnWarnings: the default fail-level is warning,
// so stories-fixed/b with its state size declared, which keeps one warning
// (CKPT105) and no error, fails the step.
func TestActionDefaultGateFailsOnWarnings(t *testing.T) {
	src := t.TempDir()
	copyTree(t, story("stories-fixed", "b-directoryscanner"), src)
	declareStateSize(t, src)
	ws := newWorkspace(t, src, "")
	want := lintJSON(t, ws)
	if want["errors"] != 0 || want["warnings"] == 0 {
		t.Fatalf("stories-fixed/b: %v, want warnings and no error", want)
	}
	r, code := runAction(t, ws, map[string]string{"sarif-file": ""})
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (a warning at the default fail-level)\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if !strings.Contains(r.stdout.String(), "::warning file=hadoop/client/hdfs-site.xml,") {
		t.Errorf("no ::warning annotation for the CKPT105 warning:\n%s", r.stdout.String())
	}
}

// TestActionNoConfiguration: paths that hold no Flink or Hadoop file pass
// (exit 0, zero counts) with a warning annotation, not silently.
func TestActionNoConfiguration(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("# no flink here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCommitAll(t, ws)
	r, code := runAction(t, ws, nil)
	if code != 0 {
		t.Fatalf("exit code %d, want 0\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if !strings.Contains(r.stdout.String(), "::warning title=ckptlint found no configuration::no Flink or Hadoop configuration file under the paths input (.)") {
		t.Errorf("no warning annotation:\n%s", r.stdout.String())
	}
	if r.outputs["errors"] != "0" {
		t.Errorf("errors output %q, want 0", r.outputs["errors"])
	}
	if !strings.Contains(r.stderr.String(), "ckptlint: warning: no Flink or Hadoop configuration file found") {
		t.Errorf("ckptlint's warning is not in the step log:\n%s", r.stderr.String())
	}
}

func TestActionToolErrorIsNotAFinding(t *testing.T) {
	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "")
	old := filepath.Join(ws, "ckptlint.sarif")
	if err := os.WriteFile(old, []byte("stale"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, code := runAction(t, ws, map[string]string{"fail-level": "severe"})
	if code != 2 {
		t.Fatalf("exit code %d, want 2 (usage error)\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if !strings.Contains(r.stdout.String(), "::error title=ckptlint could not lint (exit code 2)::") {
		t.Errorf("no annotation for the tool error:\n%s", r.stdout.String())
	}
	if !strings.Contains(r.stderr.String(), "--fail-level") {
		t.Errorf("ckptlint's error message is not in the step log:\n%s", r.stderr.String())
	}
	if _, err := os.Stat(old); err == nil {
		t.Errorf("a stale %s survived a failed run", old)
	}
	for _, k := range []string{"errors", "warnings", "infos", "sarif-file"} {
		if v := r.outputs[k]; v != "" {
			t.Errorf("output %s = %q after a tool error, want empty", k, v)
		}
	}
}

// TestActionBuildStep runs every run step for real, the build included: the
// cache key step, `go build` from the action's checkout with the action ref
// as version (ckptlint and, beside it, ckptlint-render), and the lint step
// with the binary the build step made.
func TestActionBuildStep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ckptlint again (-short)")
	}
	requireTool(t, "jq", "action.yml reads its count outputs with it")
	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "")
	// A release tag with install-mode source: a build, not a download.
	r := newRunner(t, loadAction(t, filepath.Join(root, "action.yml")), ws, map[string]string{"install-mode": "source"})
	r.actionRef = "v0.0.0-pipeline-test"
	code := r.run()
	if code != 1 {
		t.Fatalf("exit code %d, want 1\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	exe := r.steps["build"]["path"]
	if !strings.HasPrefix(exe, r.temp) {
		t.Errorf("build output path = %q, want a file under RUNNER_TEMP %s", exe, r.temp)
	}
	if res := run(t, ws, nil, exe, "version"); res.code != 0 || !strings.HasPrefix(res.stdout, "ckptlint v0.0.0-pipeline-test\n") {
		t.Errorf("%s version: %v, want the action ref as version", exe, res)
	}
	// The renderer is built beside it, as -trimpath'd, and found there.
	renderExe := filepath.Join(filepath.Dir(exe), "ckptlint-render")
	if f := run(t, ws, nil, "go", "version", "-m", renderExe); f.code != 0 || !strings.Contains(f.stdout, "-trimpath=true") {
		t.Errorf("the build step built no ckptlint-render beside ckptlint with -trimpath: %v", f)
	}
	checkRendered(t, "the built ckptlint on a chart", run(t, writeChart(t), []string{"PATH=" + pathWithoutRenderer()}, exe, "lint", "--no-cache", "."))
	key := r.steps["go-cache"]
	if !regexp.MustCompile(`^ckptlint-Linux-go[\d.]+-[0-9a-f]{40}$`).MatchString(key["key"]) ||
		!strings.HasPrefix(key["key"], key["prefix"]) {
		t.Errorf("cache key %q, prefix %q", key["key"], key["prefix"])
	}
	for _, k := range []string{"gomodcache", "gocache"} {
		if st, err := os.Stat(key[k]); err != nil || !st.IsDir() {
			t.Errorf("cache path %s = %q is not a directory", k, key[k])
		}
	}
	if r.outputs["errors"] == "" || r.outputs["sarif-file"] != "ckptlint.sarif" {
		t.Errorf("outputs %v", r.outputs)
	}
}

// TestActionMetadata checks what the simulator does not run: every action
// used is pinned by commit SHA with the tag in a comment, setup-go reads
// the Go version from the action's go.mod, and the run steps take inputs
// only through env (no ${{ }} spliced into a script).
func TestActionMetadata(t *testing.T) {
	a := loadAction(t, filepath.Join(root, "action.yml"))
	pinned := regexp.MustCompile(`^[\w.-]+/[\w./-]+@[0-9a-f]{40}$`)
	var setupGo bool
	for _, s := range a.Runs.Steps {
		if s.Uses != "" {
			if !pinned.MatchString(s.Uses) || !regexp.MustCompile(`^v\d+(\.\d+)*$`).MatchString(s.usesComment) {
				t.Errorf("step %q: uses %q # %q; want owner/repo@<40-hex SHA> # vX.Y.Z", s.Name, s.Uses, s.usesComment)
			}
			if strings.HasPrefix(s.Uses, "actions/setup-go@") {
				setupGo = true
				if s.With["go-version-file"] != "${{ github.action_path }}/go.mod" {
					t.Errorf("setup-go go-version-file = %q", s.With["go-version-file"])
				}
			}
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q splices an expression into its script; pass it through env", s.Name)
		}
	}
	if !setupGo {
		t.Error("no actions/setup-go step")
	}
	for _, in := range []string{"paths", "config", "fail-level", "show-level", "sarif-file", "fix-diff", "working-directory", "install-mode", "cache"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("input %s missing", in)
		}
	}
	if a.Inputs["fail-level"].Default != "warning" || a.Inputs["show-level"].Default != "" || a.Inputs["sarif-file"].Default != "ckptlint.sarif" || a.Inputs["install-mode"].Default != "auto" {
		t.Errorf("defaults: fail-level %q, sarif-file %q, install-mode %q", a.Inputs["fail-level"].Default, a.Inputs["sarif-file"].Default,
			a.Inputs["install-mode"].Default)
	}
	for _, out := range []string{"errors", "warnings", "infos", "sarif-file"} {
		if a.Outputs[out].Value == "" {
			t.Errorf("output %s missing", out)
		}
	}
}

// TestActionResultCache runs the action twice over one workspace, the
// second time with the first run's result cache in place, as
// actions/cache/restore leaves it: the cache is written under RUNNER_TEMP
// with a key naming the ckptlint version, the second run gives the same
// outputs and finds every result there (it writes no new entry), and
// cache: false lints with --no-cache and leaves no directory.
func TestActionResultCache(t *testing.T) {
	ws := newWorkspace(t, story("stories", "b-directoryscanner"), "")
	want := lintJSON(t, ws)
	entries := func(dir string) []string {
		m, _ := filepath.Glob(filepath.Join(dir, "*", "*-e"))
		return m
	}
	r, code := runAction(t, ws, nil)
	if code != 1 {
		t.Fatalf("exit code %d, want 1\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	checkCounts(t, r, want)
	out := r.steps["results-cache"]
	if out["dir"] != filepath.Join(r.temp, "ckptlint-results") {
		t.Errorf("results-cache dir = %q, want under RUNNER_TEMP", out["dir"])
	}
	if !strings.HasPrefix(out["key"], out["policies-prefix"]) || !strings.HasPrefix(out["policies-prefix"], out["prefix"]) ||
		!regexp.MustCompile(`^ckptlint-results-Linux-[0-9a-f]{40}-$`).MatchString(out["prefix"]) {
		t.Errorf("results-cache key %q, prefixes %q, %q", out["key"], out["policies-prefix"], out["prefix"])
	}
	first := entries(out["dir"])
	if len(first) == 0 {
		t.Fatalf("the lint step wrote no result cache entry in %s", out["dir"])
	}

	// The restore step of a later job: the same directory, a new runner.
	a := loadAction(t, filepath.Join(root, "action.yml"))
	r2 := newRunner(t, a, ws, nil)
	r2.temp = r.temp
	r2.stub = map[string]map[string]string{"build": {"path": ckptlint}}
	if code := r2.run(); code != 1 {
		t.Fatalf("second run: exit code %d, want 1\n%s", code, r2.stderr.String())
	}
	checkCounts(t, r2, want)
	if got := entries(out["dir"]); len(got) != len(first) {
		t.Errorf("the second run wrote %d entries more; nothing changed, so every result should have come from the cache", len(got)-len(first))
	}

	r3, code := runAction(t, ws, map[string]string{"cache": "false"})
	if code != 1 {
		t.Fatalf("cache false: exit code %d, want 1\n%s", code, r3.stderr.String())
	}
	checkCounts(t, r3, want)
	if _, err := os.Stat(filepath.Join(r3.temp, "ckptlint-results")); err == nil {
		t.Error("cache: false left a result cache directory")
	}
}
