# METADATA
# title: Checkpoint settings that contradict each other (concurrent checkpoints, min-pause, unaligned, mode)
# description: |
#   Flink's checkpointing documentation states three incompatibilities. Concurrent checkpoints
#   (execution.checkpointing.max-concurrent-checkpoints above 1) "cannot be used when a minimum
#   time between checkpoints is defined", and a min-pause "implies that the number of concurrent
#   checkpoints is one". Unaligned checkpoints "only work for exactly-once checkpoints and with
#   one concurrent checkpoint": with AT_LEAST_ONCE Flink logs "Unaligned checkpoints can only be
#   used with checkpointing mode EXACTLY_ONCE" and turns them off, and with more
#   than one concurrent checkpoint Flink's CheckpointCoordinatorConfiguration refuses the job
#   ("maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled", seen in the 1.13 and
#   1.14 sources). The file asks for two things that do not go together; the fix is to drop the
#   one that is not wanted, which only the user can decide.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/dev/datastream/fault-tolerance/checkpointing/
#     description: min pause, concurrent checkpoints and unaligned checkpoints and how they combine
#   - ref: https://github.com/apache/flink/blob/release-1.14/flink-runtime/src/main/java/org/apache/flink/runtime/jobgraph/tasks/CheckpointCoordinatorConfiguration.java
#     description: sanity checks of the checkpoint settings, including unaligned with concurrent checkpoints
#   - ref: https://github.com/apache/flink/blob/release-1.17/flink-streaming-java/src/main/java/org/apache/flink/streaming/api/graph/StreamingJobGraphGenerator.java
#     description: unaligned checkpoints are disabled with a warning unless the mode is EXACTLY_ONCE
# custom:
#   id: CKPT203
#   name: checkpoint-settings-contradict
#   severity: warning
#   fixable: false
package ckptlint.rules.timing.concurrency_conflict

import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.timing

cp := input.effective.checkpointing

mc := timing.max_concurrent

unaligned_on if {
	cp.unaligned.value == true
	not cp.unaligned.error
}

deny contains f if {
	flink.checkpointing
	timing.readable(mc)
	timing.readable(timing.min_pause)
	mc.value > 1
	timing.min_pause.value > 0
	f := result.finding(mc, result.msg(
		sprintf(
			"%s %s with min-pause %s: Flink allows no concurrent checkpoints when a minimum pause is set.",
			[mc.key, mc.display, timing.min_pause.display],
		),
		sprintf(
			"%s together with %s: Flink's checkpointing docs say concurrent checkpoints cannot be used when a minimum pause is defined, and that a min-pause implies one concurrent checkpoint. Decide which you want: set max-concurrent-checkpoints to 1 to keep the pause, or min-pause to 0 to let checkpoints overlap",
			[timing.describe(mc), timing.describe(timing.min_pause)],
		),
	))
}

deny contains f if {
	flink.checkpointing
	unaligned_on
	cp.mode.value == "EXACTLY_ONCE"
	timing.readable(mc)
	mc.value > 1
	f := result.finding(mc, result.msg(
		sprintf(
			"%s %s with unaligned checkpoints on: Flink refuses the job, as unaligned checkpoints allow one at a time.",
			[mc.key, mc.display],
		),
		sprintf(
			"%s together with %s %s (%s): unaligned checkpoints only work with one concurrent checkpoint, and Flink's CheckpointCoordinatorConfiguration refuses the job with \"maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled\" (checked in the Flink 1.13 and 1.14 sources). Set max-concurrent-checkpoints to 1, or turn unaligned checkpoints off",
			[timing.describe(mc), cp.unaligned.key, cp.unaligned.display, timing.origin(cp.unaligned)],
		),
	))
}

deny contains f if {
	flink.checkpointing
	unaligned_on
	cp.mode.value == "AT_LEAST_ONCE"
	f := result.finding(cp.unaligned, result.msg(
		sprintf(
			"%s with checkpointing mode AT_LEAST_ONCE: Flink turns unaligned checkpoints off, as they need EXACTLY_ONCE.",
			[cp.unaligned.key],
		),
		sprintf(
			"%s %s (%s) together with %s: unaligned checkpoints only work for exactly-once checkpoints; Flink logs \"Unaligned checkpoints can only be used with checkpointing mode EXACTLY_ONCE\" and turns unaligned checkpoints off. Set execution.checkpointing.mode to EXACTLY_ONCE to get unaligned checkpoints, or remove %s",
			[cp.unaligned.key, cp.unaligned.display, timing.origin(cp.unaligned), timing.describe(cp.mode), cp.unaligned.key],
		),
	))
}
