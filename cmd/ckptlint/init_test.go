package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/lint/config"
	"github.com/ckptlint/ckptlint/lint/rule"
)

// TestInitPlaceholdersAreValid writes the init file of every story, checks
// that it loads as it is, and that it still loads and validates with every
// placeholder uncommented: a user who fills the file in starts from valid
// HCL with the right attribute names and value syntax.
func TestInitPlaceholdersAreValid(t *testing.T) {
	stories, err := filepath.Abs("../../testdata/stories")
	if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(stories)
	if err != nil {
		t.Fatal(err)
	}
	placeholder := regexp.MustCompile(`(?m)^(\s*)# ([a-z_]+ = )`)
	var ids []string
	for _, r := range append(rule.Builtins(), linttest.Engine(t).Rules()...) {
		ids = append(ids, r.ID)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			t.Chdir(filepath.Join(stories, e.Name()))
			sets, _, err := lint.Discover(nil, lint.Options{})
			if err != nil {
				t.Fatal(err)
			}
			src := initFile(sets)
			if !strings.Contains(string(src), "deployment \"") || !strings.Contains(string(src), "cluster \"main\" {") {
				t.Fatalf("no deployment or cluster block:\n%s", src)
			}
			for name, text := range map[string]string{"as written": string(src), "uncommented": placeholder.ReplaceAllString(string(src), "$1$2")} {
				p := filepath.Join(t.TempDir(), config.FileName)
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				cfg, diags := config.Load(p)
				if !diags.HasErrors() {
					diags.Append(cfg.Validate(ids)...)
				}
				if diags.HasErrors() {
					var b strings.Builder
					_ = diags.Write(&b, false)
					t.Errorf("%s: the init file does not load:\n%s\n%s", name, b.String(), text)
				}
			}
		})
	}
}
