package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
)

// runOut runs the program in-process and returns its standard output.
func runOut(t *testing.T, want int, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != want {
		t.Fatalf("ckptlint %s: exit %d, want %d; stderr:\n%s", strings.Join(args, " "), code, want, stderr.String())
	}
	return stdout.String()
}

// TestOutputsAgreeWithRuleList fails when any output that describes rules —
// `ckptlint rules`, `rules --json`, `explain`, SARIF rules[], docs/rules —
// disagrees with internal/rule's one list on a rule's id, name, title or
// severity, or leaves a rule out.
func TestOutputsAgreeWithRuleList(t *testing.T) {
	story, err := filepath.Abs("../../testdata/stories/a-blocksize")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Abs("../../docs/rules")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(story) // its .ckptlint.hcl validates against the list too
	all := rule.All()
	if len(all) < 40 || len(rule.Builtins()) != 6 {
		t.Fatalf("the list has %d rules, %d builtin", len(all), len(rule.Builtins()))
	}

	t.Run("rules", func(t *testing.T) {
		out := runOut(t, 0, "rules")
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(all)+1 {
			t.Fatalf("%d lines, want a header and %d rules:\n%s", len(lines), len(all), out)
		}
		for i, r := range all {
			re := regexp.MustCompile(fmt.Sprintf(`^%s +%s +%s +(yes +)?%s$`, r.ID, regexp.QuoteMeta(r.Name), r.Severity, regexp.QuoteMeta(r.Title)))
			if !re.MatchString(lines[i+1]) {
				t.Errorf("line %d %q does not describe %s %s (%s) %q", i+2, lines[i+1], r.ID, r.Name, r.Severity, r.Title)
			}
		}
	})

	t.Run("rules --json", func(t *testing.T) {
		var got []rule.Rule
		if err := json.Unmarshal([]byte(runOut(t, 0, "rules", "--json")), &got); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(all) {
			t.Fatalf("%d rules, want %d", len(got), len(all))
		}
		for i, r := range all {
			g := got[i]
			if g.ID != r.ID || g.Name != r.Name || g.Title != r.Title || g.Severity != r.Severity || g.Fixable != r.Fixable {
				t.Errorf("entry %d = %s %s %s %q, want %s %s %s %q", i, g.ID, g.Name, g.Severity, g.Title, r.ID, r.Name, r.Severity, r.Title)
			}
		}
	})

	t.Run("explain", func(t *testing.T) {
		for _, r := range all {
			fix := ""
			if r.Fixable {
				fix = ", fixable"
			}
			want := fmt.Sprintf("%s %s (%s%s)\n%s\n", r.ID, r.Name, r.Severity, fix, r.Title)
			if got := runOut(t, 0, "explain", r.ID); !strings.HasPrefix(got, want) {
				t.Errorf("explain %s begins %q, want %q", r.ID, firstLines(got, 2), want)
			}
		}
	})

	t.Run("sarif", func(t *testing.T) {
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Rules []struct {
							ID               string `json:"id"`
							Name             string `json:"name"`
							ShortDescription struct {
								Text string `json:"text"`
							} `json:"shortDescription"`
							DefaultConfiguration struct {
								Level string `json:"level"`
							} `json:"defaultConfiguration"`
						} `json:"rules"`
					} `json:"driver"`
				} `json:"tool"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(runOut(t, exitFindings, "lint", "--format", "sarif")), &log); err != nil {
			t.Fatal(err)
		}
		got := log.Runs[0].Tool.Driver.Rules
		if len(got) != len(all) {
			t.Fatalf("rules[] has %d entries, want every rule (%d)", len(got), len(all))
		}
		level := map[finding.Severity]string{finding.Error: "error", finding.Warning: "warning", finding.Info: "note"}
		for i, r := range all {
			g := got[i]
			if g.ID != r.ID || g.Name != r.Name || g.ShortDescription.Text != r.Title || g.DefaultConfiguration.Level != level[r.Severity] {
				t.Errorf("rules[%d] = %s %s %s %q, want %s %s %s %q", i, g.ID, g.Name, g.DefaultConfiguration.Level,
					g.ShortDescription.Text, r.ID, r.Name, level[r.Severity], r.Title)
			}
		}
	})

	t.Run("docs", func(t *testing.T) {
		index, err := os.ReadFile(filepath.Join(docs, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range all {
			row := regexp.MustCompile(fmt.Sprintf(`(?m)^\| \[%s\]\([^)]*\) \| `+"`%s`"+` \| %s \| [^|]* \| %s \|$`,
				r.ID, regexp.QuoteMeta(r.Name), r.Severity, regexp.QuoteMeta(r.Title)))
			if !row.Match(index) {
				t.Errorf("docs/rules/README.md has no row for %s %s (%s) %q", r.ID, r.Name, r.Severity, r.Title)
			}
			if r.Builtin() {
				continue
			}
			page, err := os.ReadFile(filepath.Join(docs, r.ID+".md"))
			if err != nil {
				t.Error(err)
				continue
			}
			for _, want := range []string{
				fmt.Sprintf("# %s %s\n", r.ID, r.Name),
				fmt.Sprintf("**%s**\n", r.Title),
				fmt.Sprintf("| default severity | %s |\n", r.Severity),
			} {
				if !bytes.Contains(page, []byte(want)) {
					t.Errorf("docs/rules/%s.md lacks %q", r.ID, want)
				}
			}
		}
	})
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
