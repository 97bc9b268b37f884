package ckptlint.rules.hygiene.key_versions_test

import data.ckptlint.rules.hygiene.key_versions

loc(line) := {"file": "flink-conf.yaml", "line": line, "col": 1}

inp(declared, uses, keys) := {
	"versions": {"flink": {"value": "1.17", "major": 1, "minor": 17, "declared": declared, "source": "config"}},
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": keys, "notices": [], "key_uses": uses},
}

deprecated := {"key": "state.backend", "problem": "deprecated", "use": "state.backend.type", "loc": loc(2), "message": "state.backend is deprecated on Flink 1.17; use state.backend.type"}

# The release still reads the old name: info, and the rename needs the version.
test_deprecated_is_info_with_rename if {
	doc := object.union(inp(true, [deprecated], {"state.backend": {"value": "rocksdb", "loc": loc(2)}}), {"flink": {"key_since": {"state.backend.type": "1.17"}}})
	some f in key_versions.deny with input as doc
	f.severity == "info"
	f.version_dependent
	contains(f.detail, "Config uses deprecated configuration key 'state.backend' instead of proper key 'state.backend.type'")
	contains(f.detail, "(a release older than Flink 1.17 does not read that name)")
	f.fix == [{"op": "rename", "target": "flink", "key": "state.backend", "new_key": "state.backend.type", "needs_version": true}]
}

test_shadowed_is_a_warning_with_delete if {
	u := {"key": "state.backend", "problem": "shadowed", "use": "state.backend.type", "loc": loc(2), "message": "x"}
	keys := {"state.backend": {"value": "rocksdb", "loc": loc(2)}, "state.backend.type": {"value": "hashmap", "loc": loc(3)}}
	some f in key_versions.deny with input as inp(true, [u], keys)
	f.severity == "warning"
	f.version_dependent
	contains(f.detail, "state.backend.type is also set (flink-conf.yaml:3, \"hashmap\")")
	f.fix == [{"op": "delete", "target": "flink", "key": "state.backend", "needs_version": true}]
}

unread := {"key": "execution.checkpointing.dir", "problem": "unread", "use": "state.checkpoints.dir", "loc": loc(4), "message": "Flink 1.17 does not read execution.checkpointing.dir (it exists from Flink 1.20)"}

test_unread_on_a_declared_version_is_an_error_with_rename if {
	some f in key_versions.deny with input as inp(true, [unread], {"execution.checkpointing.dir": {"value": "hdfs:///c", "loc": loc(4)}})
	f.severity == "error"
	contains(f.detail, "silently does nothing")
	f.fix == [{"op": "rename", "target": "flink", "key": "execution.checkpointing.dir", "new_key": "state.checkpoints.dir"}]
}

# The deletion is right only where the key is unread: held back for a
# release outside the key tables (docs/versions.md).
test_unread_when_the_other_spelling_is_set_deletes if {
	keys := {"execution.checkpointing.dir": {"value": "hdfs:///c", "loc": loc(4)}, "state.checkpoints.dir": {"value": "hdfs:///d", "loc": loc(5)}}
	some f in key_versions.deny with input as inp(true, [unread], keys)
	f.version_dependent
	f.fix == [{"op": "delete", "target": "flink", "key": "execution.checkpointing.dir", "needs_version": true}]
}

test_unread_on_an_assumed_version_is_info_without_fix if {
	some f in key_versions.deny with input as inp(false, [unread], {})
	f.severity == "info"
	not f.fix
}

test_fs_hdfs_keys_are_left_to_ckpt605 if {
	u := {"key": "fs.hdfs.hdfssite", "problem": "deprecated", "use": "env.hadoop.conf.dir", "loc": loc(6), "message": "x"}
	count(key_versions.deny) == 0 with input as inp(true, [u], {})
}

test_no_key_uses_is_silent if {
	count(key_versions.deny) == 0 with input as inp(true, [], {})
}

# Issue 23: the oldest release with a deprecated spelling, 1.2 (recovery.mode
# under FLINK-4253), reads it without the WARN, which came with 1.3; the
# newest quotes it.
test_deprecated_on_1_2_quotes_no_warn if {
	u := {"key": "recovery.mode", "problem": "deprecated", "use": "high-availability", "loc": loc(2), "message": "x"}
	doc := json.patch(inp(true, [u], {"recovery.mode": {"value": "zookeeper", "loc": loc(2)}}), [
		{"op": "replace", "path": "/versions/flink/value", "value": "1.2"},
		{"op": "replace", "path": "/versions/flink/minor", "value": 2},
	])
	some f in key_versions.deny with input as doc
	not contains(f.detail, "Config uses deprecated configuration key")
	contains(f.detail, "without a log line")
}

test_deprecated_on_2_3_quotes_the_warn if {
	doc := json.patch(inp(true, [deprecated], {"state.backend": {"value": "rocksdb", "loc": loc(2)}}), [
		{"op": "replace", "path": "/versions/flink/major", "value": 2},
		{"op": "replace", "path": "/versions/flink/minor", "value": 3},
	])
	some f in key_versions.deny with input as doc
	contains(f.detail, "logs WARN \"Config uses deprecated configuration key 'state.backend' instead of proper key 'state.backend.type'\"")
}
