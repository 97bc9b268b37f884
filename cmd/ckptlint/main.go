// Command ckptlint lints Apache Flink and HDFS configuration for the
// settings that make checkpoints fail, and writes corrected files.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/ckptlint/ckptlint/internal/gctune"
)

func main() {
	gctune.Short()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
