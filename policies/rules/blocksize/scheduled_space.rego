# METADATA
# title: DataNodes cannot schedule the concurrent checkpoint files at this block size
# description: |
#   The NameNode reserves a whole block (dfs.blocksize) on a DataNode for every block
#   scheduled there and rejects the node once blocksScheduled exceeds
#   remaining / blockSize - minBlocksForWrite (Hadoop's
#   DatanodeDescriptor.chooseStorage4Block). Checkpoint files are tiny, but each one reserves a full block: with the
#   default 128 MiB a DataNode with 43 GiB free can hold only 344 files in flight. When
#   every DataNode is rejected, checkpoint writes fail with "could only be written to 0 of
#   the 1 minReplication nodes". The fix is a smaller client-side dfs.blocksize where Flink's HDFS client
#   reads it: the largest of 128m, 64m, 32m, 16m, 8m, 4m, 2m and 1m at which each DataNode
#   can schedule at least 10x the checkpoint files in flight (else more than 2x, else the
#   NameNode's dfs.namenode.fs-limits.min-block-size), so that a checkpoint file can still
#   grow to dfs.blocksize x dfs.namenode.fs-limits.max-blocks-per-file (CKPT105) and
#   `ckptlint generate` writes the same value.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/blockmanagement/DatanodeDescriptor.java
#     description: DatanodeDescriptor.chooseStorage4Block, the scheduled-space check
#   - ref: https://issues.apache.org/jira/browse/HDFS-15086
#     description: "HDFS-15086: block scheduled counter never decremented for deleted blocks"
# custom:
#   id: CKPT101
#   name: blocksize-scheduled-space
#   severity: error
#   fixable: true
package ckptlint.rules.blocksize.scheduled_space

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.facts
import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.units

blocksize := input.effective.hdfs_client.blocksize

min_for_write := input.effective.hdfs_cluster.min_blocks_for_write.value

# Replicas land on min(replication, datanodes) nodes.
replicas := min([input.effective.hdfs_client.replication.value, input.cluster.datanodes])

# Blocks one DataNode accepts at once: it is rejected when
# scheduled > remaining/blockSize - minBlocksForWrite (Hadoop's
# DatanodeDescriptor.chooseStorage4Block).
capacity(bs) := (floor(input.cluster.datanode_free_bytes / bs) - min_for_write) + 1

files := ((flink.jobs.value * flink.parallelism.value) * flink.operators.value) * input.effective.checkpointing.max_concurrent.value

other := object.get(input.cluster, "other_writers", 0)

# scheduled is the largest number of blocks already scheduled on one
# DataNode (NameNodeInfo LiveNodes "blockScheduled", observed by `ckptlint
# facts`): the NameNode counts them against the same remaining space
# (DatanodeDescriptor.chooseStorage4Block adds getBlocksScheduled).
scheduled := object.get(input.cluster, "datanode_blocks_scheduled", 0)

per_dn := (ceil((files * replicas) / input.cluster.datanodes) + other) + scheduled

# proposed is the largest round block size (128m, 64m, ... 1m; never below
# the NameNode's minimum, a multiple of dfs.bytes-per-checksum) at which each
# DataNode can schedule 10x the checkpoint files in flight (lib/blocksize).
proposed := bs.recommend({s: capacity(s) | some s in bs.candidates}, per_dn)

max_blocks := input.effective.hdfs_cluster.max_blocks_per_file.value

# why_proposed says how the proposed size was chosen, and what it means for
# the largest file (CKPT105).
why_proposed := sprintf(
	"%d blocks, %s the about %d files in flight: %s%s",
	[capacity(proposed), ratio(proposed), per_dn, choice, cap_note],
)

ratio(s) := sprintf("%dx", [floor(capacity(s) / per_dn)]) if per_dn > 0

else := "many times"

choice := sprintf("%s is the largest of 128m, 64m, 32m, 16m, 8m, 4m, 2m and 1m that leaves at least %dx", [units_hadoop(proposed), bs.headroom]) if {
	capacity(proposed) >= bs.headroom * per_dn
} else := sprintf("no round size leaves %dx, and %s is the largest that leaves more than 2x", [bs.headroom, units_hadoop(proposed)]) if {
	capacity(proposed) > 2 * per_dn
} else := sprintf("%s is the smallest block size the NameNode accepts, and even it leaves less than 2x: the cluster needs more DataNodes or free space, or the jobs fewer checkpoint files", [units_hadoop(proposed)])

cap_note := "" if {
	is_number(max_blocks)
	proposed * max_blocks >= bs.file_cap
} else := sprintf("; it caps one file at %s (x dfs.namenode.fs-limits.max-blocks-per-file %d, CKPT105): raise that limit on the NameNode to at least %d so a savepoint or full checkpoint can reach 16 GiB", [units.bytes(proposed * max_blocks), max_blocks, ceil(bs.file_cap / proposed)]) if {
	is_number(max_blocks)
} else := ""

at := blocksize if blocksize.set

else := flink.dir

# source names the file and how the deployment brings it to the
# processes (bs.source).
source := bs.source(blocksize)

assumed := "" if {
	flink.jobs.declared
	flink.operators.declared
} else := "; jobs and stateful_operators per job are assumed 1: declare them in a deployment block of .ckptlint.hcl"

arith := sprintf(
	"%d job(s) x parallelism %d (%s) x %d stateful operator(s) x %d concurrent checkpoint(s) = %d files, x %d replica(s) over %d DataNodes = %d per DataNode%s",
	[
		flink.jobs.value, flink.parallelism.value, flink.parallelism.from, flink.operators.value,
		input.effective.checkpointing.max_concurrent.value, files, replicas, input.cluster.datanodes,
		per_dn, sprintf_other,
	],
)

sprintf_other := sprintf(" (including %s)", [concat(" and ", extra)]) if count(extra) > 0

else := ""

# extra lists what per_dn adds to the checkpoint files, in order.
extra := [e | some e in [other_text, scheduled_text]; e != ""]

other_text := sprintf("%d other writers", [other]) if other > 0

else := ""

scheduled_text := sprintf("%d blocks already scheduled on the busiest DataNode, datanode_blocks_scheduled", [scheduled]) if scheduled > 0

else := ""

# facts_used names the observed cluster facts the message relies on.
facts_used := facts.observed_note(input.cluster, ["datanodes", "datanode_free_bytes", "datanode_blocks_scheduled", "other_writers"])

message(level, headline) := result.msg(headline, detail(level))

headline_full := sprintf(
	"dfs.blocksize %s lets each DataNode schedule only %d blocks for about %d checkpoint files in flight, so HDFS rejects every DataNode.",
	[blocksize.display, capacity(blocksize.value), per_dn],
)

headline_tight := sprintf(
	"dfs.blocksize %s lets each DataNode schedule %d blocks, less than 2x the about %d checkpoint files in flight, so writes can fail.",
	[blocksize.display, capacity(blocksize.value), per_dn],
)

detail(level) := sprintf(
	"dfs.blocksize %s (from %s) lets each DataNode schedule only %d blocks at once (%s free / %s - %d); checkpoints keep about %d files in flight per DataNode (%s)%s%s: %s. Set dfs.blocksize to %s where Flink's HDFS client reads it: each DataNode can then schedule %s",
	[
		blocksize.display, source, capacity(blocksize.value), units.bytes(input.cluster.datanode_free_bytes),
		blocksize.display, min_for_write, per_dn, arith, facts_used, assumed, level,
		units.bytes(proposed), why_proposed,
	],
)

failure := sprintf("the NameNode then rejects every DataNode and writes fail with \"could only be written to 0 of the %d minReplication nodes. There are %d datanode(s) running and no node(s) are excluded\"", [input.effective.hdfs_cluster.replication_min.value, input.cluster.datanodes])

fix := [result.set("hdfs-client", "dfs.blocksize", units_hadoop(proposed))]

units_hadoop(n) := sprintf("%dm", [n / 1048576]) if n % 1048576 == 0

else := sprintf("%d", [n])

# The guards run cheapest first: proposed (a capacity per candidate size)
# is computed only for a block size that already fails the headroom check.
deny contains f if {
	flink.checkpointing
	flink.on_hdfs
	input.cluster.datanodes
	input.cluster.datanode_free_bytes
	not blocksize.error
	is_number(blocksize.value)
	blocksize.value > 0
	per_dn >= capacity(blocksize.value)
	blocksize.value > proposed
	count(guessed) == 0
	f := result.fix(at, message(failure, headline_full), fix)
}

# The block size is a guess when no file ckptlint read sets it and Flink names
# a Hadoop configuration directory that is not in the repository (CKPT111):
# report a warning, never an error on a guess.
deny contains f if {
	flink.checkpointing
	flink.on_hdfs
	input.cluster.datanodes
	input.cluster.datanode_free_bytes
	not blocksize.error
	is_number(blocksize.value)
	blocksize.value > 0
	per_dn >= capacity(blocksize.value)
	blocksize.value > proposed
	count(guessed) > 0
	dirs := concat(" and ", sort([sprintf("%s: %s", [ref.key, trim_space(ref.value)]) | some ref in guessed]))
	f := object.union(
		result.fix(at, result.msg(headline_full, sprintf("%s (assumed: %s is not in the repository, so ckptlint cannot see whether it sets dfs.blocksize)", [detail(failure), dirs])), fix),
		{"severity": "warning"},
	)
}

guessed contains ref if {
	not blocksize.set
	some ref in input.hadoop.conf_refs
	ref.resolved == ""
	not flink2_hadoopconf(ref)
}

flink2_hadoopconf(ref) if {
	ref.key == "fs.hdfs.hadoopconf"
	input.versions.flink.major >= 2
}

deny contains f if {
	flink.checkpointing
	flink.on_hdfs
	input.cluster.datanodes
	input.cluster.datanode_free_bytes
	not blocksize.error
	is_number(blocksize.value)
	blocksize.value > 0
	per_dn < capacity(blocksize.value)
	per_dn * 2 >= capacity(blocksize.value)
	blocksize.value > proposed
	f := object.union(
		result.fix(at, message("less than 2x headroom, and blocksScheduled only rolls over every 10 minutes (leaked counts stay up to 20 minutes, HDFS-15086)", headline_tight), fix),
		{"severity": "warning"},
	)
}

deny contains f if {
	flink.checkpointing
	flink.on_hdfs
	blocksize.value > 8388608
	not blocksize.error
	missing := [k | some k in ["datanodes", "datanode_free_bytes"]; not input.cluster[k]]
	count(missing) > 0
	f := result.info(at, result.msg(
		sprintf(
			"Every checkpoint file reserves a whole %s block on a DataNode; declare %s so ckptlint can check the DataNodes have room.",
			[blocksize.display, concat(" and ", missing)],
		),
		sprintf(
			"checkpoints go to HDFS with dfs.blocksize %s (from %s), and every checkpoint file reserves a whole block on a DataNode; declare %s in a cluster block of .ckptlint.hcl so ckptlint can check that the DataNodes can schedule the concurrent checkpoint files",
			[blocksize.display, source, concat(" and ", missing)],
		),
	))
}
