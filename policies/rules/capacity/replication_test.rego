package ckptlint.rules.capacity.replication_test

import data.ckptlint.rules.capacity.replication

base := {
	"flink": {"file": "flink-conf.yaml"},
	"effective": {
		"checkpointing": {"dir": {"value": "hdfs://nn:8020/ckpt", "set": true}},
		"hdfs_client": {
			"replication": {"value": 3, "set": false, "source": "default"},
			"default_fs": {"value": "file:///"},
		},
		"hdfs_cluster": {
			"replication_max": {"value": 512, "set": false, "source": "default"},
			"replication_min": {"value": 1, "set": false, "source": "default"},
		},
	},
	"cluster": {"declared": true, "name": "small", "datanodes": 2},
}

set_repl(inp, n) := json.patch(inp, [{"op": "replace", "path": "/effective/hdfs_client/replication", "value": {
	"value": n, "set": true, "source": "file", "loc": {"file": "hdfs-site.xml", "line": 4},
}}])

test_more_replicas_than_datanodes_warns_with_a_fix if {
	some f in replication.deny with input as base
	f.severity == "warning"
	contains(f.detail, "dfs.replication 3 (default) is above the 2 DataNode(s) declared for cluster \"small\"")
	f.fix == [{"op": "set", "target": "hdfs-client", "key": "dfs.replication", "value": "2"}]
}

test_above_max_is_an_error if {
	inp := json.patch(set_repl(base, 20), [{"op": "replace", "path": "/effective/hdfs_cluster/replication_max", "value": {
		"value": 10, "set": true, "source": "file", "loc": {"file": "cluster/hdfs-site.xml", "line": 8},
	}}])
	some f in replication.deny with input as inp
	not f.severity
	contains(f.detail, "Requested replication factor of 20 exceeds maximum of 10")
	contains(f.detail, "(cluster/hdfs-site.xml:8)")
	f.loc.line == 4

	# the DataNode warning is not repeated on top of the error
	count(replication.deny) == 1 with input as inp
}

test_below_min_is_an_error if {
	inp := json.patch(set_repl(base, 1), [{"op": "replace", "path": "/effective/hdfs_cluster/replication_min/value", "value": 2}])
	some f in replication.deny with input as inp
	not f.severity
	contains(f.detail, "Requested replication factor of 1 is less than the required minimum of 2")
}

test_replication_within_datanodes_is_silent if {
	count(replication.deny) == 0 with input as set_repl(base, 2)
	count(replication.deny) == 0 with input as set_repl(base, 1)
}

test_no_declared_datanodes_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/cluster", "value": {"declared": false}}])
	count(replication.deny) == 0 with input as inp
}

test_checkpoints_off_hdfs_are_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://b/ckpt"}])
	count(replication.deny) == 0 with input as inp
}

test_unreadable_replication_is_left_to_others if {
	inp := json.patch(base, [{"op": "add", "path": "/effective/hdfs_client/replication/error", "value": "For input string"}])
	count(replication.deny) == 0 with input as inp
}
