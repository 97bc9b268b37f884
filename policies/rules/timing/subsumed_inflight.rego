# METADATA
# title: Concurrent checkpoints on HDFS get subsumed and deleted while TaskManagers still write them
# description: |
#   With execution.checkpointing.max-concurrent-checkpoints above 1 and no min-pause, Flink
#   starts a new checkpoint every interval even while older ones are still being written.
#   When a newer checkpoint completes, Flink aborts every older pending one as subsumed, and an
#   older one that runs past the timeout expires; in both cases it recursively deletes that
#   checkpoint's chk-N directory while TaskManager threads may still be writing files into it.
#   The HDFS NameNode then rejects those writers: "LeaseExpiredException: No lease on
#   .../chk-N/... File does not exist." on Hadoop 2, "File does not exist: .../chk-N/..." on
#   Hadoop 3, and the TaskManager reports "Could not flush and close the file system output
#   stream to .../chk-N/...". The logs point at HDFS while the cause is the overlap. Overlap
#   needs a timeout longer than the interval; the rule then fires when checkpoints go to HDFS.
#   The fix is max-concurrent-checkpoints 1 (Flink's default), so nothing is subsumed while in
#   flight.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointCoordinator.java
#     description: dropSubsumedCheckpoints aborts older pending checkpoints when one completes
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/state/filesystem/FsCheckpointStorageLocation.java
#     description: disposeOnFailure deletes the chk-N directory recursively
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/ops/state/large_state_tuning/
#     description: concurrent checkpoints "often tie up too many resources"
#   - ref: https://github.com/apache/hadoop/blob/rel/release-2.7.3/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/namenode/FSNamesystem.java
#     description: checkLease, the "No lease on ... File does not exist" answer to a writer whose file was deleted
# custom:
#   id: CKPT204
#   name: concurrent-checkpoints-deleted-in-flight
#   severity: warning
#   fixable: true
package ckptlint.rules.timing.subsumed_inflight

import data.ckptlint.lib.result
import data.ckptlint.lib.timing

mc := timing.max_concurrent

iv := timing.interval

to := timing.timeout

# in_flight is how many checkpoints can be pending at once: one starts every
# interval, each lives at most the timeout, and max-concurrent caps them.
in_flight := min([mc.value, ceil(to.value / iv.value)])

deny contains f if {
	timing.on_hdfs_checkpointing
	timing.readable(mc)
	timing.readable(iv)
	timing.readable(to)
	timing.readable(timing.min_pause)
	mc.value > 1
	timing.min_pause.value == 0
	to.value > iv.value
	f := result.fix(
		mc, result.msg(
			sprintf(
				"execution.checkpointing.max-concurrent-checkpoints %d lets %d checkpoints overlap on HDFS: Flink deletes subsumed ones while TaskManagers still write them.",
				[mc.value, in_flight],
			),
			sprintf(
				"%s lets %d checkpoints write to HDFS at once (%s, %s, %s): when a newer checkpoint completes, Flink aborts the older pending ones as subsumed, and one that runs past the timeout expires; either way it recursively deletes that checkpoint's chk-N directory while TaskManagers may still be writing into it. The NameNode then rejects those writers with %s, and the TaskManager's write fails with \"... close the file system output stream to %s\". Set execution.checkpointing.max-concurrent-checkpoints to 1 (Flink's default) so no checkpoint is deleted while it is written; if checkpoints take longer than %s, raise the interval rather than overlapping them",
				[
					timing.describe(mc), in_flight, timing.brief(iv), timing.brief(to),
					timing.brief(timing.min_pause), timing.lease_error, timing.chk_uri, iv.display,
				],
			),
		),
		[result.set("flink", "execution.checkpointing.max-concurrent-checkpoints", "1")],
	)
}
