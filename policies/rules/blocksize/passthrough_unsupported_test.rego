package ckptlint.rules.blocksize.passthrough_unsupported_test

import data.ckptlint.rules.blocksize.passthrough_unsupported as rule

base := {
	"flink": {"file": "flink-conf.yaml", "hadoop_passthrough": {"dfs.blocksize": {"key": "flink.hadoop.dfs.blocksize", "value": "1m", "loc": {"file": "flink-conf.yaml", "line": 9}}}},
	"versions": {"flink": {"value": "1.12", "major": 1, "minor": 12, "declared": true, "source": "config", "why": "flink_version in .ckptlint.hcl"}},
	"effective": {"hdfs_client": {"blocksize": {"value": 134217728, "display": "128 MiB", "set": false, "source": "default"}}},
}

test_passthrough_before_1_13_fires_and_moves_the_value if {
	some f in rule.deny with input as base
	contains(f.detail, "flink.hadoop.dfs.blocksize: 1m (at flink-conf.yaml:9) is ignored: Flink 1.12 (flink_version in .ckptlint.hcl) does not copy flink.hadoop.* options")
	contains(f.detail, "dfs.blocksize 128 MiB (from the Hadoop default)")
	f.fix == [
		{"op": "set", "target": "hdfs-client", "key": "dfs.blocksize", "value": "1m"},
		{"op": "delete", "target": "flink", "key": "flink.hadoop.dfs.blocksize"},
	]
}

test_odd_value_is_not_moved if {
	inp := json.patch(base, [{"op": "replace", "path": "/flink/hadoop_passthrough/dfs.blocksize/value", "value": "1mb"}])
	some f in rule.deny with input as inp
	not f.fix
}

test_1_13_passes if {
	inp := json.patch(base, [{"op": "replace", "path": "/versions/flink/minor", "value": 13}])
	count(rule.deny) == 0 with input as inp
}

test_assumed_version_is_silent if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/versions/flink/declared", "value": false},
		{"op": "replace", "path": "/versions/flink/source", "value": "assumed"},
	])
	count(rule.deny) == 0 with input as inp
}

test_same_value_in_the_hadoop_files_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/blocksize", "value": {"value": 1048576, "display": "1 MiB", "set": true, "source": "file"}}])
	count(rule.deny) == 0 with input as inp
}
