package lint_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

// reported runs run with Options.Report and checks the groups it hands
// on: one per config set, in the order of the result's sets, then the last
// (Set ""), which alone holds the ignore problems; each group's findings
// sorted, no finding twice, the bytes of every file a finding names in
// the group's Sources; and the result itself holds no findings. It
// returns the result with the groups folded in, as a run without Report
// gives it, to compare with one.
func reported(t *testing.T, label string, opts lint.Options, run func(lint.Options) (*lint.Result, error)) *lint.Result {
	t.Helper()
	var groups []lint.Group
	opts.Report = func(g lint.Group) error {
		groups = append(groups, g)
		return nil
	}
	res, err := run(opts)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	if len(res.Findings)+len(res.Suppressed)+len(res.Sources) != 0 {
		t.Errorf("%s: a run with Report keeps findings or sources", label)
	}
	if len(groups) != len(res.Sets)+1 {
		t.Fatalf("%s: %d groups for %d sets, want one per set and the last", label, len(groups), len(res.Sets))
	}
	res.Sources = map[string][]byte{}
	var seen finding.Seen
	for i, g := range groups {
		want := ""
		if i < len(res.Sets) {
			want = res.Sets[i].Name
		}
		if g.Set != want {
			t.Errorf("%s: group %d is %q, want %q", label, i, g.Set, want)
		}
		for _, list := range [][]finding.Finding{g.Findings, g.Suppressed} {
			if !slices.IsSortedFunc(list, finding.Compare) {
				t.Errorf("%s: group %q is not sorted", label, g.Set)
			}
			for _, f := range list {
				if _, ok := g.Sources[f.Range.File]; !ok && f.Range.File != "" && !opts.NoSources {
					t.Errorf("%s: group %q: no bytes for %s", label, g.Set, f.Range.File)
				}
				if opts.NoSources && g.Sources != nil {
					t.Errorf("%s: group %q: sources with NoSources", label, g.Set)
				}
				if rule.InLastGroup(f.RuleID) != (g.Set == "") {
					t.Errorf("%s: group %q holds %s (the ignore problems and the fix leftovers come in the last group, and only they)", label, g.Set, f)
				}
			}
		}
		for _, f := range g.Findings {
			if seen.Again(f) {
				t.Errorf("%s: %s is reported twice", label, f)
			}
		}
		res.Findings = append(res.Findings, g.Findings...)
		res.Suppressed = append(res.Suppressed, g.Suppressed...)
		maps.Copy(res.Sources, g.Sources)
	}
	return res
}
