# METADATA
# title: Snapshots go through the JobManager heap although a durable checkpoint directory is set
# description: |
#   With state.backend: jobmanager (Flink's MemoryStateBackend; on Flink 1.13 to 1.20 a
#   deprecated alias that still loads it and, being a legacy backend, also overrides any
#   configured checkpoint storage) or with checkpoint storage jobmanager
#   (execution.checkpointing.storage / state.checkpoint-storage, Flink 1.13 or later), every
#   snapshot is sent to the JobManager and kept on its heap. Each individual state is limited
#   to 5 MiB (MemoryStateBackend and JobManagerCheckpointStorage DEFAULT_MAX_STATE_SIZE =
#   5 * 1024 * 1024, set only in code; no configuration option changes it), and a larger one
#   fails the checkpoint with "Size of the state is larger than the maximum permitted
#   memory-backed state. Size=..., maxSize=5242880". A checkpoint directory set alongside
#   only receives the checkpoint metadata: the state itself is not written there, so the
#   durable directory does not make the state durable or bounded. Fix by choosing the file
#   system checkpoint storage (execution.checkpointing.storage / state.checkpoint-storage:
#   filesystem, or leaving it unset with a checkpoint directory, Flink 1.13 or later) with the
#   hashmap backend, or the filesystem backend before 1.13. On Flink 2.x the backend name
#   jobmanager itself fails (CKPT506).
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/state/memory/MemoryStateBackend.java
#     description: MemoryStateBackend, DEFAULT_MAX_STATE_SIZE (5 MiB) and the metadata-only checkpoint directory
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/state/storage/JobManagerCheckpointStorage.java
#     description: JobManagerCheckpointStorage, DEFAULT_MAX_STATE_SIZE (5 MiB)
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/state/CheckpointStorageLoader.java
#     description: a legacy state backend (jobmanager) is used as checkpoint storage and state.checkpoint-storage is ignored
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-runtime/src/main/java/org/apache/flink/runtime/state/memory/MemCheckpointStreamFactory.java
#     description: the "Size of the state is larger than the maximum permitted memory-backed state" failure
# custom:
#   id: CKPT510
#   name: jobmanager-heap-snapshots
#   severity: warning
#   fixable: false
package ckptlint.rules.storage.memory_backend

import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.storage

backend := input.effective.state_backend.type

cstorage := input.effective.checkpointing.storage

dir := flink.dir

limit := "5 MiB (DEFAULT_MAX_STATE_SIZE of MemoryStateBackend and JobManagerCheckpointStorage; no configuration option changes it)"

failure := "\"Size of the state is larger than the maximum permitted memory-backed state. Size=<bytes>, maxSize=5242880\""

# via names the setting that sends snapshots to the JobManager.
via := sprintf("state.backend %s (%s, the MemoryStateBackend%s)", [backend.value, storage.origin(backend), legacy_note]) if {
	backend.set
	storage.backend_name == "jobmanager"
	not storage.at_least(2, 0)
} else := sprintf("%s: %s (%s, JobManagerCheckpointStorage)", [cstorage.key, cstorage.value, storage.origin(cstorage)]) if {
	cstorage.set
	lower(trim_space(cstorage.value)) == "jobmanager"
	storage.at_least(1, 13)
}

at := backend if {
	backend.set
	storage.backend_name == "jobmanager"
} else := cstorage

legacy_note := "; on Flink 1.13 to 1.20 a deprecated alias that, as a legacy backend, also overrides any configured checkpoint storage" if {
	storage.at_least(1, 13)
} else := ""

deny contains f if {
	flink.checkpointing
	dir.set
	via
	f := result.finding(at, result.msg(
		"The JobManager state backend keeps every snapshot on the JobManager heap, so a state over 5 MiB fails its checkpoint.",
		sprintf(
			"%s sends every snapshot to the JobManager and keeps it on the JobManager heap, each individual state limited to %s; a larger state fails the checkpoint with %s. The checkpoint directory %s (%s) then receives only the checkpoint metadata, not the state, so it makes neither durable nor bounded. Use the file system checkpoint storage for that directory instead: %s",
			[via, limit, failure, dir.value, storage.origin(dir), advice],
		),
	))
}

advice := "state.backend: filesystem, which writes the state to the checkpoint directory (Flink before 1.13)" if {
	not storage.at_least(1, 13)
} else := sprintf("the hashmap (or rocksdb) state backend with %s: filesystem, or that key unset with the checkpoint directory set", [storage_key])

storage_key := cstorage.key if cstorage.key

else := "execution.checkpointing.storage" if storage.at_least(1, 20)

else := "state.checkpoint-storage"
