package suppress

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
)

// DocURL documents both rules, at the documentation of this binary's
// version (internal/buildinfo).
var DocURL = buildinfo.DocURL("docs/suppressions.md")

// Rule is a rule an ignore may name, by id or by name.
type Rule struct {
	ID, Name string
	// NotIgnorable, when set, says why no ignore may name the rule; naming
	// it is an invalid ignore.
	NotIgnorable string
}

// Options tune Apply.
type Options struct {
	// Rules are the rules ignores may name. CKPT001 and CKPT002 are added:
	// ignores may not name them.
	Rules []Rule
	// Dormant reports a rule turned off (in .ckptlint.hcl): an ignore
	// naming it matches nothing but is not reported as unused.
	Dormant func(id string) bool
	// Unchecked reports a file whose ignores are not checked for use
	// because its findings are incomplete (a file of its config set could
	// not be read, so no rule ran on it).
	Unchecked func(path string) bool
}

// Outcome is what Apply decided.
type Outcome struct {
	// Findings are the findings no ignore silenced, in input order.
	Findings []finding.Finding
	// Suppressed are the silenced findings, in input order, each with its
	// Suppression (the inline ignore when both an inline and a file-level
	// ignore match).
	Suppressed []finding.Finding
	// Problems are CKPT001 unused-ignore and CKPT002 invalid-ignore
	// findings (warnings), in file order; ConfigSet is left empty.
	Problems []finding.Finding
}

// ref is one rule an ignore names, resolved.
type ref struct {
	written, id string
	used        bool
}

type resolved struct {
	Ignore
	refs []*ref
}

// Apply matches findings to the ignores of files. A finding is silenced by
// an inline ignore of its file whose lines include the finding's start line
// and that names its rule, or by a file-level ignore of its file that names
// its rule. A finding without a line of its own (a default value reported
// at 1:1 with an empty span) is silenced by file-level ignores only.
func Apply(fs []finding.Finding, files []*File, opts Options) Outcome {
	a := NewApplier(opts)
	for _, f := range files {
		a.Add(f)
	}
	var out Outcome
	out.Findings, out.Suppressed = a.Filter(fs)
	out.Problems = a.Problems()
	return out
}

// Applier is Apply a part at a time, for a run that reports each config
// set as soon as it is done: Add each file once, Filter the findings of
// each set once its files are added, and ask for the Problems last, when
// whether an ignore was used is known.
type Applier struct {
	opts     Options
	lookup   func(w string) *Rule
	ids      []string // ids and names, for suggestions
	files    []*File
	byFile   map[string][]*resolved
	problems []finding.Finding // the invalid ignores, in the order of the files
}

// NewApplier returns an Applier with no files.
func NewApplier(opts Options) *Applier {
	rules := append([]Rule{
		{ID: rule.UnusedIgnore, Name: rule.UnusedIgnoreName, NotIgnorable: "it reports the ignores themselves; remove the ignore, or turn the rule off with a rule block in .ckptlint.hcl"},
		{ID: rule.InvalidIgnore, Name: rule.InvalidIgnoreName, NotIgnorable: "it reports the ignores themselves; fix the ignore, or turn the rule off with a rule block in .ckptlint.hcl"},
	}, opts.Rules...)
	byKey := map[string]*Rule{}
	a := &Applier{opts: opts, byFile: map[string][]*resolved{}}
	for i := range rules {
		r := &rules[i]
		byKey[strings.ToUpper(r.ID)] = r
		if r.Name != "" {
			byKey[strings.ToLower(r.Name)] = r
		}
		a.ids = append(a.ids, r.ID)
		if r.Name != "" {
			a.ids = append(a.ids, r.Name)
		}
	}
	a.lookup = func(w string) *Rule {
		if r := byKey[strings.ToUpper(w)]; r != nil {
			return r
		}
		return byKey[strings.ToLower(w)]
	}
	return a
}

// problem is a CKPT001 or CKPT002 finding about ig in f: headline is the
// sentence it leads with, detail what is wrong and how to mend it.
func problem(f *File, id, name string, ig Ignore, headline, detail string) finding.Finding {
	return finding.Finding{
		RuleID: id, RuleName: name, Severity: finding.Warning, Message: headline, Detail: detail,
		Range: finding.Range{File: f.Path, Span: ig.Span}, DocURL: DocURL + "#" + strings.ToLower(id) + "-" + name,
	}
}

// Add takes in the ignores of f (nil: nothing), a file not added before.
func (a *Applier) Add(f *File) {
	if f == nil {
		return
	}
	a.files = append(a.files, f)
	for _, p := range f.Problems {
		a.problems = append(a.problems, problem(f, rule.InvalidIgnore, rule.InvalidIgnoreName, Ignore{Span: p.Span}, p.Headline, p.Msg))
	}
	for _, ig := range f.Ignores {
		rv := &resolved{Ignore: ig}
		for _, w := range ig.Rules {
			r := a.lookup(w)
			switch {
			case r == nil:
				a.problems = append(a.problems, problem(f, rule.InvalidIgnore, rule.InvalidIgnoreName, ig,
					fmt.Sprintf("This %s names %q, which is no rule, so it silences nothing for it.", directiveOf(ig), truncate(w, 40)),
					fmt.Sprintf("%s names %q, which is no rule's id or name, so it silences nothing for it%s (ckptlint rules lists the rules)",
						directiveOf(ig), w, suggest(w, a.ids))))
			case r.NotIgnorable != "":
				a.problems = append(a.problems, problem(f, rule.InvalidIgnore, rule.InvalidIgnoreName, ig,
					fmt.Sprintf("This %s names %s, which no ignore can silence.", directiveOf(ig), r.ID),
					fmt.Sprintf("%s names %s, which cannot be ignored: %s", directiveOf(ig), r.ID, r.NotIgnorable)))
			default:
				rv.refs = append(rv.refs, &ref{written: w, id: r.ID})
			}
		}
		a.byFile[f.Path] = append(a.byFile[f.Path], rv)
	}
}

// Filter splits fs into the findings no ignore added so far silences and
// the silenced ones (with their Suppression), each in input order, and
// notes the ignores it used. When none is silenced, kept is fs itself:
// most sets have no ignore, and a copy of every finding was a few percent
// of a run of many findings.
func (a *Applier) Filter(fs []finding.Finding) (kept, suppressed []finding.Finding) {
	for i, fd := range fs {
		by := a.silencer(fd)
		if by == nil {
			if suppressed != nil {
				kept = append(kept, fd)
			}
			continue
		}
		if suppressed == nil {
			kept = append(make([]finding.Finding, 0, len(fs)-1), fs[:i]...)
		}
		fd.Suppression = &finding.Suppression{Kind: by.Kind, Reason: by.Reason, File: fd.Range.File, Line: by.Span.Start.Line}
		suppressed = append(suppressed, fd)
	}
	switch {
	case suppressed == nil && len(fs) > 0:
		return fs, nil
	case len(kept) == 0:
		return nil, suppressed
	}
	return kept, suppressed
}

// silencer is the ignore that silences fd (an inline ignore before a
// file-level one), nil when none does; it marks every reference to fd's
// rule it matches as used.
func (a *Applier) silencer(fd finding.Finding) *resolved {
	var inline, file *resolved
	for _, ig := range a.byFile[fd.Range.File] {
		if ig.Kind == KindInline && (lineless(fd) || fd.Range.Start.Line < ig.From || fd.Range.Start.Line > ig.To) {
			continue
		}
		for _, rf := range ig.refs {
			if rf.id != fd.RuleID {
				continue
			}
			rf.used = true
			if ig.Kind == KindInline && inline == nil {
				inline = ig
			}
			if ig.Kind == KindFile && file == nil {
				file = ig
			}
		}
	}
	if inline != nil {
		return inline
	}
	return file
}

// Problems are the CKPT002 invalid ignores of the files added, then the
// CKPT001 ignores no finding filtered so far used, in file order;
// ConfigSet is left empty.
func (a *Applier) Problems() []finding.Finding {
	out := slices.Clone(a.problems)
	for _, f := range a.files {
		if a.opts.Unchecked != nil && a.opts.Unchecked(f.Path) {
			continue
		}
		for _, ig := range a.byFile[f.Path] {
			for _, rf := range ig.refs {
				if rf.used || (a.opts.Dormant != nil && a.opts.Dormant(rf.id)) {
					continue
				}
				name, short := rf.written, truncate(rf.written, 40)
				if !strings.EqualFold(rf.written, rf.id) {
					name += " (" + rf.id + ")"
					short += " (" + rf.id + ")"
				}
				where := "in this file"
				if ig.Kind == KindInline {
					where = "on line " + fmt.Sprint(ig.From)
					if ig.To > ig.From {
						where = fmt.Sprintf("on lines %d-%d", ig.From, ig.To)
					}
				}
				fix := "remove it"
				if len(ig.refs) > 1 {
					fix = "remove " + rf.written + " from it"
				}
				if ig.Kind == KindInline {
					fix += ", or put it at the end of the finding's line or alone on the line above"
				}
				out = append(out, problem(f, rule.UnusedIgnore, rule.UnusedIgnoreName, ig.Ignore,
					fmt.Sprintf("This %s of %s matches no finding %s, so it silences nothing.", directiveOf(ig.Ignore), short, where),
					fmt.Sprintf("%s %s matched no finding %s: %s", directiveOf(ig.Ignore), name, where, fix)))
			}
		}
	}
	return out
}

// lineless reports a finding without a line of its own: one about a
// default value, reported at 1:1 with an empty span.
func lineless(f finding.Finding) bool {
	return f.Range.Start == f.Range.End && f.Range.Start.Line <= 1
}

func directiveOf(ig Ignore) string {
	if ig.Kind == KindFile {
		return "ckptlint:ignore-file"
	}
	return "ckptlint:ignore"
}

// suggest returns `; did you mean "X"?` for the rule id or name closest
// to w (an edit distance of at most 2, ignoring case, by agnivade/levenshtein
// as everywhere in ckptlint), or "".
func suggest(w string, ids []string) string {
	best, bestDist := "", 3
	for _, id := range ids {
		if d := levenshtein.ComputeDistance(strings.ToLower(w), strings.ToLower(id)); d < bestDist {
			best, bestDist = id, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}
