# METADATA
# title: Checkpointing is on but no checkpoint directory is set
# description: |
#   With checkpointing enabled and no checkpoint directory (execution.checkpointing.dir,
#   state.checkpoints.dir before Flink 1.20), Flink falls back to JobManagerCheckpointStorage:
#   the state of every checkpoint is kept in the JobManager's heap instead of a durable file
#   system, so it is lost with the JobManager process. Each individual state is limited to
#   5 MiB (a larger one fails the checkpoint with "Size of the state is larger than the maximum
#   permitted memory-backed state") and all of it must fit in the JobManager's memory; the docs
#   recommend this storage only for local development and jobs with very little state. The job
#   runs, so this is a warning. If execution.checkpointing.storage is "filesystem" instead, the
#   storage cannot be created without a directory and the job fails when it is submitted
#   ("Cannot create the file system state backend: The configuration does not specify the
#   checkpoint directory"): that is an error. The fix is a checkpoint directory on a file system
#   every JobManager and TaskManager reaches, such as hdfs://namenode:8020/flink/checkpoints.
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/ops/state/checkpoints/
#     description: Checkpoint storage, and the JobManager fallback when no directory is configured
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/ops/state/checkpoints/#checkpoint-storage
#     description: JobManagerCheckpointStorage limits (5 MB per state, JobManager memory)
#   - ref: https://github.com/apache/flink/blob/release-1.20.0/flink-runtime/src/main/java/org/apache/flink/runtime/state/storage/FileSystemCheckpointStorage.java
#     description: FileSystemCheckpointStorage.createFromConfig refuses a missing directory
# custom:
#   id: CKPT501
#   name: checkpoint-dir-missing
#   severity: warning
#   fixable: false
package ckptlint.rules.storage.checkpoint_dir_missing

import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.storage

interval := input.effective.checkpointing.interval

dir_key := input.effective.checkpointing.dir.key

storage_v := input.effective.checkpointing.storage

backend := input.effective.state_backend.type

# storage_name is the explicitly configured checkpoint storage, lower-cased.
storage_name := lower(trim_space(storage_v.value)) if {
	storage_v.set
	is_string(storage_v.value)
}

# On Flink 1.x the backend name "jobmanager" loads the legacy
# MemoryStateBackend, which is its own checkpoint storage and takes
# precedence over any configured one (CheckpointStorageLoader).
legacy_memory if {
	storage.backend_name == "jobmanager"
	storage.version.major == 1
}

no_dir if not storage.dir

# Before 1.13, "filesystem" is FsStateBackend, which requires a directory.
legacy_fs_error if {
	storage.backend_name == "filesystem"
	not storage.at_least(1, 13)
}

storage_fs_error if {
	storage_name == "filesystem"
	not legacy_memory
}

jm_storage if not storage_name

jm_storage if storage_name == "jobmanager"

jm_storage if legacy_memory

interval_text := sprintf("%s %s at %s", [interval.key, interval.display, storage.origin(interval)])

how := sprintf(" (%s is %q at %s)", [storage_v.key, storage_v.value, storage.origin(storage_v)]) if {
	storage_name == "jobmanager"
	not legacy_memory
} else := sprintf(" (state backend %q at %s is the legacy MemoryStateBackend, which is its own checkpoint storage on Flink 1.x)", [backend.value, storage.origin(backend)]) if {
	legacy_memory
} else := ""

deny contains f if {
	flink.checkpointing
	no_dir
	jm_storage
	not legacy_fs_error
	not storage_fs_error
	f := result.finding(interval, result.msg(
		"Checkpointing is on but no checkpoint directory is set, so checkpoints live in the JobManager heap and are lost with it.",
		sprintf(
			"checkpointing is on (%s) but no checkpoint directory is set, so Flink keeps checkpoints with JobManagerCheckpointStorage%s: their state is held in the JobManager's heap, not in a durable file system, and is lost with the JobManager process; each state may be at most 5 MiB (a larger one fails the checkpoint with \"Size of the state is larger than the maximum permitted memory-backed state\") and all of it must fit in the JobManager's memory. Set %s to a directory on a file system every JobManager and TaskManager reaches, e.g. hdfs://<namenode>:8020/flink/checkpoints",
			[interval_text, how, dir_key],
		),
	))
}

deny contains f if {
	flink.checkpointing
	no_dir
	storage_fs_error
	not legacy_fs_error
	f := object.union(
		result.finding(storage_v, result.msg(
			sprintf("%s is \"filesystem\" but no checkpoint directory is set, so every job fails when it is submitted.", [storage_v.key]),
			sprintf(
				"%s is \"filesystem\" (at %s) but no checkpoint directory is set while checkpointing is on (%s): FileSystemCheckpointStorage cannot be created without one, so every job fails when it is submitted with \"Cannot create the file system state backend: The configuration does not specify the checkpoint directory '%s'\". Set %s to a directory on a file system every JobManager and TaskManager reaches, e.g. hdfs://<namenode>:8020/flink/checkpoints",
				[storage_v.key, storage.origin(storage_v), interval_text, dir_key, dir_key],
			),
		)),
		{"severity": "error"},
	)
}

deny contains f if {
	flink.checkpointing
	no_dir
	legacy_fs_error
	f := object.union(
		result.finding(backend, result.msg(
			sprintf("State backend \"filesystem\" needs a checkpoint directory and none is set, so every job fails when it is submitted.", []),
			sprintf(
				"state backend \"filesystem\" (%s at %s) is FsStateBackend on %s, which needs a checkpoint directory, and none is set while checkpointing is on (%s): every job fails when it is submitted with \"Cannot create the file system state backend: The configuration does not specify the checkpoint directory '%s'\". Set %s to a directory on a file system every JobManager and TaskManager reaches, e.g. hdfs://<namenode>:8020/flink/checkpoints",
				[backend.key, storage.origin(backend), storage.version_text, interval_text, dir_key, dir_key],
			),
		)),
		{"severity": "error"},
	)
}
