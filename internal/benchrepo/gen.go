//go:build ignore

// Command gen writes the benchmark monorepo:
//
//	go run ./internal/benchrepo/gen.go [-n 1000] [-shape teams|mixed] DIR
//
// It is a `//go:build ignore` file rather than a main package so that
// `go install ./...` (what pre-commit's golang hooks run in this repository)
// installs ckptlint and nothing else.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ckptlint/ckptlint/internal/benchrepo"
)

func main() {
	n := flag.Int("n", 1000, "number of config sets")
	shape := flag.String("shape", "teams", "teams (benchrepo.Write) or mixed (benchrepo.WriteMixed: legacy and nested files, many findings)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./internal/benchrepo/gen.go [-n 1000] [-shape teams|mixed] DIR")
		os.Exit(2)
	}
	if err := os.MkdirAll(flag.Arg(0), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	write := benchrepo.Write
	switch *shape {
	case "teams":
	case "mixed":
		write = benchrepo.WriteMixed
	default:
		fmt.Fprintf(os.Stderr, "-shape %q: want teams or mixed\n", *shape)
		os.Exit(2)
	}
	if err := write(flag.Arg(0), *n); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
