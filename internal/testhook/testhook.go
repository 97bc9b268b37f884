// Package testhook is the failure injection the tests of ckptlint's bug
// and crash paths use: CKPTLINT_TEST_PANIC (a panic while assembling,
// evaluating or reporting: testdata/script/internal_error.txtar,
// lint/panic_test.go), CKPTLINT_TEST_STOP_AT (a SIGKILL at a step of a
// write: cmd/ckptlint/fix_kill_test.go) and CKPTLINT_TEST_MAX_SETS (a
// lowered cap on config sets: hostile_amplify.txtar). Env reads them only
// after a test binary's TestMain called Enable, so the binary ckptlint is
// built into never reads them: a CI job's environment cannot make a
// release crash or stop.
package testhook

import (
	"os"
	"sync/atomic"
)

var enabled atomic.Bool

// Enable lets Env read the test variables; only a test's TestMain calls
// it.
func Enable() { enabled.Store(true) }

// Env is os.Getenv(name) once Enable was called, "" before.
func Env(name string) string {
	if !enabled.Load() {
		return ""
	}
	return os.Getenv(name)
}
