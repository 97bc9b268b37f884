package lint

import (
	"path/filepath"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/internal/discover"
	"github.com/ckptlint/ckptlint/internal/evaluate"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/inputfs"
	"github.com/ckptlint/ckptlint/internal/parsed"
	"github.com/ckptlint/ckptlint/internal/rule"
)

// leftoverFindings are the CKPT005 warnings on the files of t named like a
// fix journal or a staged file (discover.Tree Leftovers), with the rule
// blocks of rules applied. fix never reads a journal from the work tree
// (write/journal.go), so such a file does nothing; a pull request that adds
// one is suspect (issue 25 item 2), and a pull request's check shows a
// warning where a note on standard error would go unseen. They go in the
// last group, with the ignore problems: no set holds them, and an inline
// ignore cannot name a rule the Go code reports.
func leftoverFindings(t *discover.Tree, rules evaluate.RuleSettings) []finding.Finding {
	var ps []evaluate.Pending
	for _, p := range t.Leftovers() {
		var headline, msg string
		if name, ok := inputfs.StagedTarget(filepath.Base(p)); ok {
			headline = "This file is named like one ckptlint fix stages while it writes, but fix never moves it into place on its own, so it does nothing."
			msg = "named like a file ckptlint fix stages beside " + t.Display(filepath.Join(filepath.Dir(p), name)) +
				": fix moves one into place only when its own journal names it, never because of the file itself; " +
				"if no ckptlint fix was interrupted here, a pull request that adds one is suspect: delete it"
		} else {
			headline = "This file is named like a ckptlint fix journal, but ckptlint never reads one from the work tree, so it does nothing."
			msg = "a ckptlint fix journal in the work tree: ckptlint never reads one from here (fix keeps its journal in the git directory, " +
				"or outside git in the user cache directory), so it does nothing; a pull request that adds one is suspect: delete it"
		}
		ps = append(ps, evaluate.Pending{Finding: finding.Finding{
			RuleID: rule.FixLeftover, RuleName: rule.FixLeftoverName, Severity: finding.Warning, Message: headline, Detail: msg,
			Range:  finding.Range{File: t.Display(p), Span: parsed.At(parsed.Top())},
			DocURL: buildinfo.DocURL("docs/suppressions.md") + "#ckpt005-fix-leftover",
		}})
	}
	return evaluate.Settle(ps, rules)
}
