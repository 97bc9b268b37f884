package ckptlint.rules.timing.subsumed_inflight_test

import data.ckptlint.rules.timing.subsumed_inflight

# Story (c): interval 5 s, timeout 20 s, max-concurrent 3 on HDFS, Hadoop 2.7.3.
story_c := {
	"flink": {"file": "conf/flink-conf.yaml", "format": "flink-conf"},
	"versions": {
		"flink": {"value": "1.15", "major": 1, "minor": 15, "declared": true, "source": "config"},
		"hadoop": {"value": "2.7.3", "major": 2, "minor": 7, "declared": true, "source": "config"},
	},
	"effective": {
		"checkpointing": {
			"interval": {"value": 5000, "display": "5 s", "set": true, "key": "execution.checkpointing.interval", "loc": {"file": "conf/flink-conf.yaml", "line": 8}},
			"timeout": {"value": 20000, "display": "20 s", "set": true, "key": "execution.checkpointing.timeout", "loc": {"file": "conf/flink-conf.yaml", "line": 9}},
			"max_concurrent": {"value": 3, "display": "3", "set": true, "key": "execution.checkpointing.max-concurrent-checkpoints", "loc": {"file": "conf/flink-conf.yaml", "line": 10}},
			"min_pause": {"value": 0, "display": "0 s", "set": false, "key": "execution.checkpointing.min-pause"},
			"dir": {"value": "hdfs://namenode:8020/flink/checkpoints", "set": true, "loc": {"file": "conf/flink-conf.yaml", "line": 6}},
			"create_subdir": {"value": true, "set": false},
		},
		"hdfs_client": {"default_fs": {"value": "file:///"}},
	},
}

test_story_c_warns_with_the_figures if {
	some f in subsumed_inflight.deny with input as story_c
	object.get(f, "severity", null) == null
	f.loc.line == 10
	contains(f.detail, "max-concurrent-checkpoints 3 (conf/flink-conf.yaml:10) lets 3 checkpoints write to HDFS at once")
	contains(f.detail, "interval 5 s (conf/flink-conf.yaml:8), timeout 20 s (conf/flink-conf.yaml:9)")
	contains(f.detail, `"LeaseExpiredException: No lease on /flink/checkpoints/<job-id>/chk-N/… (inode …): File does not exist." (Hadoop 2.7.3)`)
	contains(f.detail, "hdfs://namenode:8020/flink/checkpoints/<job-id>/chk-N/")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.max-concurrent-checkpoints", "value": "1"}]
}

test_in_flight_is_capped_by_timeout_over_interval if {
	inp := json.patch(story_c, [{"op": "replace", "path": "/effective/checkpointing/max_concurrent/value", "value": 10}])
	some f in subsumed_inflight.deny with input as inp
	contains(f.detail, "lets 4 checkpoints write to HDFS at once")
}

test_hadoop3_wording if {
	inp := json.patch(story_c, [{"op": "replace", "path": "/versions/hadoop", "value": {"value": "3.3.6", "major": 3, "minor": 3, "declared": true}}])
	some f in subsumed_inflight.deny with input as inp
	contains(f.detail, `"FileNotFoundException: File does not exist: /flink/checkpoints/<job-id>/chk-N/… (inode …)" (Hadoop 3.3.6)`)
	not contains(f.detail, "No lease on")
}

test_unknown_hadoop_gives_both if {
	inp := json.patch(story_c, [{"op": "replace", "path": "/versions/hadoop", "value": {"source": "unknown", "declared": false}}])
	some f in subsumed_inflight.deny with input as inp
	contains(f.detail, "No lease on")
	contains(f.detail, "File does not exist: /flink")
}

test_one_concurrent_passes if {
	inp := json.patch(story_c, [{"op": "replace", "path": "/effective/checkpointing/max_concurrent/value", "value": 1}])
	count(subsumed_inflight.deny) == 0 with input as inp
}

test_timeout_not_beyond_interval_cannot_overlap if {
	inp := json.patch(story_c, [{"op": "replace", "path": "/effective/checkpointing/timeout/value", "value": 5000}])
	count(subsumed_inflight.deny) == 0 with input as inp
}

test_min_pause_is_left_to_ckpt203 if {
	inp := json.patch(story_c, [{"op": "replace", "path": "/effective/checkpointing/min_pause/value", "value": 1000}])
	count(subsumed_inflight.deny) == 0 with input as inp
}

test_not_on_hdfs_is_silent if {
	inp := json.patch(story_c, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://bucket/ckpt"}])
	count(subsumed_inflight.deny) == 0 with input as inp
}
