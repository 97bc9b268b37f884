package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFactsEndToEnd runs test/facts/e2e.sh with the binary TestMain built:
// a recorded NameNode JMX response -> ckptlint facts -> .ckptlint.hcl ->
// ckptlint lint, where story (a)'s CKPT101 goes from an info asking for
// the DataNodes to the error with the observed numbers.
func TestFactsEndToEnd(t *testing.T) {
	script := filepath.Join(root, "test", "facts", "e2e.sh")
	// Read here, also so that go test's cache notices a change to it.
	readFile(t, script)
	readFile(t, filepath.Join(root, "test", "facts", "testdata", "namenode.json"))
	readFile(t, filepath.Join(root, "test", "facts", "testdata", "before.hcl"))
	if st, err := os.Stat(script); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("%s is not executable", script)
	}
	r := run(t, t.TempDir(), []string{"CKPTLINT=" + ckptlint}, "bash", script)
	if r.code != 0 || !strings.Contains(r.stdout, "e2e: ok") {
		t.Fatalf("e2e.sh: %s", r)
	}
}
