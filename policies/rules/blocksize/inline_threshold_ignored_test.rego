package ckptlint.rules.blocksize.inline_threshold_ignored_test

import data.ckptlint.rules.blocksize.inline_threshold_ignored as rule

base := {
	"flink": {"file": "config.yaml"},
	"versions": {"flink": {"major": 1, "minor": 20, "declared": true, "source": "config"}},
	"effective": {"checkpointing": {"data_inline_threshold": {
		"value": 2097152, "display": "2 MiB", "set": true, "source": "file", "raw": "2mb",
		"key": "execution.checkpointing.data-inline-threshold", "loc": {"file": "config.yaml", "line": 5},
	}}},
}

test_above_one_mib_fires_with_fix if {
	some f in rule.deny with input as base
	contains(f.detail, "execution.checkpointing.data-inline-threshold 2 MiB (from config.yaml:5) is above the 1 MiB Flink accepts")
	contains(f.detail, "\"Ignoring invalid file size threshold value (execution.checkpointing.data-inline-threshold): 2097152 - using default value ... instead\"")
	contains(f.detail, "its default (20 KiB)")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.data-inline-threshold", "value": "1mb"}]
	f.loc.line == 5
}

test_old_key_on_old_version_names_the_old_current_key if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/versions/flink", "value": {"major": 1, "minor": 10, "declared": true, "source": "config"}},
		{"op": "replace", "path": "/effective/checkpointing/data_inline_threshold/key", "value": "state.backend.fs.memory-threshold"},
	])
	some f in rule.deny with input as inp
	contains(f.detail, "value (state.backend.fs.memory-threshold)")
	contains(f.detail, "its default (1 KiB)")
	f.fix == [{"op": "set", "target": "flink", "key": "state.backend.fs.memory-threshold", "value": "1048576"}]
}

# Issue 23: the default was 1 KiB before FLINK-17865 (1.11, not 1.12), and
# 1.4 and older refuse the value instead of ignoring it; 1.5 is the oldest
# release with the WARN.
old_release(minor) := json.patch(base, [
	{"op": "replace", "path": "/versions/flink", "value": {"major": 1, "minor": minor, "declared": true, "source": "config", "text": sprintf("Flink 1.%d (flink_version in .ckptlint.hcl)", [minor])}},
	{"op": "replace", "path": "/effective/checkpointing/data_inline_threshold/key", "value": "state.backend.fs.memory-threshold"},
])

test_default_changed_in_1_11 if {
	some f in rule.deny with input as old_release(11)
	contains(f.detail, "its default (20 KiB)")
	f.fix[0].value == "1mb"
}

test_oldest_release_with_the_warn if {
	some f in rule.deny with input as old_release(5)
	contains(f.detail, "Ignoring invalid file size threshold value")
	contains(f.detail, "its default (1 KiB)")
}

test_before_1_5_refused if {
	some f in rule.deny with input as old_release(4)
	contains(f.detail, "The threshold for file state size cannot be larger than 1048576")
	not contains(f.detail, "Ignoring invalid file size threshold value")
	f.fix[0].value == "1048576"
}

test_exactly_one_mib_passes if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/data_inline_threshold/value", "value": 1048576}])
	count(rule.deny) == 0 with input as inp
}

test_default_passes if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/data_inline_threshold", "value": {"value": 20480, "set": false, "source": "default"}}])
	count(rule.deny) == 0 with input as inp
}
