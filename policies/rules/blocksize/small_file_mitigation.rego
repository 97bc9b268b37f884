# METADATA
# title: Many checkpoint files per checkpoint and no small-file mitigation in use
# description: |
#   Every checkpoint writes roughly one file per stateful operator and subtask (jobs x
#   parallelism x stateful operators x concurrent checkpoints), and on HDFS each small
#   file costs a NameNode create, a block and, while it is written, a whole block of
#   scheduled space on a DataNode (CKPT101). Flink has two ways to write fewer files:
#   state chunks up to execution.checkpointing.data-inline-threshold (20 KiB by default,
#   at most 1 MiB; state.storage.fs.memory-threshold before Flink 1.20) are stored
#   inline in the _metadata file and create no file, and from Flink 1.20 the
#   experimental file merging (execution.checkpointing.file-merging.enabled) combines
#   small checkpoint files into fewer physical files. This hint appears when checkpoints
#   go to HDFS with about 1000 or more files per checkpoint and neither is in use; it
#   reports the count and the options, and changes nothing, because a higher threshold
#   grows _metadata and file merging is experimental.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/#execution-checkpointing-data-inline-threshold
#     description: the data-inline threshold, its default and maximum
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/dev/datastream/fault-tolerance/checkpointing/
#     description: the unified file merging mechanism for checkpoints (experimental, Flink 1.20)
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/release-notes/flink-1.20/
#     description: "FLINK-32070: file merging combines small checkpoint files into fewer larger files"
# custom:
#   id: CKPT107
#   name: checkpoint-small-file-mitigation
#   severity: info
#   fixable: false
package ckptlint.rules.blocksize.small_file_mitigation

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.flink
import data.ckptlint.lib.result

threshold := input.effective.checkpointing.data_inline_threshold

merging := input.effective.checkpointing.file_merging

many := 1000

files := ((flink.jobs.value * flink.parallelism.value) * flink.operators.value) * input.effective.checkpointing.max_concurrent.value

assumed := "" if {
	flink.jobs.declared
	flink.operators.declared
} else := "; jobs and stateful_operators per job are assumed 1 unless declared in a deployment block of .ckptlint.hcl"

# Flink 1.20 or later (declared, or a lower bound from the files).
file_merging_exists if input.versions.flink.major > 1

file_merging_exists if {
	input.versions.flink.major == 1
	input.versions.flink.minor >= 20
	input.versions.flink.source != "unknown"
	input.versions.flink.source != "assumed" # input documents of schema 1 before docs/versions.md
}

options contains sprintf("raise %s (now the default %s) towards its maximum 1mb, so that state chunks up to that size go inline into _metadata instead of into files of their own", [threshold.key, threshold.display]) if {
	not threshold.set
}

options contains "enable execution.checkpointing.file-merging.enabled (experimental since Flink 1.20), which writes the small checkpoint files of a checkpoint into fewer shared files" if {
	file_merging_exists
	merging.value == false
}

at := threshold if threshold.set

else := flink.dir

deny contains f if {
	flink.checkpointing
	flink.on_hdfs
	files >= many
	count(options) > 0
	f := result.finding(at, result.msg(
		sprintf(
			"Each checkpoint writes about %d files to HDFS, each a NameNode create and a whole %s block while written; fewer, larger files would help.",
			[files, bs.client.display],
		),
		sprintf(
			"each checkpoint writes about %d files to HDFS (%d job(s) x parallelism %d (%s) x %d stateful operator(s) x %d concurrent checkpoint(s)%s), and every small file is a NameNode create plus a whole block of scheduled DataNode space while it is written (dfs.blocksize %s, from %s). If much of that state is small, fewer files help: %s",
			[
				files, flink.jobs.value, flink.parallelism.value, flink.parallelism.from, flink.operators.value,
				input.effective.checkpointing.max_concurrent.value, assumed, bs.client.display, bs.source(bs.client),
				concat("; or ", sort(options)),
			],
		),
	))
}
