# METADATA
# title: Small blocks cap the size of a checkpoint or savepoint file
# description: |
#   The NameNode allows at most dfs.namenode.fs-limits.max-blocks-per-file blocks
#   (10000 by default) in one file and refuses the next block with "File has reached
#   the limit on maximum number of blocks (dfs.namenode.fs-limits.max-blocks-per-file):
#   10000 >= 10000", so no file can grow beyond dfs.blocksize x max-blocks-per-file.
#   With the small block sizes that keep many tiny checkpoint files schedulable
#   (CKPT101), that cap gets close to real state sizes: 1 MiB blocks stop every file at
#   about 9.8 GiB. A full checkpoint or a savepoint writes the whole keyed state of one
#   subtask as a single file (Flink's FullSnapshotAsyncWriter), and RocksDB state is
#   bounded by local disk rather than memory, so a subtask with more state than the cap
#   can never complete a savepoint or a full checkpoint. Whether one does depends on a number
#   the configuration does not hold, the state size of the largest subtask: without it the
#   finding is an info that names the fact that decides it, state_size in the deployment block
#   of .ckptlint.hcl (the largest subtask's checkpointed state, from the Flink web UI's
#   checkpoint details, which `ckptlint facts --jobmanager` reads from the REST API's
#   per-subtask state_size). With it, a subtask at or above the cap is a warning with the
#   numbers, one above half the cap a warning that growth will reach it, and one below half
#   the cap nothing. The deployment's observed checkpoint_size (the p99 checkpointed size of
#   the whole job) decides it only when, spread over parallelism x the declared
#   stateful_operators subtasks, it already reaches the cap: the largest subtask holds at
#   least that average. The rule reports caps below 16 GiB per file: the smallest power of
#   two above the 9.8 GiB of 1 MiB blocks, and far below the 1.2 TiB of the default 128 MiB.
#   With the DataNode facts declared the rule proposes the block size CKPT101 and `ckptlint
#   generate` choose (the largest round size that leaves 10x scheduling headroom) when it keeps
#   16 GiB per file; without them, the smallest block size that does (2m with the default
#   limit), if the DataNodes' scheduled-space headroom allows it; otherwise raise
#   dfs.namenode.fs-limits.max-blocks-per-file on the NameNode.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/namenode/FSDirWriteFileOp.java
#     description: the max-blocks-per-file check when a block is added, and its error text
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/state/FullSnapshotAsyncWriter.java
#     description: a full snapshot or savepoint writes all key groups of a subtask into one checkpoint stream
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: dfs.namenode.fs-limits.max-blocks-per-file (default 10000)
# custom:
#   id: CKPT105
#   name: blocksize-caps-file-size
#   severity: warning
#   fixable: false
package ckptlint.rules.blocksize.max_file_size

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.facts
import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.units
import data.ckptlint.rules.blocksize.scheduled_space

client := bs.client

max_blocks := input.effective.hdfs_cluster.max_blocks_per_file

limit := 17179869184 # 16 GiB

cap := client.value * max_blocks.value

mib := 1048576

# The smallest whole number of MiB per block that keeps `limit` per file,
# never below the NameNode's minimum block size.
suggested := max([ceil(limit / (max_blocks.value * mib)) * mib, bs.minimum.value])

# The block count per file that keeps `limit` at the current block size.
needed_blocks := ceil(limit / client.value)

at := client if client.loc

else := max_blocks if max_blocks.loc

else := bs.hdfs_dir

backend := lower(t) if {
	t := input.effective.state_backend.type.value
	is_string(t)
} else := ""

# Heap backends (the default when none is configured) hold a subtask's state
# on the TaskManager heap, which rarely reaches the cap: info, not warning.
heap_backend if backend in {"", "hashmap", "filesystem", "jobmanager"}

backend_note := " (RocksDB state is bounded by local disk rather than memory; incremental checkpoints upload its SST files one by one, but savepoints and full checkpoints write one file)" if {
	backend == "rocksdb"
} else := sprintf(" (the %s state backend keeps that state on the TaskManager heap, where it rarely grows this large)", [backend_name]) if {
	heap_backend
} else := ""

backend_name := backend if backend != ""

else := "default (hashmap)"

# What to do, with CKPT101's scheduled-space arithmetic when the cluster
# facts are declared: the suggested size must keep at least 2x headroom.
advice := sprintf(
	"Set dfs.blocksize to %s (%s per file), the size CKPT101 recommends: each DataNode can still schedule %d blocks at once for the about %d checkpoint files in flight per DataNode; or raise dfs.namenode.fs-limits.max-blocks-per-file to at least %d on the NameNode",
	[bs.hadoop_size(rec), units.bytes(rec * max_blocks.value), scheduled_space.capacity(rec), scheduled_space.per_dn, needed_blocks],
) if {
	input.cluster.datanode_free_bytes
	rec := scheduled_space.proposed
	rec * max_blocks.value >= limit
	scheduled_space.per_dn * 2 < scheduled_space.capacity(rec)
} else := sprintf(
	"A larger dfs.blocksize would leave too little scheduled space on the DataNodes (at %s each DataNode can schedule %d blocks at once for about %d checkpoint files in flight, CKPT101): raise dfs.namenode.fs-limits.max-blocks-per-file to at least %d on the NameNode instead",
	[bs.hadoop_size(suggested), scheduled_space.capacity(suggested), scheduled_space.per_dn, needed_blocks],
) if {
	input.cluster.datanode_free_bytes
	scheduled_space.per_dn
} else := sprintf(
	"Set dfs.blocksize to %s (%s per file) if the DataNodes' scheduled-space headroom allows it (declare datanodes and datanode_free_bytes in a cluster block of .ckptlint.hcl to let CKPT101 check it), or raise dfs.namenode.fs-limits.max-blocks-per-file to at least %d on the NameNode",
	[bs.hadoop_size(suggested), units.bytes(suggested * max_blocks.value), needed_blocks],
)

deny contains f if {
	input.flink
	bs.writes_hdfs
	not client.error
	not max_blocks.error
	client.value > 0
	max_blocks.value > 0
	cap < limit
	not state_below
	f := with_severity(result.msg(headline, concat("", [
		sprintf(
			"dfs.blocksize %s (from %s) x dfs.namenode.fs-limits.max-blocks-per-file %d (from %s) caps every HDFS file at %s%s: the NameNode refuses the next block with \"File has reached the limit on maximum number of blocks (dfs.namenode.fs-limits.max-blocks-per-file): %d >= %d\". A savepoint or full checkpoint writes each subtask's keyed state as one file%s, so a subtask with more than %s of state cannot complete one. ",
			[
				client.display, bs.source(client), max_blocks.value, bs.source(max_blocks), units.bytes(cap), hadoop_note,
				max_blocks.value, max_blocks.value, backend_note, units.bytes(cap),
			],
		),
		evidence_note,
		advice,
	])))
}

headline := sprintf(
	"dfs.blocksize %s x max-blocks-per-file %d caps every HDFS file at %s: a savepoint of a subtask with more state cannot complete.",
	[client.display, max_blocks.value, units.bytes(cap)],
)

# state is the declared or observed checkpointed state of the largest
# subtask (state_size; `ckptlint facts` reads the REST API's per-subtask
# state_size of the latest completed checkpoint).
state := input.deployment.state_size if input.deployment.state_size >= 0

state_origin := facts.origin(input.deployment, "state_size", "state_size in .ckptlint.hcl")

state_over if state >= cap

state_near if {
	not state_over
	state * 2 >= cap
}

# A subtask below half the cap: the evidence says the cap is far.
state_below if {
	state
	state * 2 < cap
}

# observed is the p99 checkpointed size `ckptlint facts` read from the
# running job (/jobs/:jobid/checkpoints summary.checkpointed_size): the
# whole job, every subtask of every stateful operator. Spread over
# parallelism x the declared stateful operators it is the average subtask,
# which the largest subtask reaches at least; for an incremental checkpoint
# it counts only what that checkpoint uploaded, so it bounds a subtask's full
# state from below only.
observed := input.deployment.checkpoint_size

per_subtask := observed / (flink.parallelism.value * flink.operators.value) if {
	observed > 0
	flink.parallelism.value > 0
	flink.operators.declared
}

observed_over if {
	not state
	per_subtask >= cap
}

evidence_note := sprintf(
	"The largest subtask holds %s of state (%s), at or above the cap: its savepoints and full checkpoints cannot complete (unless that state is split over several chained stateful operators, which write a file each). ",
	[units.bytes(state), state_origin],
) if {
	state_over
} else := sprintf(
	"The largest subtask holds %s of state (%s), more than half the cap: growth of the state will reach it. ",
	[units.bytes(state), state_origin],
) if {
	state_near
} else := sprintf(
	"The observed p99 checkpointed size %s (%s) over parallelism %d x %d stateful operator(s) is about %s per subtask, already at or above the cap, and the largest subtask holds at least that: savepoints and full checkpoints of this job cannot complete. ",
	[units.bytes(observed), facts.origin(input.deployment, "checkpoint_size", "checkpoint_size in .ckptlint.hcl"), flink.parallelism.value, flink.operators.value, units.bytes(per_subtask)],
) if {
	observed_over
} else := sprintf(
	"Whether a subtask comes near that size is not known: %sdeclare state_size, the checkpointed state of the job's largest subtask, in the deployment block of .ckptlint.hcl (the Flink web UI's checkpoint details list it per subtask; `ckptlint facts --jobmanager URL` reads it from the REST API) to decide it. ",
	[observed_text],
)

observed_text := sprintf(
	"the observed p99 checkpointed size %s (%s) is about %s per subtask over parallelism %d x %d stateful operator(s), below the cap, but an average and, for an incremental checkpoint, only what it uploaded; ",
	[units.bytes(observed), facts.origin(input.deployment, "checkpoint_size", "checkpoint_size in .ckptlint.hcl"), units.bytes(per_subtask), flink.parallelism.value, flink.operators.value],
) if {
	per_subtask
} else := ""

# The default limit depends on the Hadoop release (internal/model/hadoop.go:
# 1048576 blocks in 2.1 to 2.x, HDFS-4305; 10000 from 3.0, HDFS-5517):
# with the default and no known Hadoop version the cap is that of Hadoop 3.
hadoop_note := sprintf(" on Hadoop 3.0 or later (the default is %s; declare hadoop_version to decide which applies)", [max_blocks.varies]) if {
	max_blocks.varies
} else := ""

# A warning needs the evidence: a state size at or near the cap, or an
# observed average above it, and a limit that is known. Without it the
# finding is an info.
with_severity(msg) := result.info(at, msg) if {
	max_blocks.varies
} else := result.finding(at, msg) if {
	state_over
} else := result.finding(at, msg) if {
	state_near
} else := result.finding(at, msg) if {
	observed_over
} else := result.info(at, msg)
