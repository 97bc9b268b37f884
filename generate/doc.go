// Package generate holds ckptlint's generators: for `ckptlint fix` and
// `ckptlint generate`, the planning of fix operations into file edits and
// the generation of baseline config sets. (The rule documentation and rule
// table generated from policy METADATA are internal/ruledocs.)
package generate
