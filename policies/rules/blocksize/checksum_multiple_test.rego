package ckptlint.rules.blocksize.checksum_multiple_test

import data.ckptlint.rules.blocksize.checksum_multiple as rule

base := {
	"flink": {"file": "flink-conf.yaml", "hadoop_passthrough": {}},
	"effective": {
		"checkpointing": {"dir": {"value": "hdfs://nn:8020/ckpt", "set": true, "loc": {"file": "flink-conf.yaml", "line": 2}}},
		"hdfs_client": {
			"blocksize": {"value": 2000000, "display": "1.9 MiB", "set": true, "source": "file", "raw": "2000000", "loc": {"file": "hdfs-site.xml", "line": 4}},
			"bytes_per_checksum": {"value": 512, "display": "512", "set": false, "source": "default"},
			"default_fs": {"value": "file:///"},
		},
		"hdfs_cluster": {"min_block_size": {"value": 1048576, "display": "1 MiB", "set": false, "source": "default"}},
	},
}

test_bytes_not_multiple_of_512_fires_with_round_up if {
	some f in rule.deny with input as base
	contains(f.detail, "dfs.blocksize 2000000 (1.9 MiB, from hdfs-site.xml:4) is not a multiple of dfs.bytes-per-checksum 512 (from the Hadoop default)")
	contains(f.detail, "\"Invalid values: dfs.bytes-per-checksum (=512) must divide block size (=2000000).\"")

	# 2000000 = 3906 x 512 + 128 -> 3907 x 512 = 2000384 = 1953.5 KiB: written in bytes.
	f.fix == [{"op": "set", "target": "hdfs-client", "key": "dfs.blocksize", "value": "2000384"}]
}

test_round_up_respects_the_minimum if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/blocksize/value", "value": 1000000}])
	some f in rule.deny with input as inp
	f.fix[0].value == "1m"
	contains(f.detail, "not below the NameNode's minimum 1 MiB")
}

test_multiple_passes if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/blocksize/value", "value": 1048576}])
	count(rule.deny) == 0 with input as inp
}

test_changed_checksum_has_no_fix if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/hdfs_client/blocksize", "value": {"value": 134217728, "display": "128 MiB", "set": false, "source": "default"}},
		{"op": "replace", "path": "/effective/hdfs_client/bytes_per_checksum", "value": {"value": 1000, "display": "1000", "set": true, "source": "file", "loc": {"file": "hdfs-site.xml", "line": 8}}},
	])
	some f in rule.deny with input as inp
	not f.fix
	f.loc.line == 8
	contains(f.detail, "must divide block size (=134217728)")
	contains(f.detail, "is normally 512")
}
