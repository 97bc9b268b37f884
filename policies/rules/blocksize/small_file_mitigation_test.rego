package ckptlint.rules.blocksize.small_file_mitigation_test

import data.ckptlint.rules.blocksize.small_file_mitigation as rule

# Story (a): Flink 1.13, 6 jobs x parallelism 24 x 8 stateful operators.
base := {
	"flink": {"file": "flink-conf.yaml"},
	"versions": {"flink": {"major": 1, "minor": 13, "declared": true, "source": "config"}},
	"deployment": {"declared": true, "jobs": 6, "stateful_operators": 8},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "set": true},
			"dir": {"value": "hdfs://nn:8020/ckpt", "set": true, "loc": {"file": "flink-conf.yaml", "line": 15}},
			"max_concurrent": {"value": 1},
			"data_inline_threshold": {"value": 20480, "display": "20 KiB", "set": false, "source": "default", "key": "state.storage.fs.memory-threshold"},
			"file_merging": {"value": false, "set": false},
		},
		"parallelism": {"default": {"value": 24, "set": true}},
		"hdfs_client": {
			"blocksize": {"value": 134217728, "display": "128 MiB", "set": false, "source": "default"},
			"default_fs": {"value": "file:///"},
		},
	},
}

test_story_a_gets_the_inline_threshold_hint if {
	some f in rule.deny with input as base
	contains(f.detail, "each checkpoint writes about 1152 files to HDFS (6 job(s) x parallelism 24 (parallelism.default) x 8 stateful operator(s) x 1 concurrent checkpoint(s))")
	contains(f.detail, "raise state.storage.fs.memory-threshold (now the default 20 KiB) towards its maximum 1mb")
	not contains(f.detail, "file-merging")
	f.loc.line == 15
}

test_few_files_are_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/deployment/jobs", "value": 1}])
	count(rule.deny) == 0 with input as inp
}

test_raised_threshold_before_1_20_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/data_inline_threshold", "value": {"value": 1048576, "display": "1 MiB", "set": true, "key": "state.storage.fs.memory-threshold", "loc": {"file": "flink-conf.yaml", "line": 20}}}])
	count(rule.deny) == 0 with input as inp
}

test_1_20_without_file_merging_gets_that_hint if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/versions/flink", "value": {"major": 1, "minor": 20, "declared": true, "source": "config"}},
		{"op": "replace", "path": "/effective/checkpointing/data_inline_threshold", "value": {"value": 1048576, "display": "1 MiB", "set": true, "key": "execution.checkpointing.data-inline-threshold", "loc": {"file": "flink-conf.yaml", "line": 20}}},
	])
	some f in rule.deny with input as inp
	contains(f.detail, "enable execution.checkpointing.file-merging.enabled")
	f.loc.line == 20
}

test_assumed_version_does_not_suggest_file_merging if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/versions/flink", "value": {"major": 1, "minor": 20, "declared": false, "source": "assumed"}},
		{"op": "replace", "path": "/effective/checkpointing/data_inline_threshold/set", "value": true},
	])
	count(rule.deny) == 0 with input as inp
}

test_file_merging_on_and_threshold_set_is_silent if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/versions/flink", "value": {"major": 2, "minor": 0, "declared": true, "source": "config"}},
		{"op": "replace", "path": "/effective/checkpointing/file_merging/value", "value": true},
		{"op": "replace", "path": "/effective/checkpointing/data_inline_threshold/set", "value": true},
	])
	count(rule.deny) == 0 with input as inp
}

test_checkpointing_off_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/interval", "value": {"set": false}}])
	count(rule.deny) == 0 with input as inp
}
