package lint

import "testing"

// SetBuildVersionForTest makes the result cache key on version v until
// the test ends.
func SetBuildVersionForTest(t *testing.T, v string) {
	old := buildVersion
	buildVersion = func() string { return v }
	t.Cleanup(func() { buildVersion = old })
}
