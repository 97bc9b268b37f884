package lint

import (
	"slices"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/evaluate"
	"github.com/ckptlint/ckptlint/internal/finding"
)

// Group is one part of a run's findings, handed on as soon as it is
// complete (Options.Report): a config set's, or the last group, the
// ignore problems (finding.Group).
type Group = finding.Group

// grouper makes a run's groups: it applies the ignore comments a set at a
// time (evaluate.Ignorer) and hands each group to out.
type grouper struct {
	ign           *evaluate.Ignorer // nil: inline ignores are not read
	seen, seenSup finding.Seen
	out           func(Group) error
	// noSources: the groups carry no Sources (Options.NoSources), and
	// bytes is never called.
	noSources bool
}

// newGrouper returns the grouper of a run whose policy rules are
// policyRules, handing groups to out.
func newGrouper(policyRules []*engine.Rule, rules evaluate.RuleSettings, noInline bool, out func(Group) error) *grouper {
	g := &grouper{out: out}
	if !noInline {
		g.ign = evaluate.NewIgnorer(policyRules, rules)
	}
	return g
}

// set hands on the group of the config set name: its findings fs (the
// rule blocks applied) less those the ignores of srcs and of the sets
// before it silence. bytes gives the bytes of a file the findings name.
func (g *grouper) set(name string, srcs []evaluate.Source, fs []finding.Finding, bytes func(path string) []byte) error {
	kept, sup := fs, []finding.Finding(nil)
	if g.ign != nil {
		kept, sup = g.ign.Set(srcs, fs)
	}
	return g.emit(name, kept, sup, bytes)
}

// last hands on the last group, once every set is done: the ignore
// problems and extra, findings on files no set holds (CKPT005, whose
// files' bytes are not read for the reporters).
func (g *grouper) last(extra []finding.Finding, bytes func(path string) []byte) error {
	var ps []finding.Finding
	if g.ign != nil {
		ps = g.ign.Problems()
	}
	if len(extra) == 0 {
		return g.emit("", ps, nil, bytes)
	}
	unread := map[string]bool{}
	for _, f := range extra {
		unread[f.Range.File] = true
	}
	return g.emit("", append(ps, extra...), nil, func(path string) []byte {
		if unread[path] {
			return nil
		}
		return bytes(path)
	})
}

func (g *grouper) emit(name string, kept, sup []finding.Finding, bytes func(path string) []byte) error {
	grp := Group{Set: name, Findings: inOrder(kept, &g.seen), Suppressed: inOrder(sup, &g.seenSup)}
	if g.noSources {
		return g.out(grp)
	}
	for _, list := range [][]finding.Finding{grp.Findings, grp.Suppressed} {
		for _, f := range list {
			path := f.Range.File
			if _, done := grp.Sources[path]; done || path == "" {
				continue
			}
			if grp.Sources == nil {
				grp.Sources = map[string][]byte{}
			}
			grp.Sources[path] = bytes(path)
		}
	}
	return g.out(grp)
}

// inOrder sorts fs and drops the findings seen before.
func inOrder(fs []finding.Finding, seen *finding.Seen) []finding.Finding {
	slices.SortFunc(fs, finding.Compare)
	return slices.DeleteFunc(fs, seen.Again)
}
