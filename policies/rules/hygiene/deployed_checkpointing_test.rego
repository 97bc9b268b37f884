package ckptlint.rules.hygiene.deployed_checkpointing_test

import data.ckptlint.rules.hygiene.deployed_checkpointing

eff(interval) := {
	"interval": interval,
	"timeout": {"key": "execution.checkpointing.timeout", "value": 600000, "set": false, "source": "default"},
	"min_pause": {"key": "execution.checkpointing.min-pause", "value": 0, "set": false, "source": "default"},
	"max_concurrent": {"key": "execution.checkpointing.max-concurrent-checkpoints", "value": 1, "set": false, "source": "default"},
	"tolerable_failed": {"key": "execution.checkpointing.tolerable-failed-checkpoints", "value": 0, "set": false, "source": "default"},
	"unaligned": {"key": "execution.checkpointing.unaligned.enabled", "value": false, "set": false, "source": "default"},
}

one_min := {"key": "execution.checkpointing.interval", "value": 60000, "set": true, "source": "file", "loc": {"file": "conf/flink-conf.yaml", "line": 1, "col": 1}}

doc(interval, running) := {
	"flink": {"file": "conf/flink-conf.yaml"},
	"effective": {"checkpointing": eff(interval)},
	"deployment": {
		"declared": true, "name": "etl", "running_checkpointing": running,
		"facts": {"running_checkpointing": {"cite": "facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints/config, 2026-12-01"}},
	},
}

same := {"job_id": "a1b2", "interval_ms": 60000, "timeout_ms": 600000, "min_pause_ms": 0, "max_concurrent": 1, "tolerable_failures": 0, "unaligned": false, "at": ".ckptlint.hcl:12"}

test_interval_and_timeout_differ if {
	fs := deployed_checkpointing.deny with input as doc(one_min, object.union(same, {"interval_ms": 180000, "timeout_ms": 1200000}))
	count(fs) == 2
	some f in fs
	f.severity == "warning"
	f.loc.line == 1
	f.detail == "the deployed job does not run what the repository says: the repository gives execution.checkpointing.interval 1 min (conf/flink-conf.yaml:1), but the running job a1b2 uses 3 min (running_checkpointing at .ckptlint.hcl:12, facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints/config, 2026-12-01): the job's code (StreamExecutionEnvironment.enableCheckpointing, CheckpointConfig setters) or its submission (-D) overrides the file, or the job was deployed from another revision, so findings about this setting describe a configuration that is not running. Make the repository say what runs, or redeploy from it, then read the facts again (`ckptlint facts --jobmanager`)"
	some g in fs
	contains(g.detail, "execution.checkpointing.timeout 10 min (Flink's default, the file does not set it), but the running job a1b2 uses 20 min")
}

test_unaligned_differs if {
	fs := deployed_checkpointing.deny with input as doc(one_min, object.union(same, {"unaligned": true}))
	count(fs) == 1
	some f in fs
	contains(f.detail, "execution.checkpointing.unaligned.enabled false (Flink's default, the file does not set it), but the running job a1b2 uses true")
}

test_checkpointing_off_in_repo if {
	unset := {"key": "execution.checkpointing.interval", "set": false, "source": "unset", "value": null}
	fs := deployed_checkpointing.deny with input as doc(unset, same)
	count(fs) == 1
	some f in fs
	contains(f.detail, "the repository does not enable checkpointing (execution.checkpointing.interval unset), but the running job a1b2 checkpoints every 1 min")
}

test_same_is_quiet if {
	count(deployed_checkpointing.deny) == 0 with input as doc(one_min, same)
}

test_partial_block_compares_what_is_written if {
	count(deployed_checkpointing.deny) == 0 with input as doc(one_min, {"interval_ms": 60000})
}

test_template_is_quiet if {
	tmpl := object.union(one_min, {"template": true})
	count(deployed_checkpointing.deny) == 0 with input as doc(tmpl, {"interval_ms": 180000})
}
