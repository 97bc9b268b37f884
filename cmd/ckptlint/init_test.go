package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/model"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
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

// FuzzInitNames: whatever a directory name holds (newlines, quotes, ${ and
// %{, control and bidirectional characters), the file init writes parses,
// holds one deployment whose flink_conf is the name's Flink file and no
// attribute the name smuggled in, and no raw control character (issue 25,
// medium "ckptlint init writes directory names unescaped"). A name not in
// Unicode normal form C gets no deployment, and a comment saying why: HCL
// reads every string in that form (the fuzzer's U+2000, which NFC makes
// U+2002).
func FuzzInitNames(f *testing.F) {
	for _, s := range []string{"flink", "zz\nflink_version = \"1.10\"\n#", "tpl${path.module}%{if true}x", "esc\x1b[2J\u202e",
		`q"\`, "a\r\nb", "::stop-commands::x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !utf8.ValidString(name) || strings.ContainsRune(name, 0) {
			t.Skip() // not a name a file system hands ckptlint as text (HCL strings are Unicode)
		}
		file := name + "/flink-conf.yaml"
		sets := []*model.Set{{Name: name, Flink: &parsed.File{Path: file}, FlinkVersion: model.Resolved{Source: "unknown"},
			HadoopVersion: model.Resolved{Source: "unknown"}}}
		src := initFile(sets)
		for _, r := range string(src) {
			if r != '\n' && !strconv.IsPrint(r) {
				t.Fatalf("raw %U in:\n%s", r, src)
			}
		}
		cfg, diags := config.Parse(".ckptlint.hcl", src)
		if diags.HasErrors() {
			var b strings.Builder
			_ = diags.Write(&b, false)
			t.Fatalf("%q: the init file does not parse:\n%s\n%s", name, b.String(), src)
		}
		if !norm.NFC.IsNormalString(file) {
			// HCL reads every string in normal form C: no declaration can
			// name this path, so init declares none and says why.
			if len(cfg.Deployments) != 0 || !strings.Contains(string(src), "not in Unicode normal form C") {
				t.Fatalf("%q: a path not in NFC: the init file declares %+v\n%s", name, cfg.Deployments, src)
			}
			return
		}
		if len(cfg.Deployments) != 1 || cfg.Deployments[0].FlinkConf != file || cfg.Deployments[0].FlinkVersion != "" ||
			cfg.FlinkVersion != "" || len(cfg.Clusters) != 1 {
			t.Fatalf("%q: the init file declares %+v\n%s", name, cfg.Deployments, src)
		}
	})
}
