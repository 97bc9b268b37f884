package fix_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/ckptlint/ckptlint/fix"
	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
	"github.com/ckptlint/ckptlint/write"
)

var update = flag.Bool("update", false, "rewrite golden files")

// copyDir copies src, without its .fixed golden files, into a new
// temporary directory and returns it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	linttest.CopyTree(t, src, dst, func(p string) bool { return strings.HasSuffix(p, ".fixed") })
	return dst
}

// fixHere plans a fix of the working directory, writes it and returns the
// plan.
func fixHere(t *testing.T, eng *engine.Engine, rules []string) *fix.Result {
	t.Helper()
	res, err := fix.Run(context.Background(), eng, fix.Options{Lint: lint.Options{Config: linttest.LoadConfig(t, ".")}, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	// Outside git the journal goes to the user cache directory: not the
	// user's own during a test.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if err := write.All(res.Changes, wd); err != nil {
		t.Fatal(err)
	}
	return res
}

// lintHere lints the working directory with its .ckptlint.hcl.
func lintHere(t *testing.T, eng *engine.Engine) []finding.Finding {
	t.Helper()
	return linttest.Lint(t, eng, ".", lint.Options{}).Findings
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./fix -update and review the result)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (run go test ./fix -update and review the diff):\n%s", path, diff.Diff("want", want, "got", got))
	}
}

// TestFixFixtures runs `fix --rule ID` on testdata/rules/<ID>/bad for every
// fixable rule: each changed file must equal its <file>.fixed golden, the
// rule must be gone when the result is linted, and a second fix must change
// nothing.
func TestFixFixtures(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/rules")
	for _, r := range eng.Rules() {
		if !r.Fixable {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			bad := filepath.Join(root, r.ID, "bad")
			work := copyDir(t, bad)
			t.Chdir(work)
			res := fixHere(t, eng, []string{r.ID})
			if len(res.Changes) == 0 {
				t.Fatalf("fix --rule %s changed nothing on its bad fixture", r.ID)
			}
			for _, c := range res.Changes {
				rel, _ := filepath.Rel(work, c.Path)
				golden(t, filepath.Join(bad, rel+".fixed"), c.New)
			}
			for _, f := range lintHere(t, eng) {
				if f.RuleID == r.ID && f.Severity >= finding.Warning && len(f.Fix) > 0 {
					t.Errorf("still reported after fix: %s", f)
				}
			}
			if again := fixHere(t, eng, []string{r.ID}); len(again.Changes) > 0 {
				t.Errorf("a second fix changed %d file(s)", len(again.Changes))
			}
		})
	}
}

// TestFixStories fixes the three stories: `fix --diff` is a reviewed golden,
// the result lints clean at --fail-level error, and a second run is a no-op.
func TestFixStories(t *testing.T) {
	eng := linttest.Engine(t)
	root, _ := filepath.Abs("../testdata/stories")
	for _, name := range []string{"a-blocksize", "b-directoryscanner", "c-lease-expired"} {
		t.Run(name, func(t *testing.T) {
			work := copyDir(t, filepath.Join(root, name))
			t.Chdir(work)
			res := fixHere(t, eng, nil)
			var d strings.Builder
			slices.SortFunc(res.Changes, func(a, b write.Change) int { return strings.Compare(a.Path, b.Path) })
			for _, c := range res.Changes {
				rel, _ := filepath.Rel(work, c.Path)
				d.WriteString(fix.Diff(c, filepath.ToSlash(rel)))
			}
			golden(t, filepath.Join(root, name+".fix.diff"), []byte(d.String()))
			for _, f := range lintHere(t, eng) {
				if f.Severity == finding.Error {
					t.Errorf("error after fix: %s", f)
				}
			}
			if again := fixHere(t, eng, nil); len(again.Changes) > 0 {
				t.Errorf("a second fix changed %d file(s)", len(again.Changes))
			}
		})
	}
}

// TestFixCorpus runs fix on every corpus file (on its own, under its real
// name, as LF and as CRLF): no error, the result still parses, and a second
// run changes nothing.
func TestFixCorpus(t *testing.T) {
	checkFix(t, sharedCorpusFiles(t))
}

// TestFixRealWorld runs the same checks over testdata/realworld, so a clone
// without ../shared runs them too.
func TestFixRealWorld(t *testing.T) {
	checkFix(t, realWorldFiles(t))
}

func checkFix(t *testing.T, files []inputFile) {
	eng := linttest.Engine(t)
	for _, in := range files {
		kind, name, src := in.kind, in.name, in.src
		for _, crlf := range []bool{false, true} {
			body := src
			if crlf {
				body = bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
			}
			work := t.TempDir()
			os.WriteFile(filepath.Join(work, name), body, 0o644)
			t.Chdir(work)
			before := lintHere(t, eng)
			fixHere(t, eng, nil)
			after := lintHere(t, eng)
			if countParse(after) > countParse(before) {
				t.Errorf("%s/%s (crlf=%v): fix produced an unreadable file: %v", kind, in.base, crlf, after)
			}
			if again := fixHere(t, eng, nil); len(again.Changes) > 0 {
				t.Errorf("%s/%s (crlf=%v): a second fix changed %d file(s)", kind, in.base, crlf, len(again.Changes))
			}
			if crlf {
				for _, c := range []string{name, "hdfs-site.xml", "core-site.xml"} {
					if b, err := os.ReadFile(filepath.Join(work, c)); err == nil && bytes.Contains(bytes.ReplaceAll(b, []byte("\r\n"), nil), []byte("\n")) {
						t.Errorf("%s/%s: fix wrote LF line endings into the CRLF file %s", kind, in.base, c)
					}
				}
			}
		}
	}
}

func countParse(fs []finding.Finding) int {
	n := 0
	for _, f := range fs {
		if f.RuleID == rule.ParseError {
			n++
		}
	}
	return n
}

// TestFixIntroducesNothing applies every fix of every rule fixture
// (testdata/rules/*/bad) and story (testdata/stories/*) and lints the
// result at warning level: no rule may report a key at warning or error that
// it did not report before the fix, so no recommended value trips another
// rule (issue 10 §4: 1 MiB once tripped CKPT105).
func TestFixIntroducesNothing(t *testing.T) {
	eng := linttest.Engine(t)
	var dirs []string
	bads, _ := filepath.Glob("../testdata/rules/*/bad")
	stories, _ := filepath.Glob("../testdata/stories/*")
	for _, d := range append(bads, stories...) {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			abs, _ := filepath.Abs(d)
			dirs = append(dirs, abs)
		}
	}
	if len(dirs) < 40 {
		t.Fatalf("found only %d fixture directories", len(dirs))
	}
	seen := func(fs []finding.Finding) map[string]string {
		m := map[string]string{}
		for _, f := range fs {
			if f.Severity >= finding.Warning && f.Suppression == nil {
				m[f.RuleID+" "+f.Key] = f.String()
			}
		}
		return m
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(dir)), dir)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			work := copyDir(t, dir)
			t.Chdir(work)
			before := seen(lintHere(t, eng))
			res := fixHere(t, eng, nil)
			if len(res.Changes) == 0 {
				return
			}
			for id, f := range seen(lintHere(t, eng)) {
				if _, ok := before[id]; !ok {
					t.Errorf("the fix introduced: %s", f)
				}
			}
		})
	}
}
