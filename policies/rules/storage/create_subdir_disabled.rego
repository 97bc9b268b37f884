# METADATA
# title: Checkpoints of all jobs go to the same directory without a job-id subdirectory
# description: |
#   execution.checkpointing.create-subdir (state.checkpoints.create-subdir on Flink 1.19) is
#   true by default: each job writes its checkpoints under <dir>/<job-id>/, so several jobs can
#   share one checkpoint directory. Set to false, every job writes chk-<n>, shared/ and
#   taskowned/ directly into the configured directory, and Flink's option description warns not
#   to run several jobs on the same directory at the same time: the jobs then write into the
#   same chk-<n> directories, and a job that aborts a checkpoint deletes its chk-<n>
#   recursively, the other job's files included.
#   The rule stays quiet when the deployment block of .ckptlint.hcl declares a single job. The
#   fix is to keep the option true, or to give each job its own checkpoint directory.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/#execution-checkpointing-create-subdir
#     description: execution.checkpointing.create-subdir and its warning
#   - ref: https://issues.apache.org/jira/browse/FLINK-33057
#     description: "FLINK-33057: option to not create the job-id subdirectory"
# custom:
#   id: CKPT503
#   name: checkpoint-subdir-disabled
#   severity: warning
#   fixable: false
package ckptlint.rules.storage.create_subdir_disabled

import data.ckptlint.lib.result
import data.ckptlint.lib.storage

cs := input.effective.checkpointing.create_subdir

deny contains f if {
	cs.set
	cs.value == false
	d := storage.dir
	not input.deployment.jobs == 1
	f := result.finding(cs, result.msg(
		sprintf("%s: false makes every job write checkpoints into the same directory, so concurrent jobs overwrite and delete each other's.", [cs.key]),
		sprintf(
			"%s: false (at %s) makes every job write its checkpoints directly into %s (chk-<n>, shared/, taskowned/) instead of %s/<job-id>/, and %s: two jobs running at the same time both number their checkpoints from 1 and write into the same chk-<n> directories, and when one job aborts a checkpoint it deletes that chk-<n> recursively, the other job's files included (the option's description: \"If this value is set to false, pay attention not to run several jobs with the same directory simultaneously\"). Keep %s true (the default) or give each job its own checkpoint directory",
			[cs.key, storage.origin(cs), d.value, d.value, storage.jobs_text, cs.key],
		),
	))
}
