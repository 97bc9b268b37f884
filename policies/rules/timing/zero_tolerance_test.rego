package ckptlint.rules.timing.zero_tolerance_test

import data.ckptlint.rules.timing.zero_tolerance

base := {
	"flink": {"file": "conf/flink-conf.yaml", "format": "flink-conf"},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "display": "1 min", "set": true, "key": "execution.checkpointing.interval", "loc": {"file": "conf/flink-conf.yaml", "line": 3}},
			"timeout": {"value": 600000, "display": "10 min", "set": false, "key": "execution.checkpointing.timeout"},
			"min_pause": {"value": 0, "display": "0 s", "set": false, "key": "execution.checkpointing.min-pause"},
			"tolerable_failed": {"value": 0, "display": "0", "set": false, "key": "execution.checkpointing.tolerable-failed-checkpoints"},
			"dir": {"value": "hdfs://namenode:8020/flink/checkpoints", "set": true, "loc": {"file": "conf/flink-conf.yaml", "line": 2}},
		},
		"hdfs_client": {"default_fs": {"value": "file:///"}},
		"restart_strategy": {"type": {"value": null, "set": false}},
	},
	"cluster": {"declared": false},
	"deployment": {"declared": false},
}

short_timeout := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/timeout", "value": {
	"value": 20000, "display": "20 s", "set": true, "key": "execution.checkpointing.timeout", "loc": {"file": "conf/flink-conf.yaml", "line": 4},
}}])

test_default_without_risk_is_info if {
	some f in zero_tolerance.deny with input as base
	f.severity == "info"
	contains(f.detail, "is 0 (Flink's default on every version)")
	contains(f.detail, "Declare write_stall")
	object.get(f, "fix", null) == null
}

test_explicit_zero_without_risk_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/tolerable_failed", "value": {"value": 0, "display": "0", "set": true, "key": "execution.checkpointing.tolerable-failed-checkpoints", "loc": {"file": "conf/flink-conf.yaml", "line": 5}}}])
	count(zero_tolerance.deny) == 0 with input as inp
}

# Issue 23: a short timeout against another cluster's measured stall is no
# figure of this cluster: an info, with the fix, naming what would decide it.
test_short_timeout_is_info_and_fixes if {
	some f in zero_tolerance.deny with input as short_timeout
	f.severity == "info"
	contains(f.detail, "Declare write_stall in a cluster block or checkpoint_p99 in a deployment block of .ckptlint.hcl to decide")
	contains(f.detail, "the 20 s timeout (conf/flink-conf.yaml:4) is below 1 min")
	contains(f.detail, "Exceeded checkpoint tolerable failure threshold.")
	contains(f.detail, "after 4 failures in a row (within about 4 min: 4 checkpoints, each lasting up to max(interval 1 min, timeout 20 s))")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.tolerable-failed-checkpoints", "value": "3"}]
}

test_declared_stall_warns if {
	inp := json.patch(short_timeout, [{"op": "replace", "path": "/cluster", "value": {"declared": true, "name": "shared", "write_stall_ms": 38000}}])
	some f in zero_tolerance.deny with input as inp
	object.get(f, "severity", null) == null
	contains(f.detail, "a 38 s HDFS write stall is declared for cluster \"shared\"")
}

test_p99_close_to_timeout_warns if {
	inp := json.patch(base, [{"op": "replace", "path": "/deployment", "value": {"declared": true, "name": "etl", "checkpoint_p99_ms": 240000}}])
	some f in zero_tolerance.deny with input as inp
	contains(f.detail, "the declared p99 checkpoint duration 4 min is within 3x of the 10 min timeout")
}

test_p99_far_below_timeout_is_no_risk if {
	inp := json.patch(base, [{"op": "replace", "path": "/deployment", "value": {"declared": true, "name": "etl", "checkpoint_p99_ms": 60000}}])
	some f in zero_tolerance.deny with input as inp
	f.severity == "info"
}

test_restart_strategy_none_is_named if {
	inp := json.patch(short_timeout, [{"op": "replace", "path": "/effective/restart_strategy/type", "value": {"value": "none", "set": true}}])
	some f in zero_tolerance.deny with input as inp
	contains(f.detail, "restart-strategy none leaves it failed")
}

test_tolerable_set_passes if {
	inp := json.patch(short_timeout, [{"op": "replace", "path": "/effective/checkpointing/tolerable_failed", "value": {"value": 3, "display": "3", "set": true, "key": "execution.checkpointing.tolerable-failed-checkpoints"}}])
	count(zero_tolerance.deny) == 0 with input as inp
}

test_not_on_hdfs_is_silent if {
	inp := json.patch(short_timeout, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "file:///tmp/ckpt"}])
	count(zero_tolerance.deny) == 0 with input as inp
}

test_observed_p99_cites_its_facts if {
	inp := json.patch(short_timeout, [{"op": "replace", "path": "/deployment", "value": {
		"declared": true, "name": "etl", "checkpoint_p99_ms": 9000,
		"facts": {"checkpoint_p99": {"cite": "facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-12-01"}},
	}}])
	some f in zero_tolerance.deny with input as inp
	contains(f.detail, "the observed p99 checkpoint duration 9 s (facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-12-01) is within 3x of the 20 s timeout")
}
