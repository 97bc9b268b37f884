package ckptlint.rules.storage.create_subdir_disabled_test

import data.ckptlint.rules.storage.create_subdir_disabled

loc(line) := {"file": "config.yaml", "line": line}

base := {
	"flink": {"file": "config.yaml", "format": "flink-config-yaml", "keys": {}},
	"versions": {"flink": {"value": "1.20", "major": 1, "minor": 20, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
	"effective": {"checkpointing": {
		"dir": {"value": "hdfs:///flink/checkpoints", "set": true, "key": "execution.checkpointing.dir", "loc": loc(2)},
		"create_subdir": {"value": false, "set": true, "key": "execution.checkpointing.create-subdir", "loc": loc(3)},
	}},
	"deployment": {"declared": false},
}

test_disabled_subdir_warns if {
	some f in create_subdir_disabled.deny with input as base
	contains(f.detail, "execution.checkpointing.create-subdir: false (at config.yaml:3)")
	contains(f.detail, "directly into hdfs:///flink/checkpoints")
	contains(f.detail, "jobs is not declared")
	f.loc.line == 3
	object.get(f, "fix", null) == null
}

test_declared_jobs_are_named if {
	inp := json.patch(base, [{"op": "replace", "path": "/deployment", "value": {"declared": true, "jobs": 5}}])
	some f in create_subdir_disabled.deny with input as inp
	contains(f.detail, "declares 5 jobs")
}

test_single_declared_job_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/deployment", "value": {"declared": true, "jobs": 1}}])
	count(create_subdir_disabled.deny) == 0 with input as inp
}

test_default_true_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/create_subdir", "value": {"value": true, "set": false, "key": "execution.checkpointing.create-subdir"}}])
	count(create_subdir_disabled.deny) == 0 with input as inp
}

test_no_dir_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir", "value": {"value": null, "set": false}}])
	count(create_subdir_disabled.deny) == 0 with input as inp
}
