package ckptlint.rules.storage.hdfs_host_in_path_test

import data.ckptlint.lib.storage
import data.ckptlint.rules.storage.hdfs_host_in_path

dir(v) := {"effective": {
	"checkpointing": {"dir": {"value": v, "set": true, "key": "execution.checkpointing.dir", "loc": {"file": "config.yaml", "line": 3}}, "savepoint_dir": {"set": false}},
	"ha": {"storage_dir": {"set": false}},
}}

test_three_slashes_and_a_port if {
	some f in hdfs_host_in_path.deny with input as dir("hdfs:///namenode:8020/flink/checkpoints")
	contains(f.detail, "HDFS reads /namenode:8020/flink/checkpoints as a path")
	contains(f.detail, "hdfs://namenode:8020/flink/checkpoints")
	f.fix == [{"op": "set", "target": "flink", "key": "execution.checkpointing.dir", "value": "hdfs://namenode:8020/flink/checkpoints"}]
}

test_one_slash if {
	count(hdfs_host_in_path.deny) == 1 with input as dir("hdfs:/nn1:9000/ckpt")
}

test_authority_passes if {
	count(hdfs_host_in_path.deny) == 0 with input as dir("hdfs://namenode:8020/flink/checkpoints")
}

test_no_authority_without_port_passes if {
	count(hdfs_host_in_path.deny) == 0 with input as dir("hdfs:///flink/checkpoints")
}

test_lib_one_slash if storage.host_in_path("hdfs:/nn1:9000/ckpt")

test_paths_one_slash if {
	ps := hdfs_host_in_path.paths with input as dir("hdfs:/nn1:9000/ckpt")
	count(ps) == 1
}
