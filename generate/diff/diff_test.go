package diff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", "--- x\n+++ y\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"insert at end", "a\n", "a\nb\n", "--- x\n+++ y\n@@ -1 +1,2 @@\n a\n+b\n"},
		{"missing final newline", "a\nb", "a\nc", "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"new file", "", "a\n", "--- x\n+++ y\n@@ -0,0 +1 @@\n+a\n"},
		{"CRLF kept", "a\r\nb\r\n", "a\r\nc\r\n", "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified("x", "y", []byte(tt.a), []byte(tt.b)); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestPatchApplies checks the diff against the real patch(1) on files with
// several distant changes.
func TestPatchApplies(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("patch(1) not installed")
	}
	var a, b []string
	for i := range 60 {
		line := "line " + strings.Repeat("x", i%7) + "\n"
		a = append(a, line)
		switch {
		case i%17 == 3:
			b = append(b, "changed "+line)
		case i%23 == 5:
		default:
			b = append(b, line)
		}
	}
	b = append(b, "tail\n")
	dir := t.TempDir()
	old := filepath.Join(dir, "f")
	os.WriteFile(old, []byte(strings.Join(a, "")), 0o644)
	d := Unified("f", "f", []byte(strings.Join(a, "")), []byte(strings.Join(b, "")))
	cmd := exec.Command(patch, "-s", old)
	cmd.Stdin = strings.NewReader(d)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s\n%s", err, out, d)
	}
	got, _ := os.ReadFile(old)
	if string(got) != strings.Join(b, "") {
		t.Fatalf("patched file differs:\n%s", d)
	}
}
