// Package suppress reads ckptlint's inline ignore comments from the comments
// of a configuration file, as the file's reader found them
// (parsed.Comments), and matches them to findings.
//
// Forms (docs/suppressions.md is the user documentation):
//
//	key: value  # ckptlint:ignore CKPT101 -- why it is safe here
//	# ckptlint:ignore CKPT101,checkpoint-timeout-below-write-stall -- why
//	<!-- ckptlint:ignore CKPT101 - why (XML comments cannot hold "--") -->
//	# ckptlint:ignore-file CKPT605 -- why (only before the first key)
//
// An ignore at the end of a line covers that line; an ignore alone on its
// line covers the next line that is not a comment (and, in Hadoop XML, the
// whole <property> element starting there). A file-level ignore covers the
// whole file and is only valid before the first key or property. Every
// ignore needs a reason; one without a reason, a misplaced file-level
// ignore and a comment that looks like an ignore but is not one silence
// nothing and are reported as CKPT002 invalid-ignore. Ids and names no rule
// has are CKPT002 as well; ids an ignore names that match no finding are
// CKPT001 unused-ignore.
//
// The readers (internal/format/flinkconf, flinkyaml, hadoopxml) find the
// comments the way the consuming system does: in a legacy flink-conf.yaml
// the first '#' of a line starts one (Flink's line parser cuts there); in
// YAML 1.2 (config.yaml, FlinkDeployment manifests) a '#' starts one only
// at the start of a line or after whitespace, and never inside a quoted or
// block scalar; in XML only <!-- --> outside CDATA and processing
// instructions. This package lexes nothing: it reads the directive in each
// comment and places it by the comments' lines, the file's body and its
// <property> elements.
package suppress
