package ckptlint.rules.storage.rocksdb_full_checkpoints_test

import data.ckptlint.rules.storage.rocksdb_full_checkpoints

loc(line) := {"file": "flink-conf.yaml", "line": line}

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"versions": {"flink": {"value": "1.15", "major": 1, "minor": 15, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
	"effective": {
		"checkpointing": {
			"interval": {"value": 5000, "display": "5 s", "set": true, "key": "execution.checkpointing.interval", "loc": loc(8)},
			"dir": {"value": "hdfs://namenode:8020/flink/checkpoints", "set": true, "key": "state.checkpoints.dir", "loc": loc(6)},
			"incremental": {"value": false, "set": false, "source": "default", "key": "state.backend.incremental"},
		},
		"state_backend": {"type": {"value": "rocksdb", "set": true, "key": "state.backend", "loc": loc(5)}},
	},
}

test_full_rocksdb_checkpoints_to_hdfs_hint if {
	some f in rocksdb_full_checkpoints.deny with input as base
	contains(f.detail, "state backend rocksdb (state.backend at flink-conf.yaml:5)")
	contains(f.detail, "state.backend.incremental unset, default false")
	contains(f.detail, "every 5 s (execution.checkpointing.interval at flink-conf.yaml:8)")
	contains(f.detail, "set state.backend.incremental: true")
	f.loc.line == 5
	object.get(f, "fix", null) == null
}

test_explicit_false_is_named if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/incremental", "value": {"value": false, "set": true, "key": "state.backend.incremental", "loc": loc(7)}}])
	some f in rocksdb_full_checkpoints.deny with input as inp
	contains(f.detail, "state.backend.incremental is false at flink-conf.yaml:7")
}

test_incremental_on_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/incremental/value", "value": true}])
	count(rocksdb_full_checkpoints.deny) == 0 with input as inp
}

test_not_on_hdfs_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://bucket/checkpoints"}])
	count(rocksdb_full_checkpoints.deny) == 0 with input as inp
}

test_heap_backend_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/state_backend/type/value", "value": "hashmap"}])
	count(rocksdb_full_checkpoints.deny) == 0 with input as inp
}

test_checkpointing_off_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/interval", "value": {"value": null, "set": false}}])
	count(rocksdb_full_checkpoints.deny) == 0 with input as inp
}
