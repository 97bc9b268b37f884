package ckptlint.rules.storage.memory_backend_test

import data.ckptlint.rules.storage.memory_backend

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf"},
	"versions": {"flink": {"value": "1.15", "major": 1, "minor": 15, "source": "config", "declared": true, "why": "flink_version in .ckptlint.hcl"}},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "set": true},
			"dir": {"value": "hdfs://nn:8020/ckpt", "set": true, "key": "state.checkpoints.dir", "loc": {"file": "flink-conf.yaml", "line": 3}},
			"storage": {"set": false, "key": "state.checkpoint-storage"},
		},
		"state_backend": {"type": {"value": "jobmanager", "set": true, "key": "state.backend", "loc": {"file": "flink-conf.yaml", "line": 2}}},
	},
}

test_jobmanager_backend_with_durable_dir_warns if {
	some f in memory_backend.deny with input as base
	not object.get(f, "severity", false)
	contains(f.detail, "state.backend jobmanager (flink-conf.yaml:2, the MemoryStateBackend; on Flink 1.13 to 1.20 a deprecated alias")
	contains(f.detail, "5 MiB (DEFAULT_MAX_STATE_SIZE")
	contains(f.detail, "maxSize=5242880")
	contains(f.detail, "hdfs://nn:8020/ckpt (flink-conf.yaml:3) then receives only the checkpoint metadata")
	contains(f.detail, "state.checkpoint-storage: filesystem")
	f.loc.line == 2
}

test_jobmanager_storage_warns if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": "hashmap", "set": true, "key": "state.backend"}},
		{"op": "replace", "path": "/effective/checkpointing/storage", "value": {"value": "jobmanager", "set": true, "key": "state.checkpoint-storage", "loc": {"file": "flink-conf.yaml", "line": 4}}},
	])
	some f in memory_backend.deny with input as inp
	contains(f.detail, "state.checkpoint-storage: jobmanager (flink-conf.yaml:4, JobManagerCheckpointStorage)")
}

test_old_flink_advises_filesystem_backend if {
	inp := json.patch(base, [{"op": "replace", "path": "/versions/flink", "value": {"value": "1.10", "major": 1, "minor": 10, "source": "config", "declared": true, "why": "x"}}])
	some f in memory_backend.deny with input as inp
	contains(f.detail, "state.backend: filesystem, which writes the state to the checkpoint directory")
}

test_without_dir_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir", "value": {"set": false}}])
	count(memory_backend.deny) == 0 with input as inp
}

test_flink2_is_left_to_ckpt506 if {
	inp := json.patch(base, [{"op": "replace", "path": "/versions/flink", "value": {"value": "2.0", "major": 2, "minor": 0, "source": "config", "declared": true, "why": "x"}}])
	count(memory_backend.deny) == 0 with input as inp
}

test_hashmap_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/state_backend/type/value", "value": "hashmap"}])
	count(memory_backend.deny) == 0 with input as inp
}
