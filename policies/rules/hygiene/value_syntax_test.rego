package ckptlint.rules.hygiene.value_syntax_test

import data.ckptlint.rules.hygiene.value_syntax

loc(line) := {"file": "flink-conf.yaml", "line": line, "col": 1}

inp(effective, notices) := {
	"versions": {"flink": {"value": "1.17", "major": 1, "minor": 17, "declared": true, "source": "config"}},
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}, "notices": notices},
	"effective": effective,
}

bad_int := {"checkpointing": {"max_concurrent": {
	"key": "execution.checkpointing.max-concurrent-checkpoints", "raw": "1_000", "value": 1, "display": "1",
	"error": "For input string: \"1_000\"", "set": true, "source": "file", "loc": loc(2),
}}}

test_int_with_underscores_is_an_error_with_fix if {
	some f in value_syntax.deny with input as inp(bad_int, [])
	contains(f.detail, "Could not parse value '1_000' for key 'execution.checkpointing.max-concurrent-checkpoints'.")
	contains(f.detail, "the default 1")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.max-concurrent-checkpoints", "value": "1000"}]
}

test_memory_fraction_takes_the_exact_spelling if {
	eff := {"checkpointing": {"data_inline_threshold": {
		"key": "state.storage.fs.memory-threshold", "raw": "1.5m", "value": 20480, "display": "20 KiB",
		"error": "Flink memory sizes are integers: \"1.5m\" has a fraction; write \"1536k\"", "set": true, "source": "file", "loc": loc(3),
	}}}
	some f in value_syntax.deny with input as inp(eff, [])
	f.fix == [{"op": "set", "target": "flink", "key": "state.storage.fs.memory-threshold", "value": "1536k"}]
}

test_enum_in_kebab_case_is_fixed if {
	eff := {"checkpointing": {"mode": {
		"key": "execution.checkpointing.mode", "raw": "at-least-once", "value": "EXACTLY_ONCE", "display": "EXACTLY_ONCE",
		"error": "\"at-least-once\" is not one of EXACTLY_ONCE, AT_LEAST_ONCE", "set": true, "source": "file", "loc": loc(4),
	}}}
	some f in value_syntax.deny with input as inp(eff, [])
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.mode", "value": "AT_LEAST_ONCE"}]
}

test_durations_are_left_to_ckpt207 if {
	eff := {"checkpointing": {"timeout": {
		"key": "execution.checkpointing.timeout", "raw": "10 mins", "value": 600000, "display": "10 min",
		"error": "Could not parse", "set": true, "source": "file", "loc": loc(5),
	}}}
	count(value_syntax.deny) == 0 with input as inp(eff, [])
}

test_quoted_values_are_left_to_ckpt601 if {
	notices := [{"code": "legacy-quoted-value", "key": "execution.checkpointing.max-concurrent-checkpoints", "loc": {"file": "flink-conf.yaml", "line": 2, "col": 40}}]
	count(value_syntax.deny) == 0 with input as inp(bad_int, notices)
}

test_hadoop_values_and_valid_values_are_silent if {
	eff := {
		"hdfs_client": {"blocksize": {"key": "dfs.blocksize", "raw": "1mb", "error": "Invalid size prefix", "value": 134217728, "loc": loc(1)}},
		"parallelism": {"default": {"key": "parallelism.default", "raw": "4", "value": 4, "loc": loc(2)}},
	}
	count(value_syntax.deny) == 0 with input as inp(eff, [])
}

# Issue 23: "Could not parse value" is what typed options (1.10) throw; the
# oldest release with such a key, 1.5 (state.backend.incremental, FLINK-7925),
# reads "yes" as false without an error.
test_lenient_release_no_refusal if {
	doc := {
		"versions": {"flink": {"value": "1.5", "major": 1, "minor": 5, "declared": true, "source": "config"}},
		"flink": {"file": "flink-conf.yaml", "notices": []},
		"effective": {"checkpointing": {"incremental": {
			"value": false, "display": "false", "raw": "yes", "key": "state.backend.incremental", "set": true, "source": "file",
			"error": "Boolean.parseBoolean reads \"yes\" as false", "lenient": true, "loc": {"file": "flink-conf.yaml", "line": 3},
		}}},
	}
	some f in value_syntax.deny with input as doc
	f.severity == "error"
	not contains(f.detail, "Could not parse value")
	contains(f.detail, "Boolean.parseBoolean reads \"yes\" as false, so it runs with false and no error")
	f.fix == [{"op": "set", "target": "flink", "key": "state.backend.incremental", "value": "true"}]
}
