package ckptlint.rules.blocksize.below_min_block_size_test

import data.ckptlint.rules.blocksize.below_min_block_size as rule

base := {
	"flink": {"file": "flink-conf.yaml", "hadoop_passthrough": {}},
	"versions": {"flink": {"major": 1, "minor": 18, "declared": false, "source": "assumed"}},
	"effective": {
		"checkpointing": {"dir": {"value": "hdfs://nn:8020/ckpt", "set": true, "loc": {"file": "flink-conf.yaml", "line": 2}}},
		"hdfs_client": {
			"blocksize": {"value": 524288, "display": "512 KiB", "set": true, "source": "file", "raw": "512k", "key": "dfs.blocksize", "loc": {"file": "hdfs-site.xml", "line": 4}},
			"bytes_per_checksum": {"value": 512, "display": "512", "set": false, "source": "default"},
			"default_fs": {"value": "file:///"},
		},
		"hdfs_cluster": {"min_block_size": {"value": 1048576, "display": "1 MiB", "set": false, "source": "default"}},
	},
}

test_below_default_minimum_fires_with_fix if {
	some f in rule.deny with input as base
	contains(f.detail, "dfs.blocksize 512 KiB (from hdfs-site.xml:4) is below the NameNode's dfs.namenode.fs-limits.min-block-size 1 MiB (from the Hadoop default; declare min_block_size")
	contains(f.detail, "\"Specified block size 524288 is less than configured minimum value dfs.namenode.fs-limits.min-block-size=1048576\"")
	contains(f.detail, "Set dfs.blocksize to 1m")
	f.fix == [{"op": "set", "target": "hdfs-client", "key": "dfs.blocksize", "value": "1m"}]
	f.loc.line == 4
}

test_exactly_the_minimum_passes if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/blocksize/value", "value": 1048576}])
	count(rule.deny) == 0 with input as inp
}

test_raised_cluster_minimum_fires_on_default_client if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/hdfs_client/blocksize", "value": {"value": 134217728, "display": "128 MiB", "set": false, "source": "default"}},
		{"op": "replace", "path": "/effective/hdfs_cluster/min_block_size", "value": {"value": 268435456, "display": "256 MiB", "set": true, "source": "file", "loc": {"file": "cluster/hdfs-site.xml", "line": 9}}},
	])
	some f in rule.deny with input as inp
	f.loc.file == "cluster/hdfs-site.xml"
	contains(f.detail, "(from cluster/hdfs-site.xml:9)")
	not contains(f.detail, "declare min_block_size")
	f.fix[0].value == "256m"
}

test_passthrough_value_is_fixed_in_the_flink_file if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/hdfs_client/blocksize/source", "value": "flink.hadoop"},
		{"op": "replace", "path": "/flink/hadoop_passthrough", "value": {"dfs.blocksize": {"key": "flink.hadoop.dfs.blocksize", "value": "512k", "loc": {"file": "flink-conf.yaml", "line": 7}}}},
	])
	some f in rule.deny with input as inp
	contains(f.detail, "(from flink.hadoop.dfs.blocksize at hdfs-site.xml:4)")
	f.fix == [{"op": "set", "target": "flink", "key": "flink.hadoop.dfs.blocksize", "value": "1m"}]
}

test_odd_checksum_rounds_the_fix_up if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/bytes_per_checksum", "value": {"value": 1000, "set": true, "source": "file"}}])
	some f in rule.deny with input as inp
	f.fix[0].value == "1049000"
}

test_unreadable_values_are_left_to_ckpt104 if {
	inp := json.patch(base, [{"op": "add", "path": "/effective/hdfs_client/blocksize/error", "value": "bad"}])
	count(rule.deny) == 0 with input as inp
}

# Issue 23: a known Hadoop release older than the Hadoop key table (2.1,
# HDFS-4305) may have no minimum at all: info, and no edit.
test_hadoop_outside_the_table_is_info if {
	inp := object.union(base, {
		"versions": {"hadoop": {"text": "Hadoop 2.0.5 (hadoop_version in .ckptlint.hcl)", "table": "2.1 to 3.4", "covered": false}},
		"effective": {"hdfs_cluster": {"min_block_size": {"value": 1048576, "display": "1 MiB", "set": false, "source": "default", "varies": "1 MiB from Hadoop 2.1; no minimum before 2.1 (HDFS-4305)"}}},
	})
	some f in rule.deny with input as inp
	f.severity == "info"
	not f.fix
	contains(f.detail, "if the NameNode enforces it")
}
