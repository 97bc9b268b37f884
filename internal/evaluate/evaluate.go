// Package evaluate is what a lint run does with one assembled, parsed
// config set on an evaluation worker: evaluate the policies (Raw), compute
// the exact edits of its fixes (Edits) and read its ignore comments
// (Sources); and, in set order, what the report stage does with the result:
// apply the rule blocks of .ckptlint.hcl (Settle) and the ignore comments
// (Ignorer).
//
// Raw is the unit the result cache sits on: its findings depend only on
// the prepared engine and the set (the bytes of its files and of the
// xi:include targets they read, and the versions and cluster facts
// assembly resolved).
package evaluate

import (
	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/finding"
)

// RuleSettings looks up the rule block .ckptlint.hcl holds for a rule id:
// (*config.Config).RuleByID. nil means no rule blocks.
type RuleSettings func(id string) *config.Rule

func (rs RuleSettings) lookup(id string) *config.Rule {
	if rs == nil {
		return nil
	}
	return rs(id)
}

// disabled reports whether a rule block turns the rule off.
func (rs RuleSettings) disabled(id string) bool {
	rc := rs.lookup(id)
	return rc != nil && rc.Enabled != nil && !*rc.Enabled
}

// apply applies the rule block of f's rule: false when the rule is off,
// else f with the block's severity.
func (rs RuleSettings) apply(f *finding.Finding) bool {
	rc := rs.lookup(f.RuleID)
	if rc == nil {
		return true
	}
	if rc.Enabled != nil && !*rc.Enabled {
		return false
	}
	if sev, err := finding.ParseSeverity(rc.Severity); rc.Severity != "" && err == nil {
		f.Severity = sev
	}
	return true
}
