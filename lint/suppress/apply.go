package suppress

import (
	"fmt"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/lint/finding"
	"github.com/ckptlint/ckptlint/lint/rule"
)

// The rules this package reports, declared in lint/rule with the other
// rules built into the Go code and documented in docs/suppressions.md.
const (
	UnusedRule  = rule.UnusedIgnore
	UnusedName  = rule.UnusedIgnoreName
	InvalidRule = rule.InvalidIgnore
	InvalidName = rule.InvalidIgnoreName
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
	rules := append([]Rule{
		{ID: UnusedRule, Name: UnusedName, NotIgnorable: "it reports the ignores themselves; remove the ignore, or turn the rule off with a rule block in .ckptlint.hcl"},
		{ID: InvalidRule, Name: InvalidName, NotIgnorable: "it reports the ignores themselves; fix the ignore, or turn the rule off with a rule block in .ckptlint.hcl"},
	}, opts.Rules...)
	byKey := map[string]*Rule{}
	var ids []string // ids and names, for suggestions
	for i := range rules {
		r := &rules[i]
		byKey[strings.ToUpper(r.ID)] = r
		if r.Name != "" {
			byKey[strings.ToLower(r.Name)] = r
		}
		ids = append(ids, r.ID)
		if r.Name != "" {
			ids = append(ids, r.Name)
		}
	}
	lookup := func(w string) *Rule {
		if r := byKey[strings.ToUpper(w)]; r != nil {
			return r
		}
		return byKey[strings.ToLower(w)]
	}

	var out Outcome
	problem := func(f *File, id, name string, ig Ignore, msg string) {
		out.Problems = append(out.Problems, finding.Finding{
			RuleID: id, RuleName: name, Severity: finding.Warning, Message: msg,
			Range: finding.Range{File: f.Path, Span: ig.Span}, DocURL: DocURL + "#" + strings.ToLower(id) + "-" + name,
		})
	}
	byFile := map[string][]*resolved{}
	for _, f := range files {
		if f == nil {
			continue
		}
		for _, p := range f.Problems {
			problem(f, InvalidRule, InvalidName, Ignore{Span: p.Span}, p.Msg)
		}
		for _, ig := range f.Ignores {
			rv := &resolved{Ignore: ig}
			for _, w := range ig.Rules {
				r := lookup(w)
				switch {
				case r == nil:
					problem(f, InvalidRule, InvalidName, ig, fmt.Sprintf(
						"%s names %q, which is no rule's id or name, so it silences nothing for it%s (ckptlint rules lists the rules)",
						directiveOf(ig), w, suggest(w, ids)))
				case r.NotIgnorable != "":
					problem(f, InvalidRule, InvalidName, ig, fmt.Sprintf("%s names %s, which cannot be ignored: %s",
						directiveOf(ig), r.ID, r.NotIgnorable))
				default:
					rv.refs = append(rv.refs, &ref{written: w, id: r.ID})
				}
			}
			byFile[f.Path] = append(byFile[f.Path], rv)
		}
	}

	for _, fd := range fs {
		igs := byFile[fd.Range.File]
		var inline, file *resolved
		for _, ig := range igs {
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
		by := inline
		if by == nil {
			by = file
		}
		if by == nil {
			out.Findings = append(out.Findings, fd)
			continue
		}
		fd.Suppression = &finding.Suppression{Kind: by.Kind, Reason: by.Reason, File: fd.Range.File, Line: by.Span.Start.Line}
		out.Suppressed = append(out.Suppressed, fd)
	}

	for _, f := range files {
		if f == nil || (opts.Unchecked != nil && opts.Unchecked(f.Path)) {
			continue
		}
		for _, ig := range byFile[f.Path] {
			for _, rf := range ig.refs {
				if rf.used || (opts.Dormant != nil && opts.Dormant(rf.id)) {
					continue
				}
				name := rf.written
				if !strings.EqualFold(rf.written, rf.id) {
					name += " (" + rf.id + ")"
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
				problem(f, UnusedRule, UnusedName, ig.Ignore, fmt.Sprintf("%s %s matched no finding %s: %s",
					directiveOf(ig.Ignore), name, where, fix))
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
