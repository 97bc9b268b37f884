package discover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunInputBudget: once a run has read its budget, the remaining files
// are CKPT000 findings marked unread (the CLI exits 2) and the files read
// before are linted as usual.
func TestRunInputBudget(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"a", "b", "c"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		src := "execution.checkpointing.interval: 1 min\n# " + strings.Repeat("x", 1000) + "\n"
		if err := os.WriteFile(filepath.Join(dir, d, "flink-conf.yaml"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer func(old int64) { runInputBudget = old }(runInputBudget)
	runInputBudget = 2500
	d, err := Walk([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.unread) != 1 || filepath.Base(filepath.Dir(d.unread[0])) != "c" {
		t.Fatalf("unread = %v, want c/flink-conf.yaml", d.unread)
	}
	var ok, refused int
	for _, p := range d.Paths() {
		switch f := d.Parse(d.Get(p), false); {
		case f.Err == nil:
			ok++
		case f.Err.Unread && strings.Contains(f.Err.Msg, "input budget of 0 MiB"):
			refused++
		default:
			t.Errorf("%s: %v", f.Path, f.Err)
		}
	}
	if ok != 2 || refused != 1 {
		t.Errorf("%d linted, %d refused; want 2 and 1", ok, refused)
	}
}
