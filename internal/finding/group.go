package finding

// Group is one part of a run's findings, in the order a report streams
// them (docs/output.md, "Order"): the findings of one config set, the sets
// in their order (deployment blocks of .ckptlint.hcl, FlinkDeployment
// manifests, Flink configuration directories, Hadoop-only directories,
// each in path order), then a last group with the problems of the ignore
// comments (CKPT001, CKPT002), which are known only once every set is
// done: an ignore in a Hadoop file several sets share is unused only when
// no set used it. lint hands groups on (lint.Options.Report); the
// reporters that stream render them (report.Streamer).
type Group struct {
	// Set names the config set; "" for the last group.
	Set string
	// Findings and Suppressed are sorted (Compare). A finding an earlier
	// group holds (a Hadoop file several sets share) is left out: it is
	// reported with the first set holding it (Seen).
	Findings, Suppressed []Finding
	// Sources holds the bytes of the files the findings name, by display
	// path, for snippets and code point columns.
	Sources map[string][]byte
}
