package ckptlint.rules.timing.timeout_below_stall_test

import data.ckptlint.rules.timing.timeout_below_stall

# Story (b): 10 s timeout, a 38 s DirectoryScanner stall declared, Hadoop 3.1.
story_b := {
	"flink": {"file": "flink/flink-conf.yaml", "format": "flink-conf"},
	"versions": {
		"flink": {"value": "1.13", "major": 1, "minor": 13, "declared": true, "source": "config"},
		"hadoop": {"value": "3.1.0", "major": 3, "minor": 1, "declared": true, "source": "config"},
	},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "display": "1 min", "set": true, "key": "execution.checkpointing.interval", "raw": "1 min", "loc": {"file": "flink/flink-conf.yaml", "line": 9}},
			"timeout": {"value": 10000, "display": "10 s", "set": true, "key": "execution.checkpointing.timeout", "raw": "10 s", "loc": {"file": "flink/flink-conf.yaml", "line": 10}},
			"min_pause": {"value": 0, "display": "0 s", "set": false, "key": "execution.checkpointing.min-pause"},
			"max_concurrent": {"value": 1, "display": "1", "set": false, "key": "execution.checkpointing.max-concurrent-checkpoints"},
			"tolerable_failed": {"value": 0, "display": "0", "set": true, "key": "execution.checkpointing.tolerable-failed-checkpoints", "loc": {"file": "flink/flink-conf.yaml", "line": 11}},
			"dir": {"value": "hdfs:///saas/app/flink/checkpoints", "set": true, "loc": {"file": "flink/flink-conf.yaml", "line": 7}},
			"create_subdir": {"value": true, "set": false},
		},
		"hdfs_client": {"default_fs": {"value": "hdfs://nn:8020"}},
	},
	"cluster": {"declared": true, "name": "shared", "write_stall_ms": 38000},
	"deployment": {"declared": true, "name": "saas-app"},
}

with_timeout(ms, display) := json.patch(story_b, [
	{"op": "replace", "path": "/effective/checkpointing/timeout/value", "value": ms},
	{"op": "replace", "path": "/effective/checkpointing/timeout/display", "value": display},
])

test_story_b_is_an_error_with_the_figures if {
	some f in timeout_below_stall.deny with input as story_b
	object.get(f, "severity", null) == null
	f.loc.line == 10
	contains(f.detail, "timeout 10 s (flink/flink-conf.yaml:10) is not longer than the 38 s HDFS write stall")
	contains(f.detail, `"Checkpoint N of job <job-id> expired before completing."`)
	contains(f.detail, "/saas/app/flink/checkpoints/<job-id>/chk-N/")
	contains(f.detail, "Exceeded checkpoint tolerable failure threshold.")
	contains(f.detail, "Set execution.checkpointing.timeout to 2 min, at least 3x 38 s")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.timeout", "value": "2 min"}]
}

test_equal_to_the_stall_is_an_error if {
	some f in timeout_below_stall.deny with input as with_timeout(38000, "38 s")
	object.get(f, "severity", null) == null
}

test_less_than_twice_the_stall_warns if {
	some f in timeout_below_stall.deny with input as with_timeout(60000, "1 min")
	f.severity == "warning"
	contains(f.detail, "leaves only 22 s beyond the 38 s HDFS write stall")
	f.fix[0].value == "2 min"
}

test_twice_the_stall_passes if {
	count(timeout_below_stall.deny) == 0 with input as with_timeout(76000, "76 s")
}

test_the_fix_passes if {
	count(timeout_below_stall.deny) == 0 with input as with_timeout(120000, "2 min")
}

test_default_timeout_is_reported_at_the_top if {
	inp := json.patch(story_b, [
		{"op": "replace", "path": "/effective/checkpointing/timeout", "value": {"value": 600000, "display": "10 min", "set": false, "source": "default", "key": "execution.checkpointing.timeout"}},
		{"op": "replace", "path": "/cluster/write_stall_ms", "value": 900000},
	])
	some f in timeout_below_stall.deny with input as inp
	f.loc == null
	contains(f.detail, "timeout 10 min (Flink's default) is not longer than the 15 min HDFS write stall")
	f.fix[0].value == "1 h"
}

test_p99_counts_without_hdfs if {
	inp := json.patch(story_b, [
		{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://bucket/ckpt"},
		{"op": "add", "path": "/deployment/checkpoint_p99_ms", "value": 45000},
	])
	some f in timeout_below_stall.deny with input as inp
	contains(f.detail, "the 45 s p99 checkpoint duration declared for deployment \"saas-app\"")
	f.fix[0].value == "3 min"
}

test_stall_needs_hdfs if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://bucket/ckpt"}])
	count(timeout_below_stall.deny) == 0 with input as inp
}

test_no_declared_figure_is_silent if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/cluster", "value": {"declared": false}}])
	count(timeout_below_stall.deny) == 0 with input as inp
}

test_checkpointing_off_is_silent if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/effective/checkpointing/interval", "value": {"set": false, "value": null}}])
	count(timeout_below_stall.deny) == 0 with input as inp
}

test_unreadable_timeout_is_left_to_ckpt207 if {
	inp := json.patch(story_b, [{"op": "add", "path": "/effective/checkpointing/timeout/error", "value": "text does not start with a number"}])
	count(timeout_below_stall.deny) == 0 with input as inp
}

test_observed_p99_cites_its_facts if {
	inp := {
		"flink": {"file": "flink-conf.yaml"},
		"effective": {"checkpointing": {
			"interval": {"value": 60000, "set": true},
			"dir": {"value": "hdfs://nn:8020/ckpt", "set": true},
			"timeout": {"value": 30000, "set": true, "display": "30 s", "raw": "30 s", "key": "execution.checkpointing.timeout", "source": "file", "loc": {"file": "flink-conf.yaml", "line": 2}},
			"tolerable_failed": {"value": 3, "set": true, "source": "file", "loc": {"file": "flink-conf.yaml", "line": 3}},
		}},
		"cluster": {"declared": false},
		"deployment": {
			"declared": true, "name": "etl", "checkpoint_p99_ms": 41000,
			"facts": {"checkpoint_p99": {"cite": "facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-12-01"}},
		},
	}
	some f in timeout_below_stall.deny with input as inp
	contains(f.detail, `the 41 s p99 checkpoint duration observed for deployment "etl" (checkpoint_p99 in .ckptlint.hcl, facts from jobmanager http://jm:8081/jobs/a1b2/checkpoints, 2026-12-01)`)
}
