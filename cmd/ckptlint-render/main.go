// Command ckptlint-render renders Helm charts and kustomizations for
// ckptlint, which starts it as a child process for each chart or
// kustomization a repository holds (internal/deploy/render). It is not
// run by hand; it is installed beside ckptlint (the release archive,
// `go install ./cmd/...`) and found there or on PATH.
package main

import (
	"os"

	"github.com/ckptlint/ckptlint/internal/deploy/render/renderer"
)

func main() { os.Exit(renderer.Main()) }
