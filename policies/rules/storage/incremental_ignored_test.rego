package ckptlint.rules.storage.incremental_ignored_test

import data.ckptlint.rules.storage.incremental_ignored

loc(line) := {"file": "flink-conf.yaml", "line": line}

version(major, minor) := {"value": sprintf("%d.%d", [major, minor]), "major": major, "minor": minor, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"versions": {"flink": version(1, 18)},
	"effective": {
		"checkpointing": {"incremental": {"value": true, "set": true, "key": "state.backend.incremental", "loc": loc(4)}},
		"state_backend": {"type": {"value": "hashmap", "set": true, "key": "state.backend.type", "loc": loc(3)}},
	},
}

with_backend(name) := json.patch(base, [{"op": "replace", "path": "/effective/state_backend/type/value", "value": name}])

test_hashmap_ignores_incremental if {
	some f in incremental_ignored.deny with input as base
	not f.severity
	contains(f.detail, "state.backend.incremental: true (at flink-conf.yaml:4) has no effect")
	contains(f.detail, "\"hashmap\" (state.backend.type at flink-conf.yaml:3)")
	f.loc.line == 4
	object.get(f, "fix", null) == null
}

test_legacy_heap_names_on_1x if {
	every name in ["filesystem", "jobmanager", "HashMap"] {
		count(incremental_ignored.deny) == 1 with input as with_backend(name)
	}
}

test_legacy_names_on_2x_are_left_to_ckpt506 if {
	inp := json.patch(with_backend("filesystem"), [{"op": "replace", "path": "/versions/flink", "value": version(2, 0)}])
	count(incremental_ignored.deny) == 0 with input as inp
}

test_incremental_backends_are_silent if {
	every name in ["rocksdb", "forst", "org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackendFactory"] {
		count(incremental_ignored.deny) == 0 with input as with_backend(name)
	}
}

test_unset_backend_is_info if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": null, "set": false, "source": "unset", "key": "state.backend.type"}}])
	some f in incremental_ignored.deny with input as inp
	f.severity == "info"
	contains(f.detail, "is not set, so Flink uses its default heap backend")
}

test_default_hashmap_is_info if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/versions/flink", "value": version(1, 20)},
		{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": "hashmap", "set": false, "source": "default", "key": "state.backend.type"}},
	])
	some f in incremental_ignored.deny with input as inp
	f.severity == "info"
	contains(f.detail, "defaults to \"hashmap\"")
}

test_incremental_off_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/incremental", "value": {"value": false, "set": false, "key": "state.backend.incremental"}}])
	count(incremental_ignored.deny) == 0 with input as inp
}
