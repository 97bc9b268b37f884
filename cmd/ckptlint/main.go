// Command ckptlint lints Apache Flink and HDFS configuration for the
// settings that make checkpoints fail, and writes corrected files.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/ckptlint/ckptlint/internal/deploy/render"
	"github.com/ckptlint/ckptlint/internal/gctune"
)

func main() {
	// A child started to render a Helm chart or a kustomization renders
	// it and exits (internal/deploy/render): first, before any flag.
	render.ServeChild()
	gctune.Short()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
