package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/ckptlint/ckptlint/internal/finding"
	"github.com/ckptlint/ckptlint/internal/rule"
	"github.com/ckptlint/ckptlint/lint"
)

// ruleFlags are --enable-rule, --disable-rule and --only-rule of lint and
// fix: the rule blocks of .ckptlint.hcl for one run (lint.RuleFlags,
// docs/suppressions.md "Rule blocks").
type ruleFlags struct{ enable, disable, only []string }

func (rf *ruleFlags) register(f *pflag.FlagSet) {
	f.StringSliceVar(&rf.enable, "enable-rule", nil, `turn rule ID on, as rule "ID" { enabled = true } in .ckptlint.hcl does (repeatable or comma-separated)`)
	f.StringSliceVar(&rf.disable, "disable-rule", nil, `turn rule ID off, as rule "ID" { enabled = false } in .ckptlint.hcl does (repeatable or comma-separated)`)
	f.StringSliceVar(&rf.only, "only-rule", nil, "report only these rules (and --enable-rule's): every other rule is off but CKPT000, a file Flink or Hadoop cannot read (repeatable or comma-separated)")
}

// selection checks the ids against the run's rules (case does not
// matter) and returns them for lint.Options.Rules. An unknown id, or one
// both turned on and off, is a usage error.
func (rf *ruleFlags) selection(rules []*rule.Rule) (lint.RuleFlags, error) {
	var out lint.RuleFlags
	for _, fl := range []struct {
		name string
		ids  []string
		dst  *[]string
	}{{"--enable-rule", rf.enable, &out.Enable}, {"--disable-rule", rf.disable, &out.Disable}, {"--only-rule", rf.only, &out.Only}} {
		for _, id := range fl.ids {
			up := strings.ToUpper(strings.TrimSpace(id))
			if !slices.ContainsFunc(rules, func(r *rule.Rule) bool { return r.ID == up }) {
				return lint.RuleFlags{}, fmt.Errorf("%s %s: no such rule; `ckptlint rules` lists them", fl.name, id)
			}
			*fl.dst = append(*fl.dst, up)
		}
	}
	for _, id := range out.Disable {
		for _, other := range []struct {
			name string
			ids  []string
		}{{"--enable-rule", out.Enable}, {"--only-rule", out.Only}} {
			if slices.Contains(other.ids, id) {
				return lint.RuleFlags{}, fmt.Errorf("%s is given to both %s and --disable-rule", id, other.name)
			}
		}
	}
	return out, nil
}

// Display thresholds (--show-level, docs/output.md "What is shown"): the
// formats people read show findings from a severity up, the machine
// formats every finding. A finding at or above --fail-level is always
// shown: a run never fails on a finding it does not show.

// defaultShow is the display threshold of a format when --show-level is
// not given: annotations on a pull request (github) from warning, so an
// info (advice, a fact to declare) does not become an annotation on the
// changed lines; text and Markdown everything. The machine formats (json,
// sarif, junit, codeclimate) hold every finding whatever --show-level says.
func defaultShow(format string) finding.Severity {
	if format == "github" {
		return finding.Warning
	}
	return finding.Info
}

// showFilters reports whether --show-level applies to a format: the ones
// people read.
func showFilters(format string) bool {
	switch format {
	case "text", "github", "markdown":
		return true
	}
	return false
}

// showLevel is the display threshold of format: --show-level (flag, "" when
// not given) or the format's default, never above fail.
func showLevel(format string, flag finding.Severity, fail finding.Severity) finding.Severity {
	if !showFilters(format) {
		return finding.Info
	}
	show := defaultShow(format)
	if flag != 0 {
		show = flag
	}
	return min(show, fail)
}

// shown are the findings of fs at or above level; hidden counts the rest.
func shown(fs []finding.Finding, level finding.Severity) (kept []finding.Finding, hidden int) {
	if level <= finding.Info {
		return fs, 0
	}
	for _, f := range fs {
		if f.Severity >= level {
			kept = append(kept, f)
		} else {
			hidden++
		}
	}
	return kept, hidden
}
