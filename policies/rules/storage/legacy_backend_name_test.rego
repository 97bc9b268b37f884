package ckptlint.rules.storage.legacy_backend_name_test

import data.ckptlint.rules.storage.legacy_backend_name

loc(line) := {"file": "config.yaml", "line": line}

declared(major, minor) := {"value": sprintf("%d.%d", [major, minor]), "major": major, "minor": minor, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}

base := {
	"flink": {"file": "config.yaml", "format": "flink-config-yaml", "keys": {}},
	"versions": {"flink": declared(2, 0)},
	"effective": {
		"checkpointing": {"storage": {"value": null, "set": false, "key": "execution.checkpointing.storage"}},
		"state_backend": {"type": {"value": "filesystem", "set": true, "key": "state.backend.type", "loc": loc(3)}},
	},
}

set_backend(version, name) := json.patch(base, [
	{"op": "replace", "path": "/versions/flink", "value": version},
	{"op": "replace", "path": "/effective/state_backend/type/value", "value": name},
])

test_filesystem_on_2x_is_an_error_with_fix if {
	fs := legacy_backend_name.deny with input as base
	count(fs) == 1
	some f in fs
	not f.severity
	contains(f.detail, "state.backend.type: filesystem (at config.yaml:3) is not a state backend on Flink 2.0")
	contains(f.detail, "Cannot find configured state backend factory class: filesystem")
	f.fix == [{"op": "set", "target": "flink", "key": "state.backend.type", "value": "hashmap", "needs_version": true}]
	f.loc.line == 3
}

test_jobmanager_on_2x_keeps_jobmanager_storage if {
	some f in legacy_backend_name.deny with input as set_backend(declared(2, 1), "jobmanager")
	not f.severity
	f.fix == [
		{"op": "set", "target": "flink", "key": "state.backend.type", "value": "hashmap", "needs_version": true},
		{"op": "set", "target": "flink", "key": "execution.checkpointing.storage", "value": "jobmanager", "needs_version": true},
	]
}

test_1x_declared_is_info if {
	some f in legacy_backend_name.deny with input as set_backend(declared(1, 17), "FileSystem")
	f.severity == "info"
	contains(f.detail, "deprecated alias on Flink 1.17")
	f.fix == [{"op": "set", "target": "flink", "key": "state.backend.type", "value": "hashmap", "needs_version": true}]
}

test_undeclared_config_yaml_is_warning if {
	v := {"value": "1.19", "major": 1, "minor": 19, "declared": false, "source": "evidence", "why": "config.yaml is read from Flink 1.19 (a lower bound; declare flink_version in .ckptlint.hcl)"}
	some f in legacy_backend_name.deny with input as set_backend(v, "filesystem")
	f.severity == "warning"
	contains(f.detail, "Flink 1.19 or later (config.yaml is read from Flink 1.19; declare flink_version in .ckptlint.hcl)")
	count(f.fix) == 1
}

test_undeclared_flink_conf_is_info if {
	v := {"value": "1.18", "major": 1, "minor": 18, "declared": false, "source": "assumed", "why": "no version declared"}
	inp := json.patch(set_backend(v, "filesystem"), [{"op": "replace", "path": "/flink/format", "value": "flink-conf"}])
	some f in legacy_backend_name.deny with input as inp
	f.severity == "info"
	contains(f.detail, "Flink 1.18, assumed")
}

test_before_1_13_is_silent if {
	count(legacy_backend_name.deny) == 0 with input as set_backend(declared(1, 12), "filesystem")
}

test_modern_names_are_silent if {
	every name in ["hashmap", "rocksdb", "forst"] {
		count(legacy_backend_name.deny) == 0 with input as set_backend(declared(2, 0), name)
	}
}

test_default_backend_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/state_backend/type", "value": {"value": "hashmap", "set": false, "key": "state.backend.type"}}])
	count(legacy_backend_name.deny) == 0 with input as inp
}

test_flink_conf_on_2x_is_left_to_the_file_rule if {
	inp := json.patch(base, [{"op": "replace", "path": "/flink/format", "value": "flink-conf"}])
	count(legacy_backend_name.deny) == 0 with input as inp
}
