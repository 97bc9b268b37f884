// Package policies embeds ckptlint's Rego rule bundle: the finding helpers
// under lib/ and one rule per file under rules/<family>/, each with its
// _test.rego beside it.
package policies

import "embed"

//go:generate go run ../internal/ruledocs/gendocs.go ..
//go:generate go run ../internal/plangen/gen.go ..

// FS holds every .rego file of the bundle, tests included; the engine
// compiles the non-test modules and `go test` runs the tests.
//
//go:embed lib rules
var FS embed.FS
