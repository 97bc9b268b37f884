package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var (
	// root is the module root: the action's own checkout, the pre-commit
	// hook repository and where docs/examples lives.
	root string
	// binDir holds the binaries TestMain builds, once for all tests:
	// ckptlint and its renderer side by side, as every install puts them.
	binDir string
	// ckptlint is that ckptlint.
	ckptlint string
	// ckptlintRender is the renderer of Helm charts and kustomizations
	// beside it (cmd/ckptlint-render), which ckptlint finds there.
	ckptlintRender string
)

func TestMain(m *testing.M) { os.Exit(testMain(m)) }

func testMain(m *testing.M) int {
	var err error
	if root, err = filepath.Abs("../.."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tmp, err := os.MkdirTemp("", "ckptlint-pipeline-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = os.RemoveAll(tmp) }() // best effort: a temporary directory
	// Every ckptlint these tests start uses a temporary result cache, never
	// the user's (docs/cache.md).
	os.Setenv("CKPTLINT_CACHE_DIR", filepath.Join(tmp, "cache"))
	binDir = filepath.Join(tmp, "bin")
	ckptlint = filepath.Join(binDir, "ckptlint")
	ckptlintRender = filepath.Join(binDir, "ckptlint-render")
	// -trimpath and -o DIR/ as in action.yml's build step, so that both
	// builds share the compiled packages in the build cache.
	cmd := exec.Command("go", "build", "-trimpath", "-o", binDir+string(filepath.Separator), "./cmd/ckptlint", "./cmd/ckptlint-render")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ./cmd/ckptlint ./cmd/ckptlint-render: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// result is what a finished process left.
type result struct {
	stdout, stderr string
	code           int
	err            error // the process could not be started
}

// String shows a result in a failure message.
func (r result) String() string {
	return fmt.Sprintf("exit code %d\n--- stdout\n%s--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// run runs name with args in dir with env added to this process's
// environment (later entries win). Only a failure to start is fatal: the
// exit code is the caller's to check.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	r := runQuiet(dir, env, name, args...)
	if r.err != nil {
		t.Fatalf("run %s %s: %v", name, strings.Join(args, " "), r.err)
	}
	return r
}

// runQuiet is run without a test: a failure to start is in result.err.
func runQuiet(dir string, env []string, name string, args ...string) result {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	default:
		res.code, res.err = -1, err
	}
	return res
}

// requireTool returns the path of an external program, or skips the test
// when it is missing; under CI=true, where .ci/run installs it, a missing
// program fails the test instead.
func requireTool(t *testing.T, name, why string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not installed, and CI=true: .ci/run should have installed it (%s)", name, why)
	}
	t.Skipf("%s is not installed (%s); `apt-get install %s` to run this test", name, why, name)
	return ""
}

// copyTree copies the regular files below src into dst, keeping their
// permission bits.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatalf("copy %s: %v", src, err)
	}
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, st.Mode().Perm())
}

// gitEnv lets commits in temporary repositories work without a global git
// identity, and keeps the user's git configuration out.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=ckptlint test", "GIT_AUTHOR_EMAIL=test@ckptlint.invalid",
	"GIT_COMMITTER_NAME=ckptlint test", "GIT_COMMITTER_EMAIL=test@ckptlint.invalid",
	"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
}

// gitCommitAll makes dir a git repository whose HEAD holds every file in it.
func gitCommitAll(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"commit", "-q", "--no-verify", "-m", "snapshot"},
	} {
		if r := run(t, dir, gitEnv, "git", args...); r.code != 0 {
			t.Fatalf("git %s in %s: %v", strings.Join(args, " "), dir, r)
		}
	}
}

// story returns the path of a story under testdata.
func story(parts ...string) string {
	return filepath.Join(append([]string{root, "testdata"}, parts...)...)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
