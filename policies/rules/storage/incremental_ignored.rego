# METADATA
# title: Incremental checkpoints are enabled for a state backend that ignores them
# description: |
#   execution.checkpointing.incremental (state.backend.incremental before Flink 1.20) only
#   takes effect with a backend that supports incremental checkpoints; the option's description
#   says other backends "may not support incremental checkpoints and ignore this option", and
#   the state backend docs name EmbeddedRocksDBStateBackend (rocksdb) as the backend that
#   offers them. The heap backend (hashmap, and its deprecated names filesystem and jobmanager)
#   silently writes full checkpoints, so checkpoint size and duration grow with the whole state
#   although the configuration says incremental. This is a warning when the file selects such
#   a backend, and an info when it selects none (the default heap backend applies unless the
#   job picks RocksDB itself). There is no automatic fix: either switch the backend to rocksdb
#   (for incremental checkpoints) or drop the option (to say what actually happens).
# related_resources:
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/ops/state/state_backends/
#     description: Incremental checkpoints are offered by EmbeddedRocksDBStateBackend
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/#execution-checkpointing-incremental
#     description: "execution.checkpointing.incremental: some backends ignore it"
# custom:
#   id: CKPT504
#   name: incremental-ignored-by-backend
#   severity: warning
#   fixable: false
package ckptlint.rules.storage.incremental_ignored

import data.ckptlint.lib.result
import data.ckptlint.lib.storage

inc := input.effective.checkpointing.incremental

backend := input.effective.state_backend.type

heap_names := {"hashmap", "filesystem", "jobmanager"}

# filesystem and jobmanager do not start at all on Flink 2.x (CKPT506).
heap_backend if {
	storage.backend_name == "hashmap"
}

heap_backend if {
	storage.backend_name in heap_names
	storage.version.major < 2
}

deny contains f if {
	inc.set
	inc.value == true
	backend.set
	heap_backend
	f := result.finding(inc, result.msg(
		sprintf("%s: true has no effect with the heap state backend, so every checkpoint writes the full state.", [inc.key]),
		sprintf(
			"%s: true (at %s) has no effect: the state backend is %q (%s at %s), the heap backend, which does not support incremental checkpoints and ignores the option, so every checkpoint writes the full state. Switch %s to rocksdb for incremental checkpoints, or remove %s",
			[inc.key, storage.origin(inc), backend.value, backend.key, storage.origin(backend), backend.key, inc.key],
		),
	))
}

default_text := sprintf("defaults to %q", [backend.value]) if {
	is_string(backend.value)
} else := "is not set, so Flink uses its default heap backend"

deny contains f if {
	input.flink
	inc.set
	inc.value == true
	not backend.set
	f := result.info(inc, result.msg(
		sprintf("%s: true has no effect unless the state backend is rocksdb, which this configuration does not set.", [inc.key]),
		sprintf(
			"%s: true (at %s) takes effect only with a backend that supports incremental checkpoints (rocksdb), but %s here %s, which ignores the option and writes full checkpoints; unless the job selects RocksDB itself, set %s: rocksdb",
			[inc.key, storage.origin(inc), backend.key, default_text, backend.key],
		),
	))
}
