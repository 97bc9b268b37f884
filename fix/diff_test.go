package fix

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/write"
)

func TestDiffLabels(t *testing.T) {
	tests := []struct {
		name string
		c    write.Change
		want string
	}{
		{"equal", write.Change{Old: []byte("a\n"), New: []byte("a\n")}, ""},
		{"one line changed", write.Change{Old: []byte("a\nb\nc\n"), New: []byte("a\nB\nc\n")},
			"diff a/conf/x b/conf/x\n--- a/conf/x\n+++ b/conf/x\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"new file", write.Change{New: []byte("a\n")},
			"diff /dev/null b/conf/x\n--- /dev/null\n+++ b/conf/x\n@@ -0,0 +1,1 @@\n+a\n"},
		{"missing final newline", write.Change{Old: []byte("a\nb"), New: []byte("a\nc")},
			"diff a/conf/x b/conf/x\n--- a/conf/x\n+++ b/conf/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"CRLF kept", write.Change{Old: []byte("a\r\nb\r\n"), New: []byte("a\r\nc\r\n")},
			"diff a/conf/x b/conf/x\n--- a/conf/x\n+++ b/conf/x\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Diff(tt.c, "conf/x"); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestDiffPatchApplies feeds what `fix --diff` prints for a set of changes
// (several distant edits, CRLF, a missing final newline, a new file in a
// new place) to the real patch(1) with -p1 and checks that the patched tree
// equals what fix would write.
func TestDiffPatchApplies(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("patch(1) not installed")
	}
	var a, b []string
	for i := range 60 {
		line := "key." + strings.Repeat("x", i%7) + ": 1\n"
		a = append(a, line)
		switch {
		case i%17 == 3:
			b = append(b, "changed."+line)
		case i%23 == 5:
		default:
			b = append(b, line)
		}
	}
	b = append(b, "tail: 1\n")
	files := map[string]write.Change{
		"conf/flink-conf.yaml": {Old: []byte(strings.Join(a, "")), New: []byte(strings.Join(b, ""))},
		"conf/crlf.yaml":       {Old: []byte("a: 1\r\nb: 2\r\nc: 3\r\n"), New: []byte("a: 1\r\nb: 20\r\nc: 3\r\nd: 4\r\n")},
		"conf/core-site.xml":   {Old: []byte("<configuration>\n</configuration>"), New: []byte("<configuration>\n  <property/>\n</configuration>")},
		"hadoop/hdfs-site.xml": {New: []byte("<configuration>\n</configuration>\n")},
	}
	dir := t.TempDir()
	var d strings.Builder
	for name, c := range files {
		if c.Old != nil {
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, c.Old, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d.WriteString(Diff(c, name))
	}
	cmd := exec.Command(patch, "-p1", "-s", "--batch")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(d.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s\n%s", err, out, d.String())
	}
	for name, c := range files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != string(c.New) {
			t.Errorf("%s after patch = %q, %v; want %q\n%s", name, got, err, c.New, d.String())
		}
	}
}

// TestDiffRepeatedLines: where lines repeat (two services with the same
// FLINK_PROPERTIES), a line that stayed is context, not removed and added.
func TestDiffRepeatedLines(t *testing.T) {
	block := "        state.backend: rocksdb\n        state.checkpoints.dir: hdfs://nn:8020/c\n        execution.checkpointing.interval: 10s\n"
	fixed := strings.Replace(block, "state.backend:", "state.backend.type:", 1)
	old := "services:\n  jobmanager:\n      FLINK_PROPERTIES: |\n" + block + "  taskmanager:\n      FLINK_PROPERTIES: |\n" + block
	new := "services:\n  jobmanager:\n      FLINK_PROPERTIES: |\n" + fixed + "  taskmanager:\n      FLINK_PROPERTIES: |\n" + fixed
	d := Diff(write.Change{Old: []byte(old), New: []byte(new)}, "docker-compose.yml")
	if n := changed(d); n != 4 {
		t.Errorf("%d lines removed or added, want 4 (two renames):\n%s", n, d)
	}
	if !strings.HasPrefix(d, "diff a/docker-compose.yml b/docker-compose.yml\n--- a/docker-compose.yml\n+++ b/docker-compose.yml\n@@ ") {
		t.Errorf("headers:\n%s", d)
	}
}
