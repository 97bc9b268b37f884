# METADATA
# title: State backend "filesystem" or "jobmanager" no longer exists on Flink 2.x
# description: |
#   Flink 1.13 to 1.20 still accept the pre-1.13 state backend names as deprecated aliases:
#   "filesystem" loads the heap backend (hashmap) and logs "filesystem state backend has been
#   deprecated. Please use 'hashmap' state backend instead."; "jobmanager" loads the legacy
#   MemoryStateBackend, which also keeps the checkpoints in the JobManager ("Please use
#   'hashmap' state backend instead with JobManagerCheckpointStorage for equivalent
#   functionality"). Flink 2.x no longer special-cases these names: it looks them up as a
#   factory class and the job fails with "Cannot find configured state backend factory class:
#   filesystem". This is an error when Flink 2.x is declared, an info on a Flink 1.x version,
#   and a warning when the version is not declared and the file could be read by 2.x. The fix
#   sets the state backend to hashmap, and for "jobmanager" also the checkpoint storage to
#   jobmanager, which is what the old name did.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-2.0.0/flink-runtime/src/main/java/org/apache/flink/runtime/state/StateBackendLoader.java
#     description: Flink 2.0 StateBackendLoader, no filesystem/jobmanager shortcuts
#   - ref: https://github.com/apache/flink/blob/release-1.20.0/flink-runtime/src/main/java/org/apache/flink/runtime/state/StateBackendLoader.java
#     description: Flink 1.20 StateBackendLoader, the deprecated aliases and their log messages
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-2.0/docs/ops/state/state_backends/
#     description: State backends available in Flink 2.0
# custom:
#   id: CKPT506
#   name: legacy-state-backend-name
#   severity: error
#   fixable: true
package ckptlint.rules.storage.legacy_backend_name

import data.ckptlint.lib.result
import data.ckptlint.lib.storage

backend := input.effective.state_backend.type

storage_v := input.effective.checkpointing.storage

v := storage.version

legacy if {
	backend.set
	storage.backend_name in {"filesystem", "jobmanager"}
}

# Flink 2.x does not read flink-conf.yaml at all (a rule of its own), so
# its backend setting is not what fails there.
read_by_2 if input.flink.format != "flink-conf"

# The hashmap name exists from Flink 1.13 (FLIP-142); before, these names
# are the real backends.
modern if storage.at_least(1, 13)

# Flink 2.x reads only config.yaml, so a legacy flink-conf.yaml set is 1.x.
could_be_2 if {
	not v.declared
	input.flink.format != "flink-conf"
}

# hashmap exists from Flink 1.13 (FLIP-142): the edit needs a known version.
fix := [result.needs_version(result.set("flink", backend.key, "hashmap"))] if {
	storage.backend_name == "filesystem"
} else := [
	result.needs_version(result.set("flink", backend.key, "hashmap")),
	result.needs_version(result.set("flink", storage_v.key, "jobmanager")),
]

replacement := sprintf("%s: hashmap", [backend.key]) if {
	storage.backend_name == "filesystem"
} else := sprintf("%s: hashmap and %s: jobmanager", [backend.key, storage_v.key])

failure := sprintf("the name is looked up as a factory class and every job fails with \"Cannot find configured state backend factory class: %s\"", [backend.value])

subject := sprintf("%s: %s (at %s)", [backend.key, backend.value, storage.origin(backend)])

deny contains f if {
	legacy
	v.major >= 2
	v.declared
	read_by_2
	f := result.fix(
		backend, result.msg(
			sprintf("%s %s is not a state backend on Flink 2.x, so every job fails to start.", [backend.key, result.short(backend.value)]),
			sprintf(
				"%s is not a state backend on %s: Flink 2.x dropped the 1.x alias, so %s. Set %s",
				[subject, storage.version_text, failure, replacement],
			),
		),
		fix,
	)
}

deny contains f if {
	legacy
	v.major >= 2
	not v.declared
	read_by_2
	f := result.versioned(object.union(
		result.fix(
			backend, result.msg(
				sprintf("%s %s is not a state backend on Flink 2.x, so every job fails to start.", [backend.key, result.short(backend.value)]),
				sprintf(
					"%s is not a state backend on %s: Flink 2.x dropped the 1.x alias, so %s. Set %s",
					[subject, storage.version_text, failure, replacement],
				),
			),
			fix,
		),
		{"severity": "warning"},
	))
}

deny contains f if {
	legacy
	v.major == 1
	modern
	could_be_2
	f := result.versioned(object.union(
		result.fix(
			backend, result.msg(
				sprintf("%s %s is a 1.x alias that Flink 2.x no longer knows, so jobs fail to start there.", [backend.key, result.short(backend.value)]),
				sprintf(
					"%s is a deprecated alias on Flink 1.13 to 1.20, and the version is not known (%s): on Flink 2.x %s. Set %s, which means the same from Flink 1.13 on",
					[subject, storage.version_text, failure, replacement],
				),
			),
			fix,
		),
		{"severity": "warning"},
	))
}

deny contains f if {
	legacy
	v.major == 1
	modern
	not could_be_2
	f := result.versioned(object.union(
		result.fix(
			backend, result.msg(
				sprintf("%s %s is a deprecated alias, and on Flink 2.x every job fails to start with it.", [backend.key, result.short(backend.value)]),
				sprintf(
					"%s is a deprecated alias on %s; Flink logs a deprecation warning for it, and on Flink 2.x %s. Set %s, which means the same from Flink 1.13 on",
					[subject, storage.version_text, failure, replacement],
				),
			),
			fix,
		),
		{"severity": "info"},
	))
}
