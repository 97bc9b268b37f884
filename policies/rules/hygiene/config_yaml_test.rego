package ckptlint.rules.hygiene.config_yaml_test

import data.ckptlint.rules.hygiene.config_yaml

loc(line, col) := {"file": "config.yaml", "line": line, "col": col}

base := {
	"versions": {"flink": {"value": "1.20", "major": 1, "minor": 20, "declared": true, "source": "config"}},
	"flink": {"file": "config.yaml", "format": "flink-config-yaml", "keys": {}, "notices": []},
	"effective": {"checkpointing": {"incremental": {"key": "execution.checkpointing.incremental", "value": false, "set": true, "source": "file", "error": "Unrecognized option for boolean: yes. Expected either true or false(case insensitive)"}}},
}

bool_like(key, word) := json.patch(base, [
	{"op": "replace", "path": "/flink/keys", "value": {key: {"value": word, "kind": "string", "loc": loc(3, 5)}}},
	{"op": "replace", "path": "/flink/notices", "value": [{
		"code": "yaml-bool-like-string", "key": key, "loc": loc(3, 18),
		"message": sprintf("%q is a string in YAML 1.2, not a boolean; Flink's boolean options accept only true or false", [word]),
	}]},
])

test_yes_on_a_boolean_option_is_an_error_with_fix if {
	some f in config_yaml.deny with input as bool_like("execution.checkpointing.incremental", "yes")
	not f.severity
	contains(f.detail, "Unrecognized option for boolean: yes. Expected either true or false(case insensitive)")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.incremental", "value": "true"}]
}

test_off_on_a_catalogued_boolean_maps_to_false if {
	some f in config_yaml.deny with input as bool_like("state.backend.local-recovery", "Off")
	f.fix == [{"op": "set", "target": "flink", "key": "state.backend.local-recovery", "value": "false"}]
}

test_yes_on_an_unknown_key_is_a_warning_without_fix if {
	some f in config_yaml.deny with input as bool_like("my.option", "on")
	f.severity == "warning"
	not f.fix
}

test_null_value_is_an_error_and_deleted if {
	inp := json.patch(base, [{"op": "replace", "path": "/flink/notices", "value": [{
		"code": "yaml-null-value", "key": "state.checkpoints.num-retained", "loc": loc(9, 5),
		"message": "key \"state.checkpoints.num-retained\" has a null value",
	}]}])
	some f in config_yaml.deny with input as inp
	contains(f.detail, "Value must not be null.")
	f.fix == [{"op": "delete", "target": "flink", "key": "state.checkpoints.num-retained"}]
}

test_flat_nested_overlap_is_a_warning if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/flink/keys", "value": {"execution.checkpointing.interval": {"value": "2 min", "loc": loc(8, 3)}}},
		{"op": "replace", "path": "/flink/notices", "value": [{
			"code": "yaml-flat-nested-overlap", "key": "execution.checkpointing.interval", "loc": loc(8, 3),
			"message": "key \"execution.checkpointing.interval\" is also set at line 3; Flink flattens both into one map and keeps this later value",
		}]},
	])
	some f in config_yaml.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "(2 min)")
}

test_clean_file_is_silent if {
	count(config_yaml.deny) == 0 with input as base
}

# Issue 23: a declared release before 1.19 does not read config.yaml at all
# (CKPT603 says so): nothing it would refuse in it. 1.19, the oldest release
# that reads it, and 2.3, the newest, do.
bool_doc(major, minor) := {
	"versions": {"flink": {"major": major, "minor": minor, "declared": true, "source": "config"}},
	"flink": {
		"file": "config.yaml", "format": "flink-config-yaml",
		"keys": {"execution.checkpointing.incremental": {"value": "yes", "loc": loc(2, 1)}},
		"notices": [{"code": "yaml-bool-like-string", "key": "execution.checkpointing.incremental", "message": "x", "loc": loc(2, 1)}],
	},
	"effective": {},
}

test_config_yaml_only_from_1_19 if {
	count(config_yaml.deny) == 0 with input as bool_doc(1, 18)
	count(config_yaml.deny) == 1 with input as bool_doc(1, 19)
	count(config_yaml.deny) == 1 with input as bool_doc(2, 3)
}
