# METADATA
# title: Application-mode jobs with HA get the same job ID and share checkpoint paths
# description: |
#   Checkpoints are written under <checkpoint dir>/<job-id>/. In application mode with high
#   availability and no fixed job ID, Flink chooses the job ID itself so that it stays the same
#   across JobManager failovers: Flink 1.11 to 1.15 always use 00000000000000000000000000000000,
#   and from 1.16 (FLINK-19358) the ID is derived from high-availability.cluster-id. Every
#   application started with this configuration then writes to, cleans up and restores from the
#   same <checkpoint dir>/<job-id>/ directory (reported in apache/streampark#866: "multi job will
#   has the same checkpoint path ... recover with a wrong checkpoint data"). From 1.16 the
#   collision remains when the cluster-id is fixed: YARN application mode uses a
#   high-availability.cluster-id set in the configuration instead of the application ID.
#   Kubernetes application mode replaces it with kubernetes.cluster-id, and the Flink Kubernetes
#   Operator assigns job IDs itself (FLINK-29109), so those cases are not reported. There is no
#   automatic fix: give each application its own checkpoint directory or (1.16+) its own
#   high-availability.cluster-id, for example with -D at submission.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.15.4/flink-clients/src/main/java/org/apache/flink/client/deployment/application/ApplicationDispatcherBootstrap.java
#     description: Flink 1.15 fixes the job ID to ZERO_JOB_ID with HA
#   - ref: https://issues.apache.org/jira/browse/FLINK-19358
#     description: "FLINK-19358: derive the application job ID from the HA cluster-id (1.16)"
#   - ref: https://github.com/apache/streampark/issues/866
#     description: Several applications share the zero job ID and restore the wrong checkpoint
#   - ref: https://github.com/apache/flink/blob/release-1.20.0/flink-yarn/src/main/java/org/apache/flink/yarn/YarnClusterDescriptor.java
#     description: YARN uses a configured high-availability.cluster-id, else the application ID
# custom:
#   id: CKPT509
#   name: application-mode-job-id-collision
#   severity: warning
#   fixable: false
package ckptlint.rules.storage.application_job_id_collision

import data.ckptlint.lib.result
import data.ckptlint.lib.storage

target := input.effective.execution.target

cluster_id := input.effective.ha.cluster_id

target_name := lower(trim_space(target.value)) if is_string(target.value)

application if target_name in {"yarn-application", "kubernetes-application"}

# A job ID fixed in the configuration ($internal.pipeline.job-id) wins.
fixed_job_id if input.flink.keys["$internal.pipeline.job-id"]

common if {
	application
	storage.ha_on
	storage.dir
	not fixed_job_id
}

target_text := sprintf("%s: %s at %s", [target.key, target.value, storage.origin(target)])

ha_text := sprintf("%s: %s at %s", [input.effective.ha.type.key, input.effective.ha.type.value, storage.origin(input.effective.ha.type)])

remedy := "Give each application its own checkpoint directory, e.g. with -D at submission"

deny contains f if {
	common
	storage.at_least(1, 11)
	not storage.at_least(1, 16)
	f := result.finding(target, result.msg(
		"Application mode with high availability on Flink 1.11 to 1.15 gives every application one job ID, so they delete each other's checkpoints.",
		sprintf(
			"application mode (%s) with high availability (%s): on Flink 1.11 to 1.15 (this set: %s) every application gets job ID 00000000000000000000000000000000, so all applications started with this configuration write, delete and restore checkpoints in the same %s/00000000000000000000000000000000/ directory and can recover another application's state. %s (from Flink 1.16 the ID derives from high-availability.cluster-id instead)",
			[target_text, ha_text, storage.version_text, storage.dir.value, remedy],
		),
	))
}

deny contains f if {
	common
	storage.at_least(1, 16)
	target_name == "yarn-application"
	cluster_id.set
	f := result.finding(cluster_id, result.msg(
		sprintf("A fixed %s with application mode and high availability gives every application the same job ID and checkpoint directory.", [cluster_id.key]),
		sprintf(
			"application mode (%s) with high availability (%s) and a fixed %s %s (at %s): on %s the job ID is derived from the HA cluster-id, which YARN takes from this setting instead of the application ID, so every application started with this configuration gets the same job ID and writes, deletes and restores checkpoints in the same directory under %s. Leave %s unset so that each YARN application uses its own ID, or give each application its own checkpoint directory",
			[target_text, ha_text, cluster_id.key, cluster_id.value, storage.origin(cluster_id), storage.version_text, storage.dir.value, cluster_id.key],
		),
	))
}
