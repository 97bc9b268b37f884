// Package engine runs ckptlint's Rego policies with OPA: it parses the
// embedded bundle and any user policy directories (with METADATA
// annotations), checks each rule module against the policy contract,
// compiles everything once with restricted capabilities, prepares one query
// and evaluates it for each config set's input document. It is the only
// package that imports OPA.
//
// The policy contract: a rule module has package ckptlint.rules.<family>.<rule>,
// a package-scoped METADATA block with title, description and custom.id
// (e.g. CKPT101), custom.name (kebab-case), custom.severity
// (error|warning|info) and custom.fixable (bool), and a partial set rule
// `deny contains f if { ... }` whose elements are built with
// data.ckptlint.lib.result helpers.
package engine
