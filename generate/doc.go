// Package generate writes new configuration: a starter config set sized for
// a cluster (and deployment) declared in .ckptlint.hcl, for `ckptlint
// generate` (NewStarter; docs/generate.md). Changing existing files is
// package fix's job; putting either on disk is package write's.
package generate
