// Package lint is ckptlint's library entry point. A run is one pipeline
// (run.go), each step in its own package and given only what it reads:
//
//	paths ─▶ discover.Walk     (internal/discover: walk, classify, read, within the boundary and budget)
//	      ─▶ assemble.Each     (internal/assemble: config sets as they complete; internal/versions: their versions)
//	      ─▶ per set, on the ordered worker pool (internal/ordered):
//	         Plan.Parse, evaluate.Raw, evaluate.Edits, evaluate.Sources
//	      ─▶ in set order: evaluate.Settle, evaluate.Ignorer ─▶ Group ─▶ Options.Report
//	      ─▶ the last group: the ignore comments' problems
//
// Lint runs it; Cached is Lint with the result cache, which wraps the
// pipeline (its file system, its per-set step, its source of results) and
// changes none of its steps (cache.go); Discover runs it without
// evaluating. Options carries the CLI's flags and .ckptlint.hcl; the run
// splits it into each step's inputs.
package lint
