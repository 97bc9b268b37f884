package ckptlint.rules.storage.checkpoint_dir_missing_test

import data.ckptlint.rules.storage.checkpoint_dir_missing

loc(line) := {"file": "flink-conf.yaml", "line": line}

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"versions": {"flink": {"value": "1.20", "major": 1, "minor": 20, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "display": "1 min", "set": true, "key": "execution.checkpointing.interval", "loc": loc(1)},
			"dir": {"value": null, "set": false, "source": "unset", "key": "execution.checkpointing.dir"},
			"storage": {"value": null, "set": false, "source": "unset", "key": "execution.checkpointing.storage"},
		},
		"state_backend": {"type": {"value": "hashmap", "set": false, "source": "default", "key": "state.backend.type"}},
	},
}

with_storage(s) := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/storage", "value": {"value": s, "set": true, "key": "execution.checkpointing.storage", "loc": loc(2)}}])

test_no_dir_warns_jobmanager_storage if {
	some f in checkpoint_dir_missing.deny with input as base
	not f.severity
	contains(f.detail, "JobManagerCheckpointStorage")
	contains(f.detail, "execution.checkpointing.interval 1 min at flink-conf.yaml:1")
	contains(f.detail, "at most 5 MiB")
	contains(f.detail, "Set execution.checkpointing.dir")
	f.loc.line == 1
	object.get(f, "fix", null) == null
}

test_explicit_jobmanager_storage_warns if {
	some f in checkpoint_dir_missing.deny with input as with_storage("jobmanager")
	not f.severity
	contains(f.detail, "execution.checkpointing.storage is \"jobmanager\" at flink-conf.yaml:2")
}

test_filesystem_storage_without_dir_is_an_error if {
	fs := checkpoint_dir_missing.deny with input as with_storage("filesystem")
	count(fs) == 1
	some f in fs
	f.severity == "error"
	contains(f.detail, "Cannot create the file system state backend: The configuration does not specify the checkpoint directory 'execution.checkpointing.dir'")
	f.loc.line == 2
}

test_legacy_memory_backend_wins_over_filesystem_storage if {
	inp := json.patch(with_storage("filesystem"), [
		{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": "jobmanager", "set": true, "key": "state.backend.type", "loc": loc(3)}},
	])
	fs := checkpoint_dir_missing.deny with input as inp
	count(fs) == 1
	some f in fs
	not f.severity
	contains(f.detail, "legacy MemoryStateBackend")
}

test_filesystem_backend_before_1_13_is_an_error if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/versions/flink", "value": {"value": "1.12", "major": 1, "minor": 12, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
		{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": "filesystem", "set": true, "key": "state.backend", "loc": loc(3)}},
		{"op": "replace", "path": "/effective/checkpointing/dir/key", "value": "state.checkpoints.dir"},
	])
	fs := checkpoint_dir_missing.deny with input as inp
	count(fs) == 1
	some f in fs
	f.severity == "error"
	contains(f.detail, "FsStateBackend on Flink 1.12")
	contains(f.detail, "'state.checkpoints.dir'")
}

test_dir_set_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir", "value": {"value": "hdfs:///flink/checkpoints", "set": true, "key": "execution.checkpointing.dir", "loc": loc(4)}}])
	count(checkpoint_dir_missing.deny) == 0 with input as inp
}

test_checkpointing_off_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/interval", "value": {"value": null, "set": false, "key": "execution.checkpointing.interval"}}])
	count(checkpoint_dir_missing.deny) == 0 with input as inp
}

test_custom_storage_is_silent if {
	count(checkpoint_dir_missing.deny) == 0 with input as with_storage("com.example.MyCheckpointStorageFactory")
}
