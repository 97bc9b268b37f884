package ckptlint.rules.storage.checkpoint_dir_not_shared_test

import data.ckptlint.rules.storage.checkpoint_dir_not_shared

loc(line) := {"file": "flink-conf.yaml", "line": line}

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"versions": {"flink": {"value": "1.18", "major": 1, "minor": 18, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
	"effective": {
		"checkpointing": {"dir": {"value": "file:///data/checkpoints", "set": true, "key": "state.checkpoints.dir", "loc": loc(2)}},
		"ha": {"type": {"value": "NONE", "set": false, "key": "high-availability.type"}},
	},
	"cluster": {"declared": false},
}

three_tms := json.patch(base, [{"op": "replace", "path": "/cluster", "value": {"declared": true, "name": "prod", "taskmanagers": 3}}])

test_declared_taskmanagers_is_an_error if {
	some f in checkpoint_dir_not_shared.deny with input as three_tms
	not f.severity
	contains(f.message, "file:///data/checkpoints (state.checkpoints.dir at flink-conf.yaml:2)")
	contains(f.message, "cluster \"prod\" in .ckptlint.hcl declares 3 TaskManagers")
	f.loc.line == 2
}

test_manifest_replicas_is_an_error if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/flink/format", "value": "flink-deployment"},
		{"op": "add", "path": "/flink/manifest", "value": {"taskmanager_replicas": {"value": "4", "loc": {"file": "deploy.yaml", "line": 30}}}},
	])
	some f in checkpoint_dir_not_shared.deny with input as inp
	not f.severity
	contains(f.message, "4 TaskManager replicas (spec.taskManager.replicas at deploy.yaml:30)")
}

test_ha_implies_warning if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/ha/type", "value": {"value": "zookeeper", "set": true, "key": "high-availability.type", "loc": loc(5)}}])
	some f in checkpoint_dir_not_shared.deny with input as inp
	f.severity == "warning"
	contains(f.message, "high availability is on (high-availability.type: zookeeper at flink-conf.yaml:5)")
}

test_flink_deployment_implies_warning if {
	inp := json.patch(base, [{"op": "replace", "path": "/flink/format", "value": "flink-deployment"}])
	some f in checkpoint_dir_not_shared.deny with input as inp
	f.severity == "warning"
	contains(f.message, "separate pod")
}

test_unknown_hosts_is_info if {
	some f in checkpoint_dir_not_shared.deny with input as base
	f.severity == "info"
	contains(f.message, "Declare taskmanagers")
}

test_schemeless_path_is_local_without_default_scheme if {
	some f in checkpoint_dir_not_shared.deny with input as json.patch(three_tms, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "/data/checkpoints"}])
	contains(f.message, "fs.default-scheme is not set")
}

test_schemeless_path_with_hdfs_default_scheme_is_silent if {
	inp := json.patch(three_tms, [
		{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "/flink/checkpoints"},
		{"op": "replace", "path": "/flink/keys", "value": {"fs.default-scheme": {"value": "hdfs://nn:8020/"}}},
	])
	count(checkpoint_dir_not_shared.deny) == 0 with input as inp
}

test_shared_file_systems_are_silent if {
	every d in ["hdfs://nn:8020/flink/checkpoints", "hdfs:///flink/checkpoints", "s3://bucket/checkpoints", "oss://b/c"] {
		count(checkpoint_dir_not_shared.deny) == 0 with input as json.patch(three_tms, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": d}])
	}
}

test_no_dir_is_silent if {
	inp := json.patch(three_tms, [{"op": "replace", "path": "/effective/checkpointing/dir", "value": {"value": null, "set": false, "key": "state.checkpoints.dir"}}])
	count(checkpoint_dir_not_shared.deny) == 0 with input as inp
}
