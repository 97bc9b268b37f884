package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
)

// Result is what reporters see.
type Result struct {
	Version  string            // ckptlint version
	Findings []finding.Finding // sorted
	// Suppressed are the findings an inline ignore silenced, each with its
	// Suppression (SARIF suppressions, the JSON "suppressed" list).
	Suppressed []finding.Finding
	Sets       int // config sets linted
	// ConfigSets names the config sets linted, in order: the groups a
	// streamed format renders from a whole result (Groups). `ckptlint
	// lint` hands those formats the groups themselves (NewStreamer).
	ConfigSets []string
	Files      int // files read
	// Sources holds file contents by display path, for the TTY text form
	// that shows the offending line and for byte-to-code-point columns.
	Sources map[string][]byte
	// Rules is the metadata of every rule of the run (SARIF rules[], JUnit
	// test cases, Markdown links), in order: rule.With of the engine's
	// rules, the one list `ckptlint rules` prints. A finding whose rule is
	// not listed gets an entry built from the finding.
	Rules []*rule.Rule
	// Disabled holds the ids of the rules turned off (enabled = false) in
	// .ckptlint.hcl: SARIF marks them disabled, JUnit skips them.
	Disabled map[string]bool
	// FailLevel is the lowest severity that fails the run (JUnit
	// failures); zero means finding.Error, the --fail-level default.
	FailLevel finding.Severity
	// RepoDir is the working directory relative to the repository root,
	// slash-separated ("" at the root or outside a repository). GitHub
	// resolves SARIF URIs and annotation paths against the repository
	// root, so those formats prefix relative paths with it.
	RepoDir string
}

// Rule is a rule's metadata: the one rule type of internal/rule.
type Rule = rule.Rule

// Reporter renders a result.
type Reporter func(w io.Writer, r Result) error

// Options tune the text reporter.
type Options struct {
	Color   bool // ANSI colours (only on a TTY)
	Snippet bool // source line with a caret under the span (only on a TTY)
	// Compact writes one line per finding, the headline, without its
	// detail (--compact).
	Compact bool
}

// reporters are the output formats, in the order help lists them: adding
// one is a line here and its file (docs/output.md documents each).
var reporters = []struct {
	name string
	new  func(Options) Reporter
}{
	{"text", func(o Options) Reporter { return func(w io.Writer, r Result) error { return Text(w, r, o) } }},
	{"json", always(JSON)},
	{"sarif", always(SARIF)},
	{"github", always(GitHub)},
	{"junit", always(JUnit)}, // text, json, sarif, github and junit stream (stream.go)
	{"markdown", always(Markdown)},
	{"codeclimate", always(CodeClimate)},
}

// ReadsEdits reports whether the format name shows the exact byte edits
// of a finding's fix (finding.Finding Edits): SARIF's fixes do, as
// artifactChanges; the other formats show a fix's operations only, so a
// run reporting only those need not compute the edits (lint.Options
// NoEdits).
func ReadsEdits(name string) bool { return name == "sarif" }

// always is a reporter that takes no Options.
func always(rep Reporter) func(Options) Reporter { return func(Options) Reporter { return rep } }

// Formats lists the reporter names, for flag validation and help. Get
// resolves each of them.
var Formats = func() []string {
	out := make([]string, len(reporters))
	for i, r := range reporters {
		out[i] = r.name
	}
	return out
}()

// Get returns the reporter for name. Every reporter renders the findings
// with their messages clipped (finding.Bounded): values quoted from
// untrusted files are bounded the same way in every format.
func Get(name string, opts Options) (Reporter, error) {
	rep, err := get(name, opts)
	if err != nil {
		return nil, err
	}
	return func(w io.Writer, r Result) error {
		r.Findings, r.Suppressed = finding.Bounded(r.Findings), finding.Bounded(r.Suppressed)
		return rep(w, r)
	}, nil
}

func get(name string, opts Options) (Reporter, error) {
	for _, r := range reporters {
		if r.name == name {
			return r.new(opts), nil
		}
	}
	return nil, fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(Formats, ", "))
}

// Counts returns the number of findings per severity name.
func Counts(fs []finding.Finding) map[string]int {
	m := map[string]int{"error": 0, "warning": 0, "info": 0}
	for _, f := range fs {
		m[f.Severity.String()]++
	}
	return m
}

// listed is a rule as a reporter lists it.
type listed struct {
	*Rule
	HelpURI  string // Rule.HelpURI, or the finding's DocURL for an unlisted rule
	Disabled bool   // Result.Disabled
}

// rules returns r.Rules followed by an entry for every rule a finding or
// suppressed finding names that r.Rules lacks, and an index by id.
func (r Result) rules() ([]listed, map[string]int) {
	out := make([]listed, 0, len(r.Rules))
	for _, ru := range r.Rules {
		out = append(out, listed{Rule: ru, HelpURI: ru.HelpURI(), Disabled: r.Disabled[ru.ID]})
	}
	idx := make(map[string]int, len(out))
	for i, ru := range out {
		if _, dup := idx[ru.ID]; !dup {
			idx[ru.ID] = i
		}
	}
	for _, fs := range [][]finding.Finding{r.Findings, r.Suppressed} {
		for _, f := range fs {
			if _, ok := idx[f.RuleID]; ok {
				continue
			}
			idx[f.RuleID] = len(out)
			out = append(out, unlisted(f))
		}
	}
	return out, idx
}

// failLevel is r.FailLevel with its default applied.
func (r Result) failLevel() finding.Severity {
	if r.FailLevel == 0 {
		return finding.Error
	}
	return r.FailLevel
}
