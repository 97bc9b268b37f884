// Package engine runs ckptlint's Rego policies with OPA. The embedded rules
// run from a plan OPA's planner made of them at build time (Plan, written
// into internal/engine/irplan by `go generate ./policies`; plan.go evaluates
// it with OPA's built-ins), so a run neither parses nor compiles them. User
// policy directories are parsed with their METADATA annotations, checked
// against the policy contract and compiled with every check and restricted
// capabilities, together with the embedded lib/ helpers, into one prepared
// query on OPA's topdown. Eval evaluates both for each config set's input
// document, with a deadline, and merges their findings.
//
// The policy contract: a rule module has package ckptlint.rules.<family>.<rule>,
// a package-scoped METADATA block with title, description and custom.id
// (e.g. CKPT101), custom.name (kebab-case), custom.severity
// (error|warning|info) and custom.fixable (bool), and a partial set rule
// `deny contains f if { ... }` whose elements are built with
// data.ckptlint.lib.result helpers.
package engine
