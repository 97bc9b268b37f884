# METADATA
# title: Every failed checkpoint fails the job (tolerable-failed-checkpoints 0) while checkpoints go to HDFS
# description: |
#   execution.checkpointing.tolerable-failed-checkpoints is 0 unless set, on every Flink
#   version (a default from 1.19, and CheckpointConfig's fallback before). Flink's
#   CheckpointFailureManager counts expired checkpoints, failures in the asynchronous write
#   phase and IO errors on the JobManager, and fails the job once more consecutive checkpoints
#   failed than tolerated: with 0 the first one restarts the job ("Exceeded checkpoint
#   tolerable failure threshold."). The rule warns when something makes such failures likely:
#   a declared HDFS write stall, a declared checkpoint p99 within 3x of the timeout, or a timeout
#   below 1 minute (one DataNode pause such as the 38 s DirectoryScanner stall is enough). It
#   proposes 3: the count is of consecutive failures and resets on the next completed
#   checkpoint, so isolated expiries no longer restart the job, while a checkpoint path that
#   stays broken still fails it after 4 failures in a row. Without such a fact the rule only
#   reports, as info, that the default is in effect and which fact to declare.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/dev/datastream/fault-tolerance/checkpointing/
#     description: "tolerable checkpoint failure number: the default 0 means the job fails on the first reported checkpoint failure"
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/CheckpointFailureManager.java
#     description: which failure reasons are counted and when the job fails
#   - ref: https://issues.apache.org/jira/browse/FLINK-17351
#     description: "FLINK-17351: expired checkpoints count as failures"
#   - ref: https://issues.apache.org/jira/browse/FLINK-33935
#     description: "FLINK-33935: tolerable-failed-checkpoints gets the default 0"
# custom:
#   id: CKPT205
#   name: zero-tolerable-checkpoint-failures
#   severity: warning
#   fixable: false
package ckptlint.rules.timing.zero_tolerance

import data.ckptlint.lib.facts
import data.ckptlint.lib.result
import data.ckptlint.lib.timing
import data.ckptlint.lib.units

tf := timing.tolerable

to := timing.timeout

proposed := 3

# short_timeout is the "short" in "a short timeout": below one minute, a
# single HDFS pause of the size story (b) measured (38 s) can expire a checkpoint.
short_timeout := 60000

risks contains sprintf("a %s HDFS write stall is %s for cluster %q%s", [units.duration(input.cluster.write_stall_ms), how(input.cluster, "write_stall"), input.cluster.name, cited(input.cluster, "write_stall")]) if {
	input.cluster.write_stall_ms > 0
}

risks contains sprintf("the %s p99 checkpoint duration %s%s is within 3x of the %s timeout", [how(input.deployment, "checkpoint_p99"), units.duration(input.deployment.checkpoint_p99_ms), cited(input.deployment, "checkpoint_p99"), to.display]) if {
	timing.readable(to)
	input.deployment.checkpoint_p99_ms > 0
	to.value < 3 * input.deployment.checkpoint_p99_ms
}

# short_risk is no figure of this cluster: another cluster's measured
# stall against the timeout. Alone it makes the finding an info that names
# the figures that would decide it (issue 23).
short_risk := sprintf("the %s timeout (%s) is below 1 min, shorter than one HDFS write pause can last (a DataNode DirectoryScanner stall measured 38 s)", [to.display, timing.origin(to)]) if {
	timing.readable(to)
	to.value < short_timeout
} else := ""

risks contains short_risk if short_risk != ""

declared_risks contains r if {
	some r in risks
	r != short_risk
}

# how and cited say whether a figure was observed, and by which facts block.
how(block, attr) := "observed" if facts.observed(block, attr)

else := "declared"

cited(block, attr) := sprintf(" (%s)", [facts.cite(block, attr)]) if facts.observed(block, attr)

else := ""

restart := sprintf(", and restart-strategy %s leaves it failed", [rs]) if {
	rs := input.effective.restart_strategy.type.value
	is_string(rs)
	lower(rs) in {"none", "off", "disable"}
} else := ", and it restarts from the last completed checkpoint"

consequence := sprintf(
	"the first checkpoint that expires or fails while writing to HDFS fails the job with %s%s",
	[timing.tolerance_failure, restart],
)

# period is how long one failed checkpoint takes at most before the next one:
# an expiry needs the whole timeout, and a new one starts at most every interval.
period := max([timing.effective_interval, to.value])

headline := "execution.checkpointing.tolerable-failed-checkpoints is 0: the first checkpoint that expires or fails on HDFS fails the job."

base_ok if {
	timing.on_hdfs_checkpointing
	timing.readable(tf)
	tf.value == 0
}

deny contains f if {
	base_ok
	count(risks) > 0
	f := with_evidence(result.fix(
		tf, result.msg(headline, sprintf(
			"%s: %s. Such failures are likely here: %s. Set execution.checkpointing.tolerable-failed-checkpoints to %d: Flink counts consecutive failures only, so an isolated expiry no longer restarts the job, and a checkpoint path that stays broken still fails it after %d failures in a row (within about %s: %d checkpoints, each lasting up to max(interval %s, timeout %s))",
			[
				timing.describe(tf), consequence, concat("; ", sort(risks)), proposed,
				proposed + 1, units.duration((proposed + 1) * period), proposed + 1, timing.interval.display, to.display,
			],
		)),
		[result.set("flink", "execution.checkpointing.tolerable-failed-checkpoints", sprintf("%d", [proposed]))],
	))
}

# with_evidence keeps the rule's severity when a figure of this cluster (a
# declared or observed stall or p99) is among the risks, else makes it an
# info that says which figure would decide it.
with_evidence(f) := f if count(declared_risks) > 0

else := object.union(f, {
	"severity": "info",
	"detail": concat("", [f.detail, ". Declare write_stall in a cluster block or checkpoint_p99 in a deployment block of .ckptlint.hcl to decide whether this cluster's writes pause that long"]),
})

deny contains f if {
	base_ok
	count(risks) == 0
	not tf.set
	f := result.info(tf, result.msg(
		"execution.checkpointing.tolerable-failed-checkpoints is 0 (the default), so one failed checkpoint fails the job; declare the facts that decide the risk.",
		sprintf(
			"execution.checkpointing.tolerable-failed-checkpoints is 0 (Flink's default on every version): %s. Declare write_stall in a cluster block or checkpoint_p99 in a deployment block of .ckptlint.hcl so ckptlint can check the %s timeout against them, or set tolerable-failed-checkpoints (e.g. %d) if an occasional failed checkpoint should not restart the job",
			[consequence, to.display, proposed],
		),
	))
}
