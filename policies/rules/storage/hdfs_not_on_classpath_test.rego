package ckptlint.rules.storage.hdfs_not_on_classpath_test

import data.ckptlint.rules.storage.hdfs_not_on_classpath

inp(v, cp) := {
	"effective": {
		"checkpointing": {"dir": {"value": v, "set": true, "key": "execution.checkpointing.dir", "loc": {"file": "docker-compose.yml", "line": 12}}, "savepoint_dir": {"set": false}},
		"ha": {"storage_dir": {"set": false}},
	},
	"deployed": {"subject": "the jobmanager and taskmanager services", "hadoop_on_classpath": cp},
}

official := {"known": true, "value": false, "why": "the official Flink image flink:1.20.1 ships no Hadoop, and HADOOP_CLASSPATH is not set", "loc": {"file": "docker-compose.yml", "line": 4}}

test_official_image_is_an_error if {
	some f in hdfs_not_on_classpath.deny with input as inp("hdfs://namenode:8020/ckpt", official)
	contains(f.detail, "not on the classpath of the jobmanager and taskmanager services: the official Flink image flink:1.20.1 ships no Hadoop, and HADOOP_CLASSPATH is not set (docker-compose.yml:4)")
	contains(f.detail, "Could not find a file system implementation for scheme 'hdfs'")
}

test_classpath_set_passes if {
	count(hdfs_not_on_classpath.deny) == 0 with input as inp("hdfs://namenode:8020/ckpt", {"known": true, "value": true})
}

test_unknown_passes if {
	count(hdfs_not_on_classpath.deny) == 0 with input as inp("hdfs://namenode:8020/ckpt", {"known": false, "value": false})
}

test_local_dir_passes if {
	count(hdfs_not_on_classpath.deny) == 0 with input as inp("file:///ckpt", official)
}
