package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintFormatExitCodes runs the program in-process: --format mistakes
// are usage errors (exit 2) found before linting, and a run that writes
// every format to files keeps the findings' exit code (1).
func TestLintFormatExitCodes(t *testing.T) {
	story, err := filepath.Abs("../../testdata/stories/a-blocksize")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown format", []string{"--format", "yaml"}, exitUsage, `unknown format "yaml"`},
		{"two on stdout", []string{"--format", "json", "--format", "github"}, exitUsage, "both write to standard output"},
		{"empty path", []string{"--format", "json="}, exitUsage, "empty path"},
		{"missing directory", []string{"--format", "json=" + filepath.Join(out, "no", "r.json")}, exitUsage, "does not exist"},
		{"a directory as the file", []string{"--format", "json=" + out}, exitUsage, "is not a regular file"},
		{"every format to files", func() []string {
			var a []string
			for _, f := range []string{"text", "json", "sarif", "github", "junit", "markdown"} {
				a = append(a, "--format", f+"="+filepath.Join(out, "r."+f))
			}
			return a
		}(), exitFindings, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(story)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"lint"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr.String())
			}
			if tt.stderr == "" && stderr.Len() > 0 || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q, want %q", stderr.String(), tt.stderr)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
		})
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
		if fi, err := e.Info(); err != nil || fi.Size() == 0 || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v, %v", e.Name(), fi, err)
		}
	}
	if got := strings.Join(names, " "); got != "r.github r.json r.junit r.markdown r.sarif r.text" {
		t.Errorf("files written: %s", got)
	}
}
