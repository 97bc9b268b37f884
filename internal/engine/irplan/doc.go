// Package irplan holds the plan the embedded rules run from (Embedded, in
// plan_gen.go): OPA's plan (an *ir.Policy) of the engine's query over the
// embedded policies, written by `go generate ./policies` (internal/plangen)
// and run by internal/engine. It is a package of its own so that its 3 MB of
// generated source compile once, not with every change to the engine.
//
// The generator builds internal/engine, which imports this package: should an
// OPA upgrade change the ir types so that plan_gen.go no longer compiles,
// replace it with `package irplan; import "github.com/open-policy-agent/opa/v1/ir";
// var Embedded = &ir.Policy{}` and run `go generate ./policies` again.
package irplan
