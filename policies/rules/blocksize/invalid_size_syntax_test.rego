package ckptlint.rules.blocksize.invalid_size_syntax_test

import data.ckptlint.rules.blocksize.invalid_size_syntax as rule

base := {
	"flink": {"file": "flink-conf.yaml", "hadoop_passthrough": {}},
	"hadoop": {"client": [], "cluster_hdfs_site": {"file": "cluster/hdfs-site.xml"}},
	"effective": {
		"hdfs_client": {
			"blocksize": {
				"value": 134217728, "display": "128 MiB", "set": true, "source": "file", "raw": "1mb", "key": "dfs.blocksize",
				"error": "Invalid size prefix 'b' in '1mb'. Allowed prefixes are k, m, g, t, p, e(case insensitive); Hadoop takes a single letter: write \"1m\"",
				"loc": {"file": "hdfs-site.xml", "line": 4},
			},
			"bytes_per_checksum": {"value": 512, "set": false, "source": "default"},
		},
		"hdfs_cluster": {"min_block_size": {"value": 1048576, "display": "1 MiB", "set": false, "source": "default"}},
	},
}

test_flink_style_size_fires_with_the_hadoop_spelling if {
	some f in rule.deny with input as base
	contains(f.detail, "dfs.blocksize \"1mb\" (at hdfs-site.xml:4) is not a Hadoop size: Hadoop's getLongBytes fails with \"Invalid size prefix 'b' in '1mb'. Allowed prefixes are k, m, g, t, p, e(case insensitive)\"")
	contains(f.detail, "Write \"1m\"")
	not contains(f.detail, "Hadoop takes a single letter")
	f.fix == [{"op": "set", "target": "hdfs-client", "key": "dfs.blocksize", "value": "1m"}]
}

test_unclear_size_has_no_fix if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/hdfs_client/blocksize/raw", "value": "1.3m"},
		{"op": "replace", "path": "/effective/hdfs_client/blocksize/error", "value": "For input string: \"1.3\"; Hadoop sizes are integers"},
	])
	some f in rule.deny with input as inp
	not f.fix
	contains(f.detail, "fails with For input string: \"1.3\". Flink's HDFS client")
}

test_decimal_comma_has_no_fix if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/hdfs_client/blocksize/raw", "value": "1,5m"},
		{"op": "replace", "path": "/effective/hdfs_client/blocksize/error", "value": "For input string: \"1,5\"; Hadoop sizes are integers: write \"1536k\""},
	])
	some f in rule.deny with input as inp
	not f.fix
}

test_passthrough_is_fixed_in_the_flink_file if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/hdfs_client/blocksize/source", "value": "flink.hadoop"},
		{"op": "replace", "path": "/effective/hdfs_client/blocksize/loc", "value": {"file": "flink-conf.yaml", "line": 9}},
		{"op": "replace", "path": "/flink/hadoop_passthrough", "value": {"dfs.blocksize": {"key": "flink.hadoop.dfs.blocksize", "value": "1mb", "loc": {"file": "flink-conf.yaml", "line": 9}}}},
	])
	some f in rule.deny with input as inp
	contains(f.detail, "flink.hadoop.dfs.blocksize: 1mb (at flink-conf.yaml:9)")
	f.fix == [{"op": "set", "target": "flink", "key": "flink.hadoop.dfs.blocksize", "value": "1m"}]
}

test_valid_size_passes if {
	inp := json.patch(base, [{"op": "remove", "path": "/effective/hdfs_client/blocksize/error"}])
	count(rule.deny) == 0 with input as inp
}

minimum_bad := json.patch(base, [
	{"op": "remove", "path": "/effective/hdfs_client/blocksize/error"},
	{"op": "replace", "path": "/effective/hdfs_cluster/min_block_size", "value": {
		"value": 1048576, "display": "1 MiB", "set": true, "source": "file", "raw": "1 m", "key": "dfs.namenode.fs-limits.min-block-size",
		"error": "For input string: \"1 \"; Hadoop does not allow a space before the suffix: write \"1m\"",
		"loc": {"file": "cluster/hdfs-site.xml", "line": 7},
	}},
])

test_namenode_minimum_in_the_cluster_file_is_an_error if {
	some f in rule.deny with input as minimum_bad
	not f.severity
	contains(f.detail, "fails to start")
	f.fix == [{"op": "set", "target": "hdfs-cluster", "key": "dfs.namenode.fs-limits.min-block-size", "value": "1m"}]
}

test_namenode_minimum_in_a_client_file_is_a_warning if {
	inp := json.patch(minimum_bad, [{"op": "replace", "path": "/effective/hdfs_cluster/min_block_size/loc/file", "value": "hdfs-site.xml"}])
	some f in rule.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "If the NameNode loads this file")
	not f.fix
}
