package ckptlint.rules.timing.concurrency_conflict_test

import data.ckptlint.rules.timing.concurrency_conflict

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf"},
	"effective": {"checkpointing": {
		"interval": {"value": 60000, "display": "1 min", "set": true, "key": "execution.checkpointing.interval", "loc": {"file": "flink-conf.yaml", "line": 1}},
		"min_pause": {"value": 0, "display": "0 s", "set": false, "key": "execution.checkpointing.min-pause"},
		"max_concurrent": {"value": 1, "display": "1", "set": false, "key": "execution.checkpointing.max-concurrent-checkpoints"},
		"mode": {"value": "EXACTLY_ONCE", "display": "EXACTLY_ONCE", "set": false, "key": "execution.checkpointing.mode"},
		"unaligned": {"value": false, "display": "false", "set": false, "key": "execution.checkpointing.unaligned.enabled"},
	}},
}

patch(ops) := json.patch(base, ops)

set(field, v) := {"op": "replace", "path": sprintf("/effective/checkpointing/%s", [field]), "value": {
	"value": v, "display": sprintf("%v", [v]), "set": true,
	"key": base.effective.checkpointing[field].key, "loc": {"file": "flink-conf.yaml", "line": 2},
}}

test_defaults_pass if {
	count(concurrency_conflict.deny) == 0 with input as base
}

test_concurrent_with_min_pause_warns if {
	some f in concurrency_conflict.deny with input as patch([set("max_concurrent", 2), set("min_pause", 5000)])
	contains(f.detail, "cannot be used when a minimum pause is defined")
	object.get(f, "fix", null) == null
}

test_concurrent_without_min_pause_passes if {
	count(concurrency_conflict.deny) == 0 with input as patch([set("max_concurrent", 2)])
}

test_unaligned_with_concurrent_warns if {
	some f in concurrency_conflict.deny with input as patch([set("max_concurrent", 3), set("unaligned", true)])
	contains(f.detail, "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled")
}

test_unaligned_with_at_least_once_warns if {
	some f in concurrency_conflict.deny with input as patch([set("mode", "AT_LEAST_ONCE"), set("unaligned", true)])
	contains(f.detail, "Unaligned checkpoints can only be used with checkpointing mode EXACTLY_ONCE")
	f.loc.line == 2
}

test_unaligned_alone_passes if {
	count(concurrency_conflict.deny) == 0 with input as patch([set("unaligned", true)])
}

test_at_least_once_alone_passes if {
	count(concurrency_conflict.deny) == 0 with input as patch([set("mode", "AT_LEAST_ONCE"), set("max_concurrent", 3)])
}

test_checkpointing_off_is_silent if {
	inp := patch([set("max_concurrent", 2), set("min_pause", 5000), {"op": "replace", "path": "/effective/checkpointing/interval", "value": {"set": false, "value": null}}])
	count(concurrency_conflict.deny) == 0 with input as inp
}
