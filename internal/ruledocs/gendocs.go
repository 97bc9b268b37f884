//go:build ignore

// Command gendocs writes internal/rule/rego_gen.go and docs/rules/ from the
// embedded policies' METADATA.
// Run it with `go generate ./policies` from the repository root.
//
// It is a `//go:build ignore` file rather than a main package so that
// `go install ./...` (what pre-commit's golang hooks run in this repository)
// installs ckptlint and nothing else.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ckptlint/ckptlint/internal/engine"
	"github.com/ckptlint/ckptlint/internal/ruledocs"
	"github.com/ckptlint/ckptlint/write"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	if err := run(root); err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: %v\n", err)
		os.Exit(1)
	}
}

func run(root string) error {
	rules, err := engine.Metadata(engine.Options{})
	if err != nil {
		return err
	}
	files, err := ruledocs.Files(root, rules)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(root, "docs", "rules"), 0o755); err != nil {
		return err
	}
	for p, b := range files {
		if err := write.File(filepath.Join(root, p), b); err != nil {
			return err
		}
	}
	return nil
}
