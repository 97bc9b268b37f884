package ckptlint.rules.capacity.replace_datanode_test

import data.ckptlint.rules.capacity.replace_datanode

# Defaults on a 3-DataNode cluster: enable true, DEFAULT, best-effort false, replication 3.
base := {
	"flink": {"file": "flink-conf.yaml"},
	"effective": {
		"checkpointing": {"dir": {"value": "hdfs://nn:8020/ckpt", "set": true}},
		"hdfs_client": {
			"default_fs": {"value": "file:///"},
			"replication": {"value": 3, "display": "3", "set": false, "source": "default"},
			"replace_datanode_enable": {"value": true, "display": "true", "set": false, "source": "default"},
			"replace_datanode_policy": {"value": "DEFAULT", "display": "DEFAULT", "set": false, "source": "default"},
			"replace_datanode_best_effort": {"value": false, "display": "false", "set": false, "source": "default"},
		},
	},
	"cluster": {"declared": true, "name": "small", "datanodes": 3},
}

test_defaults_on_three_datanodes_warn_with_the_fix if {
	some f in replace_datanode.deny with input as base
	contains(f.detail, "cluster \"small\" has 3 DataNode(s)")
	contains(f.detail, "policy DEFAULT (default)")
	contains(f.detail, "leaves at most 1 node(s) (replication 3 / 2)")
	contains(f.detail, "a pipeline spans 3 of the 3 DataNode(s), leaving none outside it to add")
	contains(f.detail, "Failed to replace a bad datanode on the existing pipeline due to no more good datanodes being available to try.")
	f.fix == [{"op": "set", "target": "hdfs-client", "key": "dfs.client.block.write.replace-datanode-on-failure.best-effort", "value": "true"}]
}

test_always_with_two_replicas_warns if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/hdfs_client/replace_datanode_policy/value", "value": "always"},
		{"op": "replace", "path": "/effective/hdfs_client/replication/value", "value": 2},
	])
	some f in replace_datanode.deny with input as inp
	contains(f.detail, "a pipeline spans 2 of the 3 DataNode(s), leaving only 1 to add")
}

test_default_with_two_replicas_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/replication/value", "value": 2}])
	count(replace_datanode.deny) == 0 with input as inp
}

test_best_effort_never_or_disabled_are_silent if {
	count(replace_datanode.deny) == 0 with input as json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/replace_datanode_best_effort/value", "value": true}])
	count(replace_datanode.deny) == 0 with input as json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/replace_datanode_policy/value", "value": "NEVER"}])
	count(replace_datanode.deny) == 0 with input as json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/replace_datanode_enable/value", "value": false}])
}

test_larger_clusters_are_silent if {
	count(replace_datanode.deny) == 0 with input as json.patch(base, [{"op": "replace", "path": "/cluster/datanodes", "value": 4}])
	count(replace_datanode.deny) == 0 with input as json.patch(base, [{"op": "replace", "path": "/cluster", "value": {"declared": false}}])
}

test_points_at_the_written_policy if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/replace_datanode_policy", "value": {
		"value": "ALWAYS", "display": "ALWAYS", "set": true, "source": "file", "loc": {"file": "hdfs-site.xml", "line": 6},
	}}])
	some f in replace_datanode.deny with input as inp
	f.loc.line == 6
	contains(f.detail, "policy ALWAYS (hdfs-site.xml:6)")
}
