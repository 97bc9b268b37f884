package lint

import (
	"slices"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/internal/evaluate"
)

// RuleFlags select rules for one run, as the command line's --enable-rule,
// --disable-rule and --only-rule do (rule ids, upper case). They mirror the
// `rule` blocks of .ckptlint.hcl and go through the same report stage
// (Options.RuleSetting): a flag sets `enabled` over a block, and a block's
// severity still applies.
type RuleFlags struct {
	// Enable turns these rules on (`enabled = true`), a rule block that
	// turns one off included.
	Enable []string
	// Disable turns these rules off (`enabled = false`); it wins over
	// Enable and Only.
	Disable []string
	// Only, when not empty, turns every rule off but these (and Enable).
	// CKPT000, the parse error, is never off: no rule block can turn it
	// off either (evaluate.Pending Fixed).
	Only []string
}

// empty reports whether the flags select nothing.
func (rf RuleFlags) empty() bool {
	return len(rf.Enable) == 0 && len(rf.Disable) == 0 && len(rf.Only) == 0
}

// RuleSetting is the rule block that applies to rule id in a run with
// these options: .ckptlint.hcl's block for it (Config.RuleByID) with the
// rule flags over it; nil when neither says anything. The report stage
// applies it (evaluate.RuleSettings), after the result cache, so a flag
// changes no cache entry.
func (o Options) RuleSetting(id string) *config.Rule {
	block := o.Config.RuleByID(id)
	rf := o.Rules
	if rf.empty() {
		return block
	}
	var on *bool
	switch {
	case slices.Contains(rf.Disable, id):
		on = ptr(false)
	case slices.Contains(rf.Enable, id), slices.Contains(rf.Only, id):
		on = ptr(true)
	case len(rf.Only) > 0:
		on = ptr(false)
	default:
		return block
	}
	r := config.Rule{ID: id}
	if block != nil {
		r = *block
	}
	r.Enabled = on
	return &r
}

func ptr[T any](v T) *T { return &v }

// ruleSettings is the report stage's lookup of the rule settings of a run.
func ruleSettings(o Options) evaluate.RuleSettings {
	if o.Rules.empty() {
		return o.Config.RuleByID
	}
	return o.RuleSetting
}
