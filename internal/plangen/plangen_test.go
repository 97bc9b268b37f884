package plangen_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/plangen"
)

// TestPlanUpToDate fails when internal/engine/irplan/plan_gen.go is not what
// `go generate ./policies` writes now: a policy changed without
// regenerating, or an OPA upgrade plans the query differently (then the
// differential tests of internal/engine must pass on the new plan).
func TestPlanUpToDate(t *testing.T) {
	want, err := plangen.Source(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", plangen.Path))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: run `go generate ./policies` and commit the result", plangen.Path)
	}
}

// TestPlanDeterministic: planning twice gives the same plan, so the test
// above cannot fail on a clean checkout.
func TestPlanDeterministic(t *testing.T) {
	a, err := engine.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := engine.Plan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two plans of the same policies differ")
	}
}
