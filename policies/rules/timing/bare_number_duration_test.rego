package ckptlint.rules.timing.bare_number_duration_test

import data.ckptlint.rules.timing.bare_number_duration

value(field, key, v, raw) := {"flink": {"file": "flink-conf.yaml", "format": "flink-conf"}, "effective": {"checkpointing": {field: {
	"value": v, "raw": raw, "display": "", "set": true, "key": key, "loc": {"file": "flink-conf.yaml", "line": 3},
}}}}

test_bare_timeout_600_warns if {
	some f in bare_number_duration.deny with input as value("timeout", "execution.checkpointing.timeout", 600, "600")
	contains(f.detail, "execution.checkpointing.timeout: 600 (flink-conf.yaml:3) has no unit")
	contains(f.detail, "so this is 600 ms")
	contains(f.detail, "Did you mean 600 s (10 min)?")
	object.get(f, "fix", null) == null
}

test_bare_interval_below_a_second_warns if {
	some f in bare_number_duration.deny with input as value("interval", "execution.checkpointing.interval", 500, " 500 ")
	contains(f.detail, "trigger a checkpoint every 500 ms")
}

test_bare_min_pause_below_100ms_warns if {
	some f in bare_number_duration.deny with input as value("min_pause", "execution.checkpointing.min-pause", 30, "30")
	contains(f.detail, "Did you mean 30 s?")
}

test_bare_min_pause_500ms_passes if {
	count(bare_number_duration.deny) == 0 with input as value("min_pause", "execution.checkpointing.min-pause", 500, "500")
}

test_plausible_bare_number_passes if {
	count(bare_number_duration.deny) == 0 with input as value("interval", "execution.checkpointing.interval", 180000, "180000")
}

test_zero_passes if {
	count(bare_number_duration.deny) == 0 with input as value("min_pause", "execution.checkpointing.min-pause", 0, "0")
}

test_explicit_unit_passes if {
	count(bare_number_duration.deny) == 0 with input as value("timeout", "execution.checkpointing.timeout", 600, "600 ms")
}
