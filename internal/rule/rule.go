// Package rule is the one description of ckptlint's rules: the Rule type
// and the one list every consumer reads — `ckptlint rules` and `explain`,
// `.ckptlint.hcl` rule-id validation, inline-ignore resolution, every
// reporter and the docs/rules generator.
//
// The list is the rules the Go code reports (builtin.go, declared here
// once) followed by the embedded Rego rules, whose entries are generated
// from their METADATA blocks into rego_gen.go by `go generate ./policies`,
// so reading the list compiles no policy. A test in internal/engine compiles
// the embedded bundle and fails when rego_gen.go is stale. Rules of user
// policy directories (--policy, policy_dirs) are known only once the engine
// has loaded them; With merges them in.
//
// The package imports nothing of ckptlint but finding (for Severity) and
// internal/buildinfo (for documentation URLs of this binary's version).
package rule

import (
	"slices"
	"strings"

	"github.com/ckptlint/ckptlint/internal/buildinfo"
	"github.com/ckptlint/ckptlint/internal/finding"
)

// Rule is a rule's metadata. For a Rego rule it is its METADATA block
// (CONTRIBUTING.md "Adding a rule"); for a builtin rule it is declared in
// builtin.go.
type Rule struct {
	ID          string           `json:"id"`
	Name        string           `json:"name"`
	Severity    finding.Severity `json:"severity"` // default severity
	Fixable     bool             `json:"fixable"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Family      string           `json:"family"`  // "builtin" for the Go-reported rules
	Package     string           `json:"package"` // data.ckptlint.rules.<family>.<rule>; "" for builtins
	Related     []string         `json:"related_resources,omitempty"`
	File        string           `json:"file"`           // policy file, slash-separated; "" for builtins
	Line        int              `json:"line"`           // line of the METADATA block
	User        bool             `json:"user,omitempty"` // loaded from a user policy dir
	// Doc is the repository path (with an optional #anchor) documenting a
	// builtin rule; "" means docs/rules/<ID>.md.
	Doc string `json:"-"`
}

// Builtin reports whether the Go code reports the rule (no policy file).
func (r *Rule) Builtin() bool { return r.Family == BuiltinFamily }

// HelpURI is the rule's documentation: for an embedded or builtin rule its
// page at this binary's version (internal/buildinfo), for a user rule its
// first related resource ("" when it has none).
func (r *Rule) HelpURI() string {
	if r.User {
		if len(r.Related) > 0 {
			return r.Related[0]
		}
		return ""
	}
	if r.Doc != "" {
		return buildinfo.DocURL(r.Doc)
	}
	return buildinfo.DocURL("docs/rules/" + r.ID + ".md")
}

// clone copies r, its slices included, so callers may change what they get.
func clone(r *Rule) *Rule {
	c := *r
	c.Related = slices.Clone(r.Related)
	return &c
}

func cloneAll(rs []*Rule) []*Rule {
	out := make([]*Rule, len(rs))
	for i, r := range rs {
		out[i] = clone(r)
	}
	return out
}

// Builtins returns the rules the Go code reports, ordered by id.
func Builtins() []*Rule { return cloneAll(builtins) }

// Rego returns the embedded Rego rules as their METADATA declares them
// (rego_gen.go), ordered by id.
func Rego() []*Rule { return cloneAll(regoRules) }

// All returns every rule of this binary: the builtin rules, then the
// embedded Rego rules, ordered by id. It compiles nothing.
func All() []*Rule { return With(nil) }

// With returns All followed by the user rules among loaded (those with
// User set; the embedded rules an engine reports are the generated ones),
// the Rego rules ordered by id after the builtins. A user rule whose id an
// embedded rule has is dropped (the engine refuses to load one).
func With(loaded []*Rule) []*Rule {
	out := append(Builtins(), Rego()...)
	seen := make(map[string]bool, len(out))
	for _, r := range out {
		seen[r.ID] = true
	}
	added := false
	for _, r := range loaded {
		if r.User && !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, clone(r))
			added = true
		}
	}
	if added {
		rego := out[len(builtins):]
		slices.SortStableFunc(rego, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	}
	return out
}

// ByID returns the builtin or embedded rule with the given id (case
// insensitive), or nil.
func ByID(id string) *Rule { return Find(All(), id) }

// Find returns the rule of rs whose id (case insensitive) or name is key,
// or nil.
func Find(rs []*Rule, key string) *Rule {
	for _, r := range rs {
		if strings.EqualFold(r.ID, key) || r.Name == key {
			return r
		}
	}
	return nil
}
