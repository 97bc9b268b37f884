package ckptlint.rules.timing.hdfs_client_timeout_test

import data.ckptlint.rules.timing.hdfs_client_timeout

base := {
	"flink": {"file": "flink-conf.yaml"},
	"effective": {
		"checkpointing": {
			"interval": {"value": 60000, "set": true},
			"dir": {"value": "hdfs://nn:8020/ckpt", "set": true},
			"timeout": {"value": 120000, "set": true, "key": "execution.checkpointing.timeout", "display": "2 min", "loc": {"file": "flink-conf.yaml", "line": 2}},
		},
		"hdfs_client": {
			"default_fs": {"value": "file:///"},
			"socket_timeout": {"value": 60000, "set": false, "key": "dfs.client.socket-timeout", "source": "default"},
			"socket_write_timeout": {"value": 480000, "set": false, "key": "dfs.datanode.socket.write.timeout", "source": "default"},
		},
	},
}

test_default_write_timeout_above_lowered_checkpoint_timeout_is_info if {
	fs := hdfs_client_timeout.deny with input as base
	count(fs) == 1
	some f in fs
	f.severity == "info"
	contains(f.detail, "dfs.datanode.socket.write.timeout 8 min (from the Hadoop default) is not shorter than execution.checkpointing.timeout 2 min (flink-conf.yaml:2)")
	f.loc.line == 2
}

test_written_timeout_warns if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/socket_timeout", "value": {
		"value": 180000, "set": true, "key": "dfs.client.socket-timeout", "source": "file",
		"loc": {"file": "hdfs-site.xml", "line": 4},
	}}])
	some f in hdfs_client_timeout.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "dfs.client.socket-timeout 3 min (from hdfs-site.xml:4)")
	contains(f.detail, "expired before completing")
}

test_zero_is_unbounded if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/socket_write_timeout", "value": {
		"value": 0, "set": true, "key": "dfs.datanode.socket.write.timeout", "source": "file",
		"loc": {"file": "hdfs-site.xml", "line": 8},
	}}])
	some f in hdfs_client_timeout.deny with input as inp
	f.severity == "warning"
	contains(f.detail, "0, which turns the timeout off")
}

test_default_checkpoint_timeout_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/timeout/value", "value": 600000}])
	count(hdfs_client_timeout.deny) == 0 with input as inp
}

test_not_on_hdfs_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://b/ckpt"}])
	count(hdfs_client_timeout.deny) == 0 with input as inp
}
