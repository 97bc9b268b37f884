package lint_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/linttest"
	"github.com/ckptlint/ckptlint/internal/rule"
)

// headlinePending lists the rules whose findings still carry one long
// message as their headline (issue 24, item 4): TestHeadlines skips them
// and fails once one of them meets the contract, so the list only shrinks.
var headlinePending = map[string]bool{}

// sentenceBreak is the end of a sentence followed by the start of another.
var sentenceBreak = regexp.MustCompile(`[.!?;]["')\]]? +[A-Z]`)

// digit is a number in a headline: a headline with numbers has the
// arithmetic behind them in its detail.
var digit = regexp.MustCompile(`[0-9]`)

// checkHeadline reports how f's headline breaks the contract of
// finding.Finding.Message: one sentence, ending in a full stop, of at most
// finding.MaxHeadline characters, with a detail when it carries numbers.
func checkHeadline(f finding.Finding) string {
	h := f.Message
	switch {
	case utf8.RuneCountInString(h) > finding.MaxHeadline:
		return "longer than 160 characters"
	case strings.ContainsAny(h, "\n\r"):
		return "more than one line"
	case !strings.HasSuffix(h, "."):
		return "does not end a sentence with a full stop"
	case sentenceBreak.MatchString(h):
		return "more than one sentence"
	case digit.MatchString(h) && f.Detail == "":
		return "carries numbers but no detail"
	}
	return ""
}

// TestHeadlines holds every finding of the rule fixtures, the stories and
// the real-world deployments to the headline contract.
func TestHeadlines(t *testing.T) {
	eng := linttest.Engine(t)
	var dirs []string
	for _, pat := range []string{"../testdata/rules/*/bad", "../testdata/stories/*", "../testdata/realworld/*", "../testdata/templates/*", "../testdata/suppress/*", "../testdata/k8s/*"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range m {
			if d, err = filepath.Abs(d); err != nil {
				t.Fatal(err)
			}
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) < 50 {
		t.Fatalf("only %d fixture directories found", len(dirs))
	}
	failing := map[string]bool{}
	seen := map[string]bool{}
	for _, d := range dirs {
		for _, f := range lintDir(t, eng, d) {
			seen[f.RuleID] = true
			why := checkHeadline(f)
			if why != "" {
				failing[f.RuleID] = true
			}
			if headlinePending[f.RuleID] {
				continue
			}
			if why != "" {
				t.Errorf("%s: %s headline %s (%d characters):\n  %s", d, f.RuleID, why, utf8.RuneCountInString(f.Message), f.Message)
			}
		}
	}
	for id := range headlinePending {
		if !seen[id] {
			t.Errorf("%s is pending but no fixture reports it", id)
		} else if !failing[id] {
			t.Errorf("%s meets the headline contract: remove it from headlinePending", id)
		}
	}
	if len(seen) < 40 {
		t.Errorf("only %d rules reported by the fixtures", len(seen))
	}
	// The findings the Go code builds are held to the contract too: the
	// fixtures report each of them (CKPT000 and CKPT005 in testdata/rules,
	// the ignore problems in testdata/suppress, CKPT003 in
	// testdata/templates).
	for _, r := range rule.Builtins() {
		if !seen[r.ID] {
			t.Errorf("no fixture reports %s %s: its headline is not checked", r.ID, r.Name)
		}
	}
}

func TestCheckHeadline(t *testing.T) {
	for _, tt := range []struct {
		f    finding.Finding
		want string
	}{
		{finding.Finding{Message: "dfs.blocksize 1m is below the 1 MB minimum, so every write fails.", Detail: "because"}, ""},
		{finding.Finding{Message: "A key is unknown to Flink, which ignores it."}, ""},
		{finding.Finding{Message: "dfs.blocksize 1m is below the minimum.", Detail: ""}, "carries numbers but no detail"},
		{finding.Finding{Message: "It fails. Set it to 2.", Detail: "x"}, "more than one sentence"},
		{finding.Finding{Message: "It fails", Detail: "x"}, "does not end a sentence with a full stop"},
		{finding.Finding{Message: strings.Repeat("a", 160) + ".", Detail: "x"}, "longer than 160 characters"},
	} {
		if got := checkHeadline(tt.f); got != tt.want {
			t.Errorf("checkHeadline(%q) = %q, want %q", tt.f.Message, got, tt.want)
		}
	}
}
