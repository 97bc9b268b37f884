package lint_test

import (
	"os"
	"testing"

	"github.com/ckptlint/ckptlint/internal/testhook"
)

// TestMain lets the tests read the failure-injection variables
// (CKPTLINT_TEST_PANIC: panic_test.go).
func TestMain(m *testing.M) {
	testhook.Enable()
	os.Exit(m.Run())
}
