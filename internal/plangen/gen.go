//go:build ignore

// Command gen writes internal/engine/irplan/plan_gen.go, the embedded rules'
// plan (internal/plangen). Run it with `go generate ./policies` from the
// repository root.
//
// It is a `//go:build ignore` file rather than a main package so that
// `go install ./...` installs ckptlint and nothing else.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ckptlint/ckptlint/internal/plangen"
	"github.com/ckptlint/ckptlint/write"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	src, err := plangen.Source(context.Background())
	if err == nil {
		err = write.File(filepath.Join(root, plangen.Path), src)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "plangen: %v\n", err)
		os.Exit(1)
	}
}
