package testhook

import "testing"

// TestEnvOnlyOnceEnabled: a binary that never calls Enable reads no test
// variable, whatever its environment holds.
func TestEnvOnlyOnceEnabled(t *testing.T) {
	t.Setenv("CKPTLINT_TEST_PANIC", "eval")
	if v := Env("CKPTLINT_TEST_PANIC"); v != "" {
		t.Fatalf("Env before Enable = %q", v)
	}
	Enable()
	if v := Env("CKPTLINT_TEST_PANIC"); v != "eval" {
		t.Fatalf("Env after Enable = %q", v)
	}
}
