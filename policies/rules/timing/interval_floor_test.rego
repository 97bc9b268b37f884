package ckptlint.rules.timing.interval_floor_test

import data.ckptlint.rules.timing.interval_floor

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf"},
	"effective": {"checkpointing": {
		"interval": {"value": 30000, "display": "30 s", "raw": "30 s", "set": true, "key": "execution.checkpointing.interval", "loc": {"file": "flink-conf.yaml", "line": 1}},
		"timeout": {"value": 600000, "display": "10 min", "set": false, "key": "execution.checkpointing.timeout"},
		"min_pause": {"value": 0, "display": "0 s", "set": false, "key": "execution.checkpointing.min-pause"},
		"max_concurrent": {"value": 1, "display": "1", "set": false, "key": "execution.checkpointing.max-concurrent-checkpoints"},
		"tolerable_failed": {"value": 0, "display": "0", "set": false, "key": "execution.checkpointing.tolerable-failed-checkpoints"},
	}},
}

set_value(field, v, raw, display) := json.patch(base, [{"op": "replace", "path": sprintf("/effective/checkpointing/%s", [field]), "value": {
	"value": v, "raw": raw, "display": display, "set": true,
	"key": base.effective.checkpointing[field].key, "loc": {"file": "flink-conf.yaml", "line": 2},
}}])

test_defaults_pass if {
	count(interval_floor.deny) == 0 with input as base
}

test_interval_below_10ms_is_refused if {
	some f in interval_floor.deny with input as set_value("interval", 5, "5", "5 ms")
	object.get(f, "severity", null) == null
	contains(f.detail, "Checkpoint interval must be larger than or equal to 10 ms")
	contains(f.detail, `"5 s" if that was meant`)
}

test_interval_10ms_passes if {
	count(interval_floor.deny) == 0 with input as set_value("interval", 10, "10 ms", "10 ms")
}

test_interval_zero_is_left_alone if {
	count(interval_floor.deny) == 0 with input as set_value("interval", 0, "0", "0 ms")
}

test_timeout_below_10ms_is_refused if {
	some f in interval_floor.deny with input as set_value("timeout", 5, "5 ms", "5 ms")
	contains(f.detail, "Checkpoint timeout must be larger than or equal to 10 ms")
	contains(f.detail, "Set it to at least 10 ms")
}

test_timeout_zero_is_refused if {
	some f in interval_floor.deny with input as set_value("timeout", 0, "0", "0 ms")
	contains(f.detail, "Checkpoint timeout must be larger than or equal to 10 ms")
}

test_max_concurrent_zero_is_refused if {
	some f in interval_floor.deny with input as set_value("max_concurrent", 0, "0", "0")
	contains(f.detail, "The maximum number of concurrent attempts must be at least one.")
}

test_negative_tolerable_is_refused if {
	some f in interval_floor.deny with input as set_value("tolerable_failed", -1, "-1", "-1")
	contains(f.detail, "The tolerable failure checkpoint number must be non-negative.")
}

test_interval_below_min_pause_warns_and_fixes if {
	inp := json.patch(set_value("min_pause", 60000, "1 min", "1 min"), [])
	some f in interval_floor.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "every 1 min at most, not every 30 s")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.interval", "value": "1 min"}]
}

test_min_pause_below_interval_passes if {
	count(interval_floor.deny) == 0 with input as set_value("min_pause", 10000, "10 s", "10 s")
}

test_min_pause_needs_checkpointing if {
	inp := json.patch(set_value("min_pause", 60000, "1 min", "1 min"), [{"op": "replace", "path": "/effective/checkpointing/interval", "value": {"set": false, "value": null}}])
	count(interval_floor.deny) == 0 with input as inp
}
