# METADATA
# title: Checkpoint interval, timeout, max-concurrent or tolerable value that Flink refuses or overrides
# description: |
#   Flink checks the checkpoint settings when it configures a job and refuses the job when
#   execution.checkpointing.interval or execution.checkpointing.timeout is below 10 ms
#   ("Checkpoint interval must be larger than or equal to 10 ms", "Checkpoint timeout must be
#   larger than or equal to 10 ms"), when max-concurrent-checkpoints is below 1 or when
#   tolerable-failed-checkpoints is negative. An interval shorter than
#   execution.checkpointing.min-pause is not refused but overridden: the CheckpointCoordinator
#   schedules checkpoints every max(interval, min-pause), so checkpoints are taken less often
#   than the file says (a warning; the fix writes the interval Flink really uses). An interval
#   of 0 is left alone: Flink's configuration template reads it as checkpointing disabled.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-streaming-java/src/main/java/org/apache/flink/streaming/api/environment/CheckpointConfig.java
#     description: setCheckpointInterval / setCheckpointTimeout / setMaxConcurrentCheckpoints / setTolerableCheckpointFailureNumber checks
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointCoordinator.java
#     description: the coordinator uses max(interval, min-pause) as the interval
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/dev/datastream/fault-tolerance/checkpointing/
#     description: "minimum time between checkpoints: the checkpoint interval will never be smaller than this parameter"
# custom:
#   id: CKPT202
#   name: checkpoint-timing-refused-or-overridden
#   severity: error
#   fixable: false
package ckptlint.rules.timing.interval_floor

import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.timing

# Flink's MINIMAL_CHECKPOINT_TIME (CheckpointCoordinatorConfiguration).
minimal := 10

refused := "Flink refuses the job when it configures checkpointing (IllegalArgumentException"

# advice for a duration below the floor: a bare number was probably meant in
# another unit (CKPT206 says more); an explicit unit just needs a larger value.
floor_advice(v, unit) := sprintf("Write the unit, e.g. \"%d %s\" if that was meant: Flink reads a number without a unit as milliseconds", [v.value, unit]) if {
	regex.match(`^\s*[0-9]+\s*$`, v.raw)
} else := "Set it to at least 10 ms"

deny contains f if {
	iv := timing.interval
	iv.set
	timing.readable(iv)
	iv.value > 0
	iv.value < minimal
	f := result.finding(iv, result.msg(sprintf("%s %s is below Flink's 10 ms minimum, so Flink refuses the job.", [iv.key, iv.display]), sprintf(
		"%s is below Flink's 10 ms minimum: %s: \"Checkpoint interval must be larger than or equal to 10 ms\"). %s",
		[timing.describe(iv), refused, floor_advice(iv, "s")],
	)))
}

deny contains f if {
	t := timing.timeout
	t.set
	timing.readable(t)
	t.value < minimal
	f := result.finding(t, result.msg(sprintf("%s %s is below Flink's 10 ms minimum, so Flink refuses the job.", [t.key, t.display]), sprintf(
		"%s is below Flink's 10 ms minimum: %s: \"Checkpoint timeout must be larger than or equal to 10 ms\"). %s (Flink's default timeout is 10 min)",
		[timing.describe(t), refused, floor_advice(t, "min")],
	)))
}

deny contains f if {
	mc := timing.max_concurrent
	mc.set
	timing.readable(mc)
	mc.value < 1
	f := result.finding(mc, result.msg(sprintf("%s %s is below 1, so Flink refuses the job.", [mc.key, mc.display]), sprintf(
		"%s is below 1: %s: \"The maximum number of concurrent attempts must be at least one.\"). Set it to 1, Flink's default",
		[timing.describe(mc), refused],
	)))
}

deny contains f if {
	tf := timing.tolerable
	tf.set
	timing.readable(tf)
	tf.value < 0
	f := result.finding(tf, result.msg(sprintf("%s %s is negative, so Flink refuses the job.", [tf.key, tf.display]), sprintf(
		"%s is negative: %s: \"The tolerable failure checkpoint number must be non-negative.\"). Set it to 0 (every failed checkpoint fails the job) or to the number of consecutive failed checkpoints to tolerate",
		[timing.describe(tf), refused],
	)))
}

deny contains f if {
	flink.checkpointing
	iv := timing.interval
	mp := timing.min_pause
	timing.readable(iv)
	timing.readable(mp)
	iv.value >= minimal
	iv.value < mp.value
	f := object.union(
		result.fix(
			iv, result.msg(
				sprintf(
					"%s %s is shorter than min-pause %s, so Flink checkpoints every %s at most.",
					[iv.key, iv.display, mp.display, mp.display],
				),
				sprintf(
					"%s is shorter than %s: the CheckpointCoordinator uses max(interval, min-pause) as the interval, so Flink takes a checkpoint every %s at most, not every %s. Write the interval Flink really uses (%s), or lower execution.checkpointing.min-pause if checkpoints every %s were meant",
					[
						timing.describe(iv), timing.describe(mp), mp.display, iv.display,
						timing.flink_duration(mp.value), iv.display,
					],
				),
			),
			[result.set("flink", "execution.checkpointing.interval", timing.flink_duration(mp.value))],
		),
		{"severity": "warning"},
	)
}
