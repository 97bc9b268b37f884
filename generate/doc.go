// Package generate holds ckptlint's generators: rule documentation from
// policy METADATA (ruledocs), and, for `ckptlint fix` and
// `ckptlint generate`, the planning of fix operations into file edits and
// the generation of baseline config sets.
package generate
