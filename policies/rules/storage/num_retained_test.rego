package ckptlint.rules.storage.num_retained_test

import data.ckptlint.rules.storage.num_retained

loc(line) := {"file": "flink-conf.yaml", "line": line}

base := {
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": {}},
	"versions": {"flink": {"value": "1.18", "major": 1, "minor": 18, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
	"effective": {"checkpointing": {
		"num_retained": {"value": 0, "set": true, "key": "state.checkpoints.num-retained", "loc": loc(2)},
		"claim_mode": {"value": "NO_CLAIM", "set": false, "key": "execution.savepoint-restore-mode"},
	}},
}

claim := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/claim_mode", "value": {"value": "CLAIM", "set": true, "key": "execution.savepoint-restore-mode", "loc": loc(3)}}])

test_zero_is_replaced_by_one if {
	fs := num_retained.deny with input as base
	count(fs) == 1
	some f in fs
	contains(f.detail, "The setting for 'state.checkpoints.num-retained : 0' is invalid. Using default value of 1")
	f.fix == [{"op": "set", "target": "flink", "key": "state.checkpoints.num-retained", "value": "1"}]
	f.loc.line == 2
}

test_log_names_the_current_key if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/versions/flink", "value": {"value": "1.20", "major": 1, "minor": 20, "declared": true, "source": "config", "why": "x"}},
		{"op": "replace", "path": "/effective/checkpointing/num_retained/value", "value": -3},
	])
	some f in num_retained.deny with input as inp
	contains(f.detail, "'execution.checkpointing.num-retained : -3'")
}

test_positive_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/num_retained/value", "value": 3}])
	count(num_retained.deny) == 0 with input as inp
}

test_claim_with_one_retained_warns if {
	inp := json.patch(claim, [{"op": "replace", "path": "/effective/checkpointing/num_retained", "value": {"value": 1, "set": false, "key": "state.checkpoints.num-retained"}}])
	fs := num_retained.deny with input as inp
	count(fs) == 1
	some f in fs
	contains(f.detail, "execution.savepoint-restore-mode: CLAIM (at flink-conf.yaml:3)")
	contains(f.detail, "state.checkpoints.num-retained 1 by default")
	object.get(f, "fix", null) == null
	f.loc.line == 3
}

test_claim_with_invalid_retained_gives_both if {
	fs := num_retained.deny with input as claim
	count(fs) == 2
	some f in fs
	contains(f.detail, "state.checkpoints.num-retained 0 at flink-conf.yaml:2, used as 1")
}

test_claim_with_more_retained_is_silent if {
	inp := json.patch(claim, [{"op": "replace", "path": "/effective/checkpointing/num_retained/value", "value": 3}])
	count(num_retained.deny) == 0 with input as inp
}
