package ckptlint.rules.scanner.throttle_test

import data.ckptlint.rules.scanner.throttle

base := {
	"versions": {"hadoop": {
		"value": "3.1", "major": 3, "minor": 1, "patch": 0,
		"source": "config", "declared": true, "why": "hadoop_version in .ckptlint.hcl",
	}},
	"effective": {"hdfs_cluster": {
		"directoryscan_interval": {"value": 21600000, "set": true, "source": "default"},
		"directoryscan_throttle": {
			"value": 5000, "raw": "5000", "set": true, "source": "file",
			"loc": {"file": "hdfs-site.xml", "line": 7},
		},
	}},
	"cluster": {"declared": false},
}

with_throttle(raw, value) := json.patch(base, [
	{"op": "replace", "path": "/effective/hdfs_cluster/directoryscan_throttle/raw", "value": raw},
	{"op": "replace", "path": "/effective/hdfs_cluster/directoryscan_throttle/value", "value": value},
])

on_hadoop(inp, major, minor, patch) := json.patch(inp, [{"op": "replace", "path": "/versions/hadoop", "value": {
	"value": sprintf("%d.%d.%d", [major, minor, patch]), "major": major, "minor": minor, "patch": patch,
	"source": "config", "declared": true, "why": "hadoop_version in .ckptlint.hcl",
}}])

test_above_1000_warns_with_the_version_behaviour if {
	some f in throttle.deny with input as base
	not f.severity
	contains(f.detail, "5000 (hdfs-site.xml:7) does not throttle")
	contains(f.detail, "Hadoop 3.1 logs an ERROR")
	f.loc.line == 7
}

test_above_1000_on_3_4_1_names_the_replacement if {
	some f in throttle.deny with input as on_hadoop(base, 3, 4, 1)
	contains(f.detail, "replaces a value of 1000 or more with -1")
}

test_unknown_version_quotes_hdfs_default if {
	inp := json.patch(base, [{"op": "replace", "path": "/versions/hadoop", "value": {"source": "unknown", "declared": false}}])
	some f in throttle.deny with input as inp
	contains(f.detail, "hdfs-default.xml says only 1 to 1000 are valid")
}

test_zero_warns_before_3_4_1 if {
	some f in throttle.deny with input as with_throttle("0", 0)
	not f.severity
	count(throttle.deny) == 0 with input as on_hadoop(with_throttle("0", 0), 3, 4, 1)
}

test_valid_limits_are_silent if {
	count(throttle.deny) == 0 with input as with_throttle("500", 500)
	count(throttle.deny) == 0 with input as with_throttle("999", 999)
	count(throttle.deny) == 0 with input as with_throttle("1000", 1000)
}

test_default_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_cluster/directoryscan_throttle", "value": {"value": 1000, "set": false, "source": "default"}}])
	count(throttle.deny) == 0 with input as inp
}

test_disabled_scanner_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_cluster/directoryscan_interval/value", "value": -1000}])
	count(throttle.deny) == 0 with input as inp
}

test_unreadable_value_is_an_error if {
	inp := json.patch(with_throttle("500ms", 1000), [{"op": "add", "path": "/effective/hdfs_cluster/directoryscan_throttle/error", "value": "For input string: \"500ms\""}])
	some f in throttle.deny with input as inp
	f.severity == "error"
	contains(f.detail, "cannot be read")
}

test_explicit_off_with_many_blocks_is_info if {
	inp := json.patch(with_throttle("1000", 1000), [{"op": "replace", "path": "/cluster", "value": {"declared": true, "datanode_blocks": 100000000}}])
	some f in throttle.deny with input as inp
	f.severity == "info"
	contains(f.detail, "turns DirectoryScanner throttling off on DataNodes with 100000000 block replicas")
	count(throttle.deny) == 0 with input as on_hadoop(inp, 3, 3, 1)
}
