package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type hook struct {
	ID            string `yaml:"id"`
	Entry         string `yaml:"entry"`
	Language      string `yaml:"language"`
	Files         string `yaml:"files"`
	PassFilenames *bool  `yaml:"pass_filenames"`
	RequireSerial bool   `yaml:"require_serial"`
}

func loadHooks(t *testing.T) map[string]hook {
	t.Helper()
	var hooks []hook
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join(root, ".pre-commit-hooks.yaml"))), &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	m := map[string]hook{}
	for _, h := range hooks {
		m[h.ID] = h
	}
	return m
}

// TestHookDefinitions checks the hooks' fields and which file names their
// `files` pattern takes (the pattern is also valid RE2, so Go's regexp
// reads it as pre-commit's Python re does).
func TestHookDefinitions(t *testing.T) {
	hooks := loadHooks(t)
	entries := map[string]string{"ckptlint": "ckptlint lint", "ckptlint-fix": "ckptlint fix",
		"ckptlint-system": "ckptlint lint", "ckptlint-fix-system": "ckptlint fix"}
	if len(hooks) != len(entries) {
		t.Errorf("hooks %v, want %v", hooks, entries)
	}
	matches := map[string]bool{
		"flink-conf.yaml":                     true,
		"flink/conf/flink-conf.yaml":          true,
		"jobs/etl/config.yaml":                true,
		"hadoop/core-site.xml":                true,
		"hdfs-site.xml":                       true,
		"k8s/flinkdeployment.yaml":            true,
		"k8s/etl-flink-deployment.yml":        true,
		"k8s/FlinkDeployment-etl.yaml":        true,
		"k8s/etl_flink_deployment.yaml":       true,
		"README.md":                           false,
		"flink-conf.yaml.bak":                 false,
		"conf/my-flink-conf.yaml":             false,
		"hadoop/mapred-site.xml":              false,
		"k8s/etl.yaml":                        false,
		"k8s/flinkdeployment.yaml/notes.txt":  false,
		"docs/flinkdeployment-guide.md":       false,
		"helm/templates/flinkdeployment.json": false,
	}
	for id, entry := range entries {
		h, ok := hooks[id]
		if !ok {
			t.Errorf("no hook %s", id)
			continue
		}
		lang := "golang"
		if strings.HasSuffix(id, "-system") {
			lang = "system"
		}
		if h.Entry != entry || h.Language != lang || h.PassFilenames == nil || !*h.PassFilenames || !h.RequireSerial {
			t.Errorf("hook %s: %+v; want entry %q, language %s, pass_filenames and require_serial true", id, h, entry, lang)
		}
		if h.Files != hooks["ckptlint"].Files {
			t.Errorf("hook %s: files %q differs from the ckptlint hook's", id, h.Files)
		}
		re, err := regexp.Compile(h.Files)
		if err != nil {
			t.Fatalf("hook %s files: %v", id, err)
		}
		for name, want := range matches {
			if got := re.MatchString(name); got != want {
				t.Errorf("hook %s: files matches %s: %v, want %v", id, name, got, want)
			}
		}
	}
}

// TestGoInstallInstallsOnlyCkptlint checks what pre-commit's golang hooks
// get: pre-commit runs `go install ./...` in the hook repository, so the
// module must have exactly two main packages, cmd/ckptlint and its
// renderer cmd/ckptlint-render, installed side by side (helper programs
// are `//go:build ignore` files run with `go run file.go`).
func TestGoInstallInstallsOnlyCkptlint(t *testing.T) {
	r := run(t, root, nil, "go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./...")
	if r.code != 0 {
		t.Fatalf("go list: %v", r)
	}
	if got, want := strings.Fields(r.stdout), []string{"github.com/ckptlint/ckptlint/cmd/ckptlint", "github.com/ckptlint/ckptlint/cmd/ckptlint-render"}; !slices.Equal(got, want) {
		t.Errorf("main packages that go install ./... installs:\n%s\nwant only %v", r.stdout, want)
	}
}

// TestPreCommitSystemHook runs the language: system hook with the real
// pre-commit and the ckptlint TestMain built on PATH: nothing is built, the
// binary on PATH is what runs.
func TestPreCommitSystemHook(t *testing.T) {
	pc := requireTool(t, "pre-commit", "runs .pre-commit-hooks.yaml")
	hooks := snapshotRepo(t)
	env := append([]string{"PRE_COMMIT_HOME=" + t.TempDir(), "PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH")}, gitEnv...)
	dir := t.TempDir()
	copyTree(t, story("stories", "b-directoryscanner"), dir)
	gitCommitAll(t, dir)
	const conf = "flink/flink-conf.yaml"
	r := run(t, dir, env, pc, "try-repo", "--color", "never", hooks, "ckptlint-system", "--verbose", "--files", conf)
	if r.code != 1 || !strings.Contains(r.stdout, "flink/flink-conf.yaml:10:1: error:") || !strings.Contains(r.stdout, "[CKPT201 ") {
		t.Fatalf("pre-commit try-repo ckptlint-system on story b: %v\nwant exit code 1 with the CKPT201 finding", r)
	}
	r = run(t, dir, env, pc, "try-repo", "--color", "never", hooks, "ckptlint-fix-system", "--files", conf)
	if r.code != 1 || !strings.Contains(r.stdout, "files were modified by this hook") {
		t.Fatalf("pre-commit try-repo ckptlint-fix-system on story b: %v\nwant the file fixed", r)
	}
	if got := readFile(t, filepath.Join(dir, conf)); !strings.Contains(got, "execution.checkpointing.timeout: 2 min\n") {
		t.Errorf("%s after ckptlint-fix-system:\n%s", conf, got)
	}

	// Without ckptlint on PATH the hook fails and says why.
	noBin := append([]string{"PRE_COMMIT_HOME=" + t.TempDir(), "PATH=" + filepath.Dir(pc) + string(os.PathListSeparator) + "/usr/bin:/bin"}, gitEnv...)
	r = run(t, dir, noBin, pc, "try-repo", "--color", "never", hooks, "ckptlint-system", "--files", conf)
	if r.code == 0 || !strings.Contains(r.stdout, "Executable `ckptlint` not found") {
		t.Errorf("ckptlint-system without ckptlint on PATH: %v\nwant pre-commit's \"Executable `ckptlint` not found\"", r)
	}
}

// snapshotRepo makes a git repository of the working tree: the tracked and
// untracked files that are not ignored, as they are on disk, committed. It
// is the hook repository pre-commit clones; a clone of the module root
// would only have its commits.
func snapshotRepo(t *testing.T) string {
	t.Helper()
	r := run(t, root, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if r.code != 0 {
		t.Fatalf("git ls-files in %s: %v", root, r)
	}
	dst := t.TempDir()
	for _, rel := range strings.Split(strings.TrimRight(r.stdout, "\x00"), "\x00") {
		src := filepath.Join(root, rel)
		if st, err := os.Lstat(src); err != nil || !st.Mode().IsRegular() {
			continue // deleted in the working tree, or not a file
		}
		if err := copyFile(src, filepath.Join(dst, rel)); err != nil {
			t.Fatal(err)
		}
	}
	gitCommitAll(t, dst)
	return dst
}

// TestPreCommitHooks runs the hooks with the real pre-commit, installed
// from a snapshot of this working tree (language golang: pre-commit runs
// `go install ./...` in it, which installs ckptlint and ckptlint-render):
// once through `pre-commit try-repo`, and then as a user has them, from a
// .pre-commit-config.yaml, on real `git commit`s, a Helm chart's included.
func TestPreCommitHooks(t *testing.T) {
	if testing.Short() {
		t.Skip("installs the hooks with go install (-short)")
	}
	pc := requireTool(t, "pre-commit", "runs .pre-commit-hooks.yaml")
	hooks := snapshotRepo(t)
	goenv := run(t, root, nil, "go", "env", "GOMODCACHE", "GOCACHE", "GOFLAGS")
	vals := strings.Split(strings.TrimRight(goenv.stdout, "\n"), "\n")
	if goenv.code != 0 || len(vals) != 3 {
		t.Fatalf("go env: %v", goenv)
	}
	env := append([]string{
		// One pre-commit store for the commits: the hooks are installed once.
		"PRE_COMMIT_HOME=" + t.TempDir(),
		// pre-commit sets GOPATH to the hook's environment; naming the
		// caches keeps the modules (OPA among them) this machine has, and
		// -trimpath lets the build cache serve packages compiled from
		// another directory.
		"GOMODCACHE=" + vals[0], "GOCACHE=" + vals[1], "GOFLAGS=" + strings.TrimSpace(vals[2]+" -trimpath"),
	}, gitEnv...)
	userRepo := func(t *testing.T, src ...string) string {
		t.Helper()
		dir := t.TempDir()
		copyTree(t, story(src...), dir)
		if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# deployment\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		gitCommitAll(t, dir)
		return dir
	}
	const conf = "flink/flink-conf.yaml"
	var installedWith func(t *testing.T, config string, src ...string) string

	t.Run("try-repo: a bad config fails with findings", func(t *testing.T) {
		dir := userRepo(t, "stories", "b-directoryscanner")
		r := run(t, dir, env, pc, "try-repo", "--color", "never", hooks, "ckptlint", "--verbose", "--files", conf)
		if r.code != 1 || !strings.Contains(r.stdout, "Failed") ||
			!strings.Contains(r.stdout, "flink/flink-conf.yaml:10:1: error:") || !strings.Contains(r.stdout, "[CKPT201 ") {
			t.Fatalf("pre-commit try-repo ckptlint on story b: %v\nwant exit code 1 with the CKPT201 finding", r)
		}
	})

	// The configuration a user writes, at the snapshot's commit: the fix
	// hook first, so that the lint hook sees the fixed files.
	// These hooks gate on errors (args, as docs/ci.md shows): the stories
	// keep a warning after fixing, which the default --fail-level,
	// warning, refuses (the last subtest).
	rev := run(t, hooks, gitEnv, "git", "rev-parse", "HEAD")
	config := fmt.Sprintf("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: ckptlint-fix\n        args: [--fail-level, error]\n      - id: ckptlint\n        args: [--fail-level, error]\n",
		hooks, strings.TrimSpace(rev.stdout))
	defaults := fmt.Sprintf("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: ckptlint-fix\n      - id: ckptlint\n",
		hooks, strings.TrimSpace(rev.stdout))
	// installed returns a repository holding a story, with the hooks
	// installed as the pre-commit hook of git.
	installed := func(t *testing.T, src ...string) string {
		t.Helper()
		return installedWith(t, config, src...)
	}
	installedWith = func(t *testing.T, config string, src ...string) string {
		t.Helper()
		dir := userRepo(t, src...)
		if err := os.WriteFile(filepath.Join(dir, ".pre-commit-config.yaml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := run(t, dir, env, pc, "install"); r.code != 0 {
			t.Fatalf("pre-commit install: %v", r)
		}
		return dir
	}
	// commit appends text to files, stages everything and commits; the
	// result's stdout holds what git and the hooks printed on either stream.
	commit := func(t *testing.T, dir string, appends map[string]string) result {
		t.Helper()
		for f, text := range appends {
			p := filepath.Join(dir, f)
			if err := os.WriteFile(p, []byte(readFile(t, p)+text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if r := run(t, dir, env, "git", "add", "-A"); r.code != 0 {
			t.Fatalf("git add: %v", r)
		}
		r := run(t, dir, append(env, "PRE_COMMIT_COLOR=never"), "git", "commit", "-m", "change")
		r.stdout, r.stderr = r.stdout+r.stderr, ""
		return r
	}
	head := func(t *testing.T, dir string) string {
		t.Helper()
		return run(t, dir, gitEnv, "git", "rev-parse", "HEAD").stdout
	}

	t.Run("a commit with an error fix cannot mend is refused with the finding", func(t *testing.T) {
		dir := installed(t, "stories", "b-directoryscanner")
		replaceIn(t, filepath.Join(dir, conf), "execution.checkpointing.interval: 1 min", "execution.checkpointing.interval: 1 fortnight")
		before := head(t, dir)
		r := commit(t, dir, nil)
		if r.code == 0 || !strings.Contains(r.stdout, "flink/flink-conf.yaml:9:1: error:") {
			t.Fatalf("git commit: %v\nwant the commit refused with the finding on line 9", r)
		}
		if head(t, dir) != before {
			t.Error("the commit was made")
		}
	})

	t.Run("the fix hook rewrites a bad config; with the fix added the commit goes through", func(t *testing.T) {
		dir := installed(t, "stories", "b-directoryscanner")
		r := commit(t, dir, map[string]string{conf: "# reviewed\n"})
		if r.code == 0 || !strings.Contains(r.stdout, "files were modified by this hook") {
			t.Fatalf("git commit: %v\nwant it refused: files were modified by ckptlint-fix", r)
		}
		got := readFile(t, filepath.Join(dir, conf))
		for _, want := range []string{"execution.checkpointing.timeout: 2 min\n", "execution.checkpointing.tolerable-failed-checkpoints: 3\n", "# reviewed\n"} {
			if !strings.Contains(got, want) {
				t.Errorf("%s after ckptlint-fix lacks %q:\n%s", conf, want, got)
			}
		}
		if diff := run(t, dir, gitEnv, "git", "diff", "--name-only"); strings.TrimSpace(diff.stdout) != conf {
			t.Errorf("ckptlint-fix changed %q, want only %s", diff.stdout, conf)
		}
		if r := commit(t, dir, nil); r.code != 0 {
			t.Errorf("git commit with the fix added: %v\nwant it made", r)
		}
		if st := run(t, dir, gitEnv, "git", "status", "--porcelain"); st.stdout != "" {
			t.Errorf("the commit left changes: %s", st.stdout)
		}
	})

	t.Run("a clean config passes", func(t *testing.T) {
		dir := installed(t, "stories-fixed", "b-directoryscanner")
		r := commit(t, dir, map[string]string{conf: "# reviewed\n", "hadoop/client/hdfs-site.xml": "<!-- reviewed -->\n"})
		if r.code != 0 || strings.Count(r.stdout, "Passed") != 2 {
			t.Fatalf("git commit of stories-fixed/b: %v\nwant it made, both hooks passed", r)
		}
	})

	t.Run("a Spring Boot config.yaml passes the filename filter and is skipped, no exclude needed", func(t *testing.T) {
		dir := installed(t, "stories-fixed", "b-directoryscanner")
		spring := filepath.Join(dir, "app", "src", "main", "resources", "config.yaml")
		if err := os.MkdirAll(filepath.Dir(spring), 0o755); err != nil {
			t.Fatal(err)
		}
		body := "server:\n  port: 8080\nspring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\nmanagement:\n  endpoints:\n    web:\n      exposure:\n        include: health\n"
		if err := os.WriteFile(spring, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		before := head(t, dir)
		r := commit(t, dir, nil)
		if r.code != 0 || strings.Count(r.stdout, "Passed") != 2 {
			t.Fatalf("git commit of a Spring Boot config.yaml: %v\nwant it made, both hooks passed", r)
		}
		if head(t, dir) == before {
			t.Error("the commit was not made")
		}
		// The skipped line is on stderr; pre-commit shows it with --verbose.
		v := run(t, dir, append(env, "PRE_COMMIT_COLOR=never"), pc, "run", "ckptlint", "--verbose", "--files", "app/src/main/resources/config.yaml")
		if v.code != 0 || !strings.Contains(v.stdout+v.stderr, "ckptlint: note: app/src/main/resources/config.yaml: not a Flink or Hadoop configuration") {
			t.Errorf("pre-commit run --verbose: %v\nwant exit 0 and the skipped line", v)
		}
	})

	t.Run("at the default fail level a warning refuses the commit", func(t *testing.T) {
		// stories-fixed/b with its state size declared holds a warning
		// (CKPT105) and no error.
		dir := installedWith(t, defaults, "stories-fixed", "b-directoryscanner")
		declareStateSize(t, dir)
		before := head(t, dir)
		r := commit(t, dir, map[string]string{conf: "# reviewed\n"})
		if r.code == 0 || !strings.Contains(r.stdout, ": warning: ") || !strings.Contains(r.stdout, "[CKPT105 ") ||
			!strings.Contains(r.stdout, "remain after fixing: CKPT105") {
			t.Fatalf("git commit of stories-fixed/b with the default hooks: %v\nwant it refused on the CKPT105 warning by both hooks", r)
		}
		if head(t, dir) != before {
			t.Error("the commit was made")
		}
	})

	// The golang hooks' `go install ./...` puts ckptlint-render beside
	// ckptlint, where ckptlint finds it (PATH holds none here). A chart is
	// rendered when its directory is linted, not from a file's name, so the
	// hook is configured as docs/ci.md shows for a chart.
	t.Run("a Helm chart is rendered by the renderer go install put beside ckptlint", func(t *testing.T) {
		chartEnv := append(slices.Clone(env), "PATH="+pathWithoutRenderer(), "PRE_COMMIT_COLOR=never")
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# deployment\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := fmt.Sprintf("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: ckptlint\n        files: ^chart/\n        pass_filenames: false\n        args: [chart]\n",
			hooks, strings.TrimSpace(rev.stdout))
		if err := os.WriteFile(filepath.Join(dir, ".pre-commit-config.yaml"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		gitCommitAll(t, dir)
		if r := run(t, dir, chartEnv, pc, "install"); r.code != 0 {
			t.Fatalf("pre-commit install: %v", r)
		}
		copyTree(t, writeChart(t), filepath.Join(dir, "chart"))
		if r := run(t, dir, chartEnv, "git", "add", "-A"); r.code != 0 {
			t.Fatalf("git add: %v", r)
		}
		before := head(t, dir)
		r := run(t, dir, chartEnv, "git", "commit", "-m", "chart")
		out := r.stdout + r.stderr
		if r.code == 0 || !strings.Contains(out, "chart/"+renderedFinding) || !strings.Contains(out, renderedRule) || strings.Contains(out, "not rendered") {
			t.Fatalf("git commit of a chart: %v\nwant it refused with the CKPT513 finding at chart/templates/configmap.yaml", r)
		}
		if head(t, dir) != before {
			t.Error("the commit was made")
		}
	})

	t.Run("a commit without configuration files skips the hooks", func(t *testing.T) {
		dir := installed(t, "stories", "b-directoryscanner")
		r := commit(t, dir, map[string]string{"README.md": "more\n"})
		if r.code != 0 || strings.Count(r.stdout, "(no files to check)Skipped") != 2 {
			t.Fatalf("git commit of README.md: %v\nwant it made, both hooks skipped", r)
		}
	})
}
