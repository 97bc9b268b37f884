// Command benchrepo writes the benchmark monorepo: benchrepo [-n 1000] DIR.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ckptlint/ckptlint/internal/benchrepo"
)

func main() {
	n := flag.Int("n", 1000, "number of config sets")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: benchrepo [-n 1000] DIR")
		os.Exit(2)
	}
	if err := os.MkdirAll(flag.Arg(0), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := benchrepo.Write(flag.Arg(0), *n); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
