package lint_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/lint"
)

// TestWorkerPanicIsAnError makes every evaluation worker panic (the
// CKPTLINT_TEST_PANIC test hook) over several sets and workers: Lint
// returns a *lint.PanicError carrying the value and the worker's stack
// instead of the process dying with the Go runtime's exit code.
func TestWorkerPanicIsAnError(t *testing.T) {
	dir, eng := threeSets(t)
	t.Setenv("CKPTLINT_TEST_PANIC", "eval")
	_, err := lint.Lint(context.Background(), eng, []string{dir}, lint.Options{Workers: 2})
	var pe *lint.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Lint error = %v (%T), want a *lint.PanicError", err, err)
	}
	if v, _ := pe.Value.(string); !strings.Contains(v, "panic in an evaluation worker") {
		t.Errorf("panic value = %v", pe.Value)
	}
	if !strings.Contains(string(pe.Stack), "evaluate.Raw(") {
		t.Errorf("stack does not name the worker:\n%s", pe.Stack)
	}
}

// TestAssemblyPanicIsAnError: assembly runs on a goroutine of its own while
// sets are evaluated; a panic there (the CKPTLINT_TEST_PANIC test hook)
// is a *lint.PanicError too, with and without the cache, and streaming
// (Options.Report) or not.
func TestAssemblyPanicIsAnError(t *testing.T) {
	dir, eng := threeSets(t)
	t.Setenv("CKPTLINT_TEST_PANIC", "assemble")
	c, _ := newCache(t)
	for _, release := range []bool{false, true} {
		opts := lint.Options{Workers: 2}
		if release {
			opts.Report = func(lint.Group) error { return nil }
		}
		_, err := lint.Lint(context.Background(), eng, []string{dir}, opts)
		_, _, cerr := lint.Cached(context.Background(), c, []string{dir}, opts)
		for _, err := range []error{err, cerr} {
			var pe *lint.PanicError
			if !errors.As(err, &pe) {
				t.Fatalf("error = %v (%T), want a *lint.PanicError", err, err)
			}
			if v, _ := pe.Value.(string); !strings.Contains(v, "panic while assembling") {
				t.Errorf("panic value = %v", pe.Value)
			}
		}
	}
}

// threeSets writes three config sets below a new directory and compiles
// the embedded policies.
func threeSets(t *testing.T) (string, *engine.Engine) {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"a", "b", "c"} {
		mkfile(t, filepath.Join(dir, d, "flink-conf.yaml"), "execution.checkpointing.interval: 1 min\n")
	}
	eng, err := engine.New(context.Background(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return dir, eng
}
