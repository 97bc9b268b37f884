package lint_test

import (
	"os"
	"testing"

	"github.com/ckptlint/ckptlint/internal/deploy/render"
	"github.com/ckptlint/ckptlint/internal/deploy/render/renderer"
	"github.com/ckptlint/ckptlint/internal/testhook"
)

// TestMain lets the tests read the failure-injection variables
// (CKPTLINT_TEST_PANIC: panic_test.go) and render Helm charts and
// kustomizations as ckptlint-render does (internal/deploy/render).
func TestMain(m *testing.M) {
	renderer.ServeChild() // a chart a test lints renders in this binary
	if self, err := os.Executable(); err == nil {
		render.Executable = self
	}
	testhook.Enable()
	os.Exit(m.Run())
}
