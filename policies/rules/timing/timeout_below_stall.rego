# METADATA
# title: Checkpoint timeout is not longer than the known HDFS write stall or checkpoint duration
# description: |
#   Flink aborts a checkpoint that is still running when execution.checkpointing.timeout
#   (default 10 min) runs out: it logs "Checkpoint N of job ... expired before completing.",
#   counts a failure and recursively deletes the checkpoint's chk-N directory while the
#   TaskManagers may still be writing into it. When the cluster block of .ckptlint.hcl declares
#   a write_stall (a pause of HDFS writes, such as the 38 s a DataNode DirectoryScanner causes
#   on a DataNode with many block replicas) or the deployment block a checkpoint_p99, a timeout
#   that is not longer than that figure makes checkpoints expire in production, and with
#   tolerable-failed-checkpoints 0 each expiry fails the job. A timeout below twice the figure
#   is a warning. The fix sets the timeout to a round value of at least three times the figure:
#   a checkpoint that meets a stall needs the stall plus its own write time (up to the same
#   order), and a measured stall or p99 is not an upper bound.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/dev/datastream/fault-tolerance/checkpointing/
#     description: "checkpoint timeout: the time after which a checkpoint-in-progress is aborted"
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointCoordinator.java
#     description: CheckpointCanceller aborts the pending checkpoint with CHECKPOINT_EXPIRED
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/state/filesystem/FsCheckpointStorageLocation.java
#     description: disposeOnFailure deletes the chk-N directory recursively
#   - ref: https://issues.apache.org/jira/browse/HDFS-14476
#     description: "HDFS-14476: DirectoryScanner locks the DataNode and stalls writes on nodes with many blocks"
# custom:
#   id: CKPT201
#   name: checkpoint-timeout-below-write-stall
#   severity: error
#   fixable: true
package ckptlint.rules.timing.timeout_below_stall

import data.ckptlint.lib.facts
import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.timing
import data.ckptlint.lib.units

timeout := timing.timeout

# figures are the declared durations a checkpoint must outlive, each with
# where it was declared. A write stall only matters when checkpoints go to HDFS.
figures contains {
	"ms": input.cluster.write_stall_ms,
	"what": sprintf("the %s HDFS write stall %s for cluster %q (%s)", [units.duration(input.cluster.write_stall_ms), how(input.cluster, "write_stall"), input.cluster.name, facts.origin(input.cluster, "write_stall", "write_stall in .ckptlint.hcl")]),
	"slow": "a checkpoint that meets the stall needs the whole stall plus its own write time",
	"hit": "every checkpoint that meets the stall runs past the timeout",
	"name": "HDFS write stall",
	"expires": "checkpoints that meet it expire and Flink deletes their files",
	"why": "a checkpoint that meets a full stall still has time for its own writes, and a stall longer than the one measured does not expire it",
} if {
	input.cluster.write_stall_ms > 0
	flink.on_hdfs
}

figures contains {
	"ms": input.deployment.checkpoint_p99_ms,
	"what": sprintf("the %s p99 checkpoint duration %s for deployment %q (%s)", [units.duration(input.deployment.checkpoint_p99_ms), how(input.deployment, "checkpoint_p99"), input.deployment.name, facts.origin(input.deployment, "checkpoint_p99", "checkpoint_p99 in .ckptlint.hcl")]),
	"slow": "the slowest checkpoints already take that long and a few take longer",
	"hit": "at least 1 checkpoint in 100 runs past the timeout",
	"name": "p99 checkpoint duration",
	"expires": "1 checkpoint in 100 expires and Flink deletes its files",
	"why": "the checkpoints slower than the p99, which a p99 does not bound, still complete",
} if {
	input.deployment.checkpoint_p99_ms > 0
}

# how says whether a figure was observed (a facts block lists it) or declared.
how(block, attr) := "observed" if facts.observed(block, attr)

else := "declared"

need := max([f.ms | some f in figures])

# The figure the timeout is judged against (the larger when both are declared).
worst := [f | some f in figures; f.ms == need][0]

proposed := timing.round_up(3 * need)

fix := [result.set("flink", "execution.checkpointing.timeout", timing.flink_duration(proposed))]

tolerance := sprintf(" With execution.checkpointing.tolerable-failed-checkpoints 0 (%s) each expiry fails the job: %s", [timing.origin(timing.tolerable), timing.tolerance_failure]) if {
	timing.tolerable.value == 0
} else := ""

advice := sprintf(
	" Set execution.checkpointing.timeout to %s, at least 3x %s, so %s.",
	[timing.flink_duration(proposed), units.duration(need), worst.why],
)

mechanism := sprintf(
	"expires (%s), and Flink deletes its chk-N directory (%s) while TaskManagers are still writing into it.",
	[timing.expired, timing.chk_path],
)

deny contains f if {
	flink.checkpointing
	timing.readable(timeout)
	count(figures) > 0
	timeout.value <= need
	f := result.fix(
		timeout, result.msg(
			sprintf(
				"execution.checkpointing.timeout %s is not longer than the %s %s: %s.",
				[units.duration(timeout.value), units.duration(need), worst.name, worst.expires],
			),
			sprintf(
				"%s is not longer than %s: %s and %s%s%s",
				[timing.describe(timeout), worst.what, worst.hit, mechanism, tolerance, advice],
			),
		),
		fix,
	)
}

deny contains f if {
	flink.checkpointing
	timing.readable(timeout)
	count(figures) > 0
	timeout.value > need
	timeout.value < 2 * need
	f := object.union(
		result.fix(
			timeout, result.msg(
				sprintf(
					"execution.checkpointing.timeout %s leaves only %s beyond the %s %s, so a checkpoint that meets it can expire.",
					[units.duration(timeout.value), units.duration(timeout.value - need), units.duration(need), worst.name],
				),
				sprintf(
					"%s leaves only %s beyond %s: %s, and a checkpoint that runs past the timeout %s%s%s",
					[timing.describe(timeout), units.duration(timeout.value - need), worst.what, worst.slow, mechanism, tolerance, advice],
				),
			),
			fix,
		),
		{"severity": "warning"},
	)
}
