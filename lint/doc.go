// Package lint is ckptlint's library entry point. A run is three steps,
// each in its own package and each given only what it reads:
//
//	paths ─▶ discover.Walk (lint/discover: walk, classify, read, parse, mark templates)
//	      ─▶ assemble.Sets (lint/assemble: config sets; lint/versions: each set's versions)
//	      ─▶ evaluate.Each (lint/evaluate: one set at a time on a worker pool, in set order)
//	      ─▶ evaluate.IgnoresIn (ckptlint:ignore comments over all sets) ─▶ sorted findings
//
// Lint runs all of them (Cached with the result cache); Discover the first
// two. Options carries the CLI's flags and .ckptlint.hcl; the functions
// here split it into each step's inputs.
package lint
