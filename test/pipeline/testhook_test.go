package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReleaseBinaryIgnoresTestHooks: the binary `go build` makes, as a
// release or the Action builds it, never reads the failure-injection
// variables (internal/testhook): a job's environment that sets
// CKPTLINT_TEST_PANIC or CKPTLINT_TEST_MAX_SETS changes nothing, where the
// test binary panics (exit 3) or stops at the cap (exit 2).
func TestReleaseBinaryIgnoresTestHooks(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, d, "flink-conf.yaml"), []byte("execution.checkpointing.interval: 1 min\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain := run(t, dir, nil, ckptlint, "lint", "--no-cache", ".")
	for _, env := range []string{"CKPTLINT_TEST_PANIC=eval", "CKPTLINT_TEST_PANIC=assemble", "CKPTLINT_TEST_PANIC=report", "CKPTLINT_TEST_MAX_SETS=1"} {
		r := run(t, dir, []string{env}, ckptlint, "lint", "--no-cache", ".")
		if r.code != plain.code || r.stdout != plain.stdout {
			t.Errorf("%s changed the run:\n%s\nwithout it:\n%s", env, r, plain)
		}
	}
}
