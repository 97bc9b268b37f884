package ckptlint.rules.scanner.scan_lock_stall_test

import data.ckptlint.rules.scanner.scan_lock_stall

# Story (b): Hadoop 3.1.0, 10^8 block replicas per DataNode, 20 DataNodes, a
# 38 s write stall against a 10 s checkpoint timeout, no tolerable failures.
story_b := {
	"flink": {"file": "flink/flink-conf.yaml"},
	"versions": {"hadoop": {
		"value": "3.1", "major": 3, "minor": 1, "patch": 0,
		"source": "config", "declared": true, "why": "hadoop_version in .ckptlint.hcl",
	}},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "set": true},
			"dir": {"value": "hdfs:///saas/app/flink/checkpoints", "set": true},
			"timeout": {"value": 10000, "set": true, "source": "file", "loc": {"file": "flink/flink-conf.yaml", "line": 10}},
			"tolerable_failed": {"value": 0, "set": true},
		},
		"hdfs_client": {"default_fs": {"value": "hdfs://nameservice1"}},
		"hdfs_cluster": {"directoryscan_interval": {
			"value": 21600000, "set": true, "source": "file",
			"loc": {"file": "hadoop/cluster/hdfs-site.xml", "line": 9},
		}},
	},
	"cluster": {"declared": true, "name": "shared", "datanodes": 20, "datanode_blocks": 100000000, "write_stall_ms": 38000},
}

# version_value renders a version as the Go side does: 3.2.0 is "3.2".
version_value(major, minor, 0) := sprintf("%d.%d", [major, minor])

version_value(major, minor, patch) := sprintf("%d.%d.%d", [major, minor, patch]) if patch != 0

with_version(major, minor, patch) := json.patch(story_b, [{"op": "replace", "path": "/versions/hadoop", "value": {
	"value": version_value(major, minor, patch), "major": major, "minor": minor, "patch": patch,
	"source": "config", "declared": true, "why": "hadoop_version in .ckptlint.hcl",
}}])

test_story_b_is_an_error_with_the_figures if {
	some f in scan_lock_stall.deny with input as story_b
	not f.severity
	contains(f.detail, "Hadoop 3.1 (hadoop_version in .ckptlint.hcl) has neither DirectoryScanner lock fix")
	contains(f.detail, "in no 3.0.x or 3.1.x release")
	contains(f.detail, "Every 6 h (dfs.datanode.directoryscan.interval, hadoop/cluster/hdfs-site.xml:9)")
	contains(f.detail, "100000000 block replicas")
	contains(f.detail, "a scan starts on one of them about every 18 min")
	contains(f.detail, "write stall of 38 s")
	contains(f.detail, "execution.checkpointing.timeout 10 s (flink/flink-conf.yaml:10)")
	contains(f.detail, "expired before completing.")
	contains(f.detail, "Exceeded checkpoint tolerable failure threshold.")
	contains(f.detail, "to at least 3x the stall (2 min)")
	f.loc.line == 10
}

test_fixed_releases_are_silent if {
	count(scan_lock_stall.deny) == 0 with input as with_version(3, 2, 2)
	count(scan_lock_stall.deny) == 0 with input as with_version(3, 3, 1)
	count(scan_lock_stall.deny) == 0 with input as with_version(3, 4, 1)
}

test_releases_with_only_hdfs_14476_warn if {
	some f in scan_lock_stall.deny with input as with_version(3, 3, 0)
	f.severity == "warning"
	contains(f.detail, "has HDFS-14476")
	some g in scan_lock_stall.deny with input as with_version(2, 10, 1)
	g.severity == "warning"
}

test_old_releases_are_errors if {
	some f in scan_lock_stall.deny with input as with_version(2, 9, 2)
	not f.severity
	some g in scan_lock_stall.deny with input as with_version(3, 2, 1)
	not g.severity
}

test_unstated_patch_release_only_warns if {
	# "3.2" reads as 3.2.0, but the cluster may run 3.2.2.
	some f in scan_lock_stall.deny with input as with_version(3, 2, 0)
	f.severity == "warning"
	contains(f.detail, "Hadoop 3.2 (hadoop_version in .ckptlint.hcl; read as 3.2.0, declare the patch release if it is later)")
}

test_little_headroom_warns if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/effective/checkpointing/timeout/value", "value": 60000}])
	some f in scan_lock_stall.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "less than 2x headroom")
}

test_ample_timeout_is_silent if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/effective/checkpointing/timeout/value", "value": 120000}])
	count(scan_lock_stall.deny) == 0 with input as inp
}

test_no_stall_asks_to_measure if {
	inp := json.patch(story_b, [
		{"op": "remove", "path": "/cluster/write_stall_ms"},
		{"op": "replace", "path": "/effective/checkpointing/timeout/value", "value": 60000},
	])
	some f in scan_lock_stall.deny with input as inp
	f.severity == "info"
	contains(f.detail, "declare it as write_stall")
}

test_unknown_version_asks_for_it if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/versions/hadoop", "value": {"source": "unknown", "declared": false}}])
	some f in scan_lock_stall.deny with input as inp
	f.severity == "info"
	contains(f.detail, "declare the DataNodes' version (datanode_hadoop_version, or hadoop_version)")
}

test_unknown_block_count_asks_for_it if {
	inp := json.patch(story_b, [{"op": "remove", "path": "/cluster/datanode_blocks"}])
	some f in scan_lock_stall.deny with input as inp
	f.severity == "info"
	contains(f.detail, "declare datanode_blocks")
}

test_few_blocks_are_silent if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/cluster/datanode_blocks", "value": 200000}])
	count(scan_lock_stall.deny) == 0 with input as inp
}

test_disabled_scanner_is_silent if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/effective/hdfs_cluster/directoryscan_interval/value", "value": -1000}])
	count(scan_lock_stall.deny) == 0 with input as inp
}

test_checkpoints_off_hdfs_are_silent if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://bucket/ckpt"}])
	count(scan_lock_stall.deny) == 0 with input as inp
}

test_tolerable_failures_are_named if {
	inp := json.patch(story_b, [{"op": "replace", "path": "/effective/checkpointing/tolerable_failed/value", "value": 3}])
	some f in scan_lock_stall.deny with input as inp
	contains(f.detail, "tolerable-failed-checkpoints 3 lets the job survive 3 consecutive")
	not contains(f.detail, "to at least 1")
}

# Issue 23: the stall is the number that decides it; without it the
# estimate from another cluster makes an info, not a warning.
test_no_stall_unpatched_short_timeout_is_info_with_the_estimate if {
	inp := json.patch(story_b, [{"op": "remove", "path": "/cluster/write_stall_ms"}])
	fs := scan_lock_stall.deny with input as inp
	count(fs) == 1
	some f in fs
	f.severity == "info"
	contains(f.detail, "no write stall is declared, and execution.checkpointing.timeout 10 s (flink/flink-conf.yaml:10) is below the 37.8 s write stall measured on an unpatched release")
	contains(f.detail, "37 829 ms")
	contains(f.detail, "Hadoop 3.1.0")
	contains(f.detail, "declare it as write_stall")
}

test_no_stall_unpatched_long_timeout_stays_info if {
	inp := json.patch(story_b, [
		{"op": "remove", "path": "/cluster/write_stall_ms"},
		{"op": "replace", "path": "/effective/checkpointing/timeout/value", "value": 60000},
	])
	fs := scan_lock_stall.deny with input as inp
	count(fs) == 1
	some f in fs
	f.severity == "info"
}

test_no_stall_unstated_patch_stays_info if {
	inp := json.patch(with_version(3, 2, 0), [{"op": "remove", "path": "/cluster/write_stall_ms"}])
	fs := scan_lock_stall.deny with input as inp
	count(fs) == 1
	some f in fs
	f.severity == "info"
}

test_no_stall_partial_fix_stays_info if {
	inp := json.patch(with_version(3, 3, 0), [{"op": "remove", "path": "/cluster/write_stall_ms"}])
	some f in scan_lock_stall.deny with input as inp
	f.severity == "info"
}

test_version_alone_is_info if {
	inp := json.patch(story_b, [
		{"op": "remove", "path": "/cluster/write_stall_ms"},
		{"op": "remove", "path": "/cluster/datanode_blocks"},
	])
	fs := scan_lock_stall.deny with input as inp
	count(fs) == 1
	some f in fs
	f.severity == "info"
	contains(f.detail, "declare datanode_blocks")
}

# The DataNodes' own version decides, not the client's hadoop_version: a
# cluster whose DataNodes run 3.3.6 has both fixes even when the client
# declares 3.1.
with_datanodes(v) := json.patch(story_b, [{"op": "add", "path": "/cluster/datanode_hadoop_version", "value": v}, {"op": "add", "path": "/cluster/facts", "value": {"datanode_hadoop_version": {"cite": "facts from namenode http://nn:9870/jmx, 2026-12-01"}}}])

test_datanode_version_overrides_the_client_version if {
	count(scan_lock_stall.deny) == 0 with input as with_datanodes("3.3.6")
}

test_datanode_version_is_named_with_its_facts if {
	some f in scan_lock_stall.deny with input as with_datanodes("3.1.2")
	not f.severity
	contains(f.detail, "Hadoop 3.1.2 (the DataNodes' version, datanode_hadoop_version in .ckptlint.hcl, facts from namenode http://nn:9870/jmx, 2026-12-01) has neither DirectoryScanner lock fix")
}

test_datanode_version_without_a_declared_client_version if {
	inp := json.patch(with_datanodes("3.2"), [{"op": "replace", "path": "/versions/hadoop", "value": {"source": "unknown", "declared": false}}])
	some f in scan_lock_stall.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "Hadoop 3.2 (the DataNodes' version, datanode_hadoop_version in .ckptlint.hcl, facts from namenode http://nn:9870/jmx, 2026-12-01; read as 3.2.0, declare the patch release if it is later)")
}
