# METADATA
# title: Retained checkpoints are invalid, or too few for a CLAIM restore
# description: |
#   execution.checkpointing.num-retained (state.checkpoints.num-retained before Flink 1.20) is
#   how many completed checkpoints Flink keeps. A value of 0 or less is not accepted: the
#   JobManager logs "The setting for '<key> : <value>' is invalid. Using default value of 1" and
#   keeps one; the fix writes 1. In CLAIM restore mode (execution.state-recovery.claim-mode,
#   execution.savepoint-restore-mode before 1.20) Flink takes ownership of the checkpoint or
#   savepoint a job is restored from and deletes it once it is no longer among the retained
#   checkpoints: with one retained checkpoint that happens as soon as the first checkpoint after
#   the restore completes, so a snapshot kept to roll back to, or to start another job from, is
#   gone. That finding has no automatic fix: use NO_CLAIM (the default), or retain more
#   checkpoints and copy the snapshot first.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20.0/flink-runtime/src/main/java/org/apache/flink/runtime/checkpoint/DefaultCompletedCheckpointStoreUtils.java
#     description: getMaximumNumberOfRetainedCheckpoints replaces a value of 0 or less by 1
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/ops/state/savepoints/#claim
#     description: CLAIM mode, Flink owns and deletes the restored snapshot
# custom:
#   id: CKPT507
#   name: num-retained-too-low
#   severity: warning
#   fixable: false
package ckptlint.rules.storage.num_retained

import data.ckptlint.lib.result
import data.ckptlint.lib.storage

nr := input.effective.checkpointing.num_retained

claim := input.effective.checkpointing.claim_mode

# current_key is the key Flink names in its log line on this version.
current_key := "execution.checkpointing.num-retained" if {
	storage.at_least(1, 20)
} else := "state.checkpoints.num-retained"

invalid if {
	nr.set
	is_number(nr.value)
	nr.value <= 0
}

effective := 1 if invalid

else := nr.value

deny contains f if {
	invalid
	f := result.fix(
		nr, result.msg(
			sprintf("%s: %d is not a valid number of retained checkpoints, so Flink keeps only one.", [nr.key, nr.value]),
			sprintf(
				"%s: %d (at %s) is not a valid number of retained checkpoints: the JobManager logs \"The setting for '%s : %d' is invalid. Using default value of 1\" and keeps one checkpoint. Set %s: 1",
				[nr.key, nr.value, storage.origin(nr), current_key, nr.value, nr.key],
			),
		),
		[result.set("flink", nr.key, "1")],
	)
}

retained_text := sprintf("%s %d at %s, used as 1", [nr.key, nr.value, storage.origin(nr)]) if {
	invalid
} else := sprintf("%s %d at %s", [nr.key, nr.value, storage.origin(nr)]) if {
	nr.set
} else := sprintf("%s %d by default", [nr.key, nr.value])

deny contains f if {
	claim.set
	claim.value == "CLAIM"
	is_number(effective)
	effective <= 1
	f := result.finding(claim, result.msg(
		sprintf("%s: CLAIM with 1 retained checkpoint deletes the snapshot a job restored from after its first checkpoint.", [claim.key]),
		sprintf(
			"%s: CLAIM (at %s) hands the checkpoint or savepoint every job restores from to Flink, which deletes it once it is no longer among the retained checkpoints; with 1 retained checkpoint (%s) that happens when the first checkpoint after the restore completes, so the snapshot you restored from is gone and cannot be used again to roll back or to start another job. Use NO_CLAIM (the default), or restore in CLAIM mode only from a copy",
			[claim.key, storage.origin(claim), retained_text],
		),
	))
}
