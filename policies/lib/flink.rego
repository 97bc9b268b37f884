# METADATA
# title: Flink facts shared by rules
# description: Derived facts about a config set that several rules need (is checkpointing on, where does it write, which parallelism runs).
package ckptlint.lib.flink

# checkpointing is true when Flink will take periodic checkpoints: an
# interval is set and positive (Flink 1.20 CheckpointingOptions:
# no default, off unless set). ckptlint computes it in Go
# (input.derived.checkpointing, docs/input.md); the rules below derive the
# same for inputs without it (the Rego tests' hand-written inputs).
checkpointing if input.derived.checkpointing

checkpointing if {
	not input.derived
	input.flink
	iv := input.effective.checkpointing.interval
	iv.set
	is_number(iv.value)
	iv.value > 0
}

# dir is the effective checkpoint directory value object.
dir := input.effective.checkpointing.dir if input.effective.checkpointing.dir.set

# on_hdfs is true when the checkpoint directory is on HDFS: an hdfs: URI, or
# a scheme-less path while Flink's fs.default-scheme is hdfs:. Flink resolves
# a path without a scheme with fs.default-scheme, else the local file system
# (FileSystem.getUnguardedFileSystem); Hadoop's fs.defaultFS plays no part.
# Computed in Go as input.derived.checkpoints_on_hdfs, derived here without it.
on_hdfs if input.derived.checkpoints_on_hdfs

on_hdfs if {
	not input.derived
	startswith(lower(dir.value), "hdfs:")
}

on_hdfs if {
	not input.derived
	not contains(dir.value, ":")
	startswith(lower(input.flink.keys["fs.default-scheme"].value), "hdfs:")
}

# parallelism is the parallelism jobs run with and where it came from: a
# deployment block; for a FlinkDeployment with spec.taskManager.replicas,
# replicas x slots (the operator's FlinkConfigBuilder.getParallelism), else
# spec.job.parallelism; else parallelism.default.
parallelism := {"value": input.deployment.parallelism, "from": "deployment parallelism in .ckptlint.hcl"} if {
	input.deployment.parallelism
} else := {
	"value": to_number(input.flink.manifest.taskmanager_replicas.value) * input.effective.parallelism.slots_per_taskmanager.value,
	"from": "spec.taskManager.replicas x taskmanager.numberOfTaskSlots (the operator ignores spec.job.parallelism when replicas are set)",
} if {
	input.flink.manifest.taskmanager_replicas.value
} else := {"value": to_number(input.flink.manifest.job_parallelism.value), "from": "spec.job.parallelism"} if {
	input.flink.manifest.job_parallelism.value
} else := {"value": input.effective.parallelism["default"].value, "from": "parallelism.default"} if {
	input.effective.parallelism["default"].set
} else := {"value": input.effective.parallelism["default"].value, "from": "parallelism.default (default)"}

# jobs is the number of jobs sharing the cluster, declared or assumed 1.
jobs := {"value": input.deployment.jobs, "declared": true} if {
	input.deployment.jobs
} else := {"value": 1, "declared": false}

# operators is the number of stateful operators per job, declared or assumed 1.
operators := {"value": input.deployment.stateful_operators, "declared": true} if {
	input.deployment.stateful_operators
} else := {"value": 1, "declared": false}
