//go:build ignore

// Command parseonly is the parse-only floor of bench/run.sh as a whole
// process: it loads .ckptlint.hcl from the working directory, walks, reads,
// parses and groups the files into config sets exactly as `ckptlint lint`
// does (lint.Discover), and stops there: no policy is compiled, no input is
// built, nothing is evaluated. It prints the number of sets and files.
//
//	go build -o parseonly ./internal/benchrepo/parseonly.go && (cd DIR && parseonly)
//
// A `//go:build ignore` program, like gen.go, so `go install ./...`
// installs ckptlint only.
package main

import (
	"fmt"
	"os"

	"github.com/ckptlint/ckptlint/internal/config"
	"github.com/ckptlint/ckptlint/lint"
)

func main() {
	opts := lint.Options{}
	if _, err := os.Stat(".ckptlint.hcl"); err == nil {
		cfg, diags := config.Load(".ckptlint.hcl")
		if diags.HasErrors() {
			fmt.Fprintln(os.Stderr, diags.Err())
			os.Exit(2)
		}
		opts.Config = cfg
	}
	sets, files, err := lint.Discover(os.Args[1:], opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Printf("%d config sets, %d files\n", len(sets), files)
}
