package ckptlint.rules.blocksize.blocksize_not_read_test

import data.ckptlint.rules.blocksize.blocksize_not_read as rule

# The fs.hdfs.hadoopconf directory asks for 1m; HADOOP_CONF_DIR, loaded later, says 128m.
base := {
	"flink": {"file": "flink-conf.yaml", "hadoop_passthrough": {}},
	"versions": {"flink": {"major": 1, "minor": 15, "declared": true, "source": "config"}},
	"hadoop": {"client": [
		{"file": "old/hdfs-site.xml", "via": "fs.hdfs.hadoopconf", "keys": {"dfs.blocksize": {"value": "1m", "loc": {"file": "old/hdfs-site.xml", "line": 4}}}},
		{"file": "conf/core-site.xml", "via": "env.hadoop.conf.dir", "keys": {}},
		{"file": "conf/hdfs-site.xml", "via": "env.hadoop.conf.dir", "keys": {"dfs.blocksize": {"value": "128m", "loc": {"file": "conf/hdfs-site.xml", "line": 6}}}},
	]},
	"effective": {
		"checkpointing": {"dir": {"value": "hdfs://nn/ckpt", "set": true, "loc": {"file": "flink-conf.yaml", "line": 2}}},
		"hdfs_client": {
			"blocksize": {"value": 134217728, "display": "128 MiB", "set": true, "source": "file", "raw": "128m", "loc": {"file": "conf/hdfs-site.xml", "line": 6}},
			"default_fs": {"value": "file:///"},
		},
		"hdfs_cluster": {"blocksize": {"value": 134217728, "display": "128 MiB", "set": false, "source": "default"}},
	},
}

test_overridden_file_value_warns if {
	some f in rule.deny with input as base
	f.loc.file == "old/hdfs-site.xml"
	contains(f.detail, "dfs.blocksize \"1m\" here (old/hdfs-site.xml:4, the fs.hdfs.hadoopconf directory) does not reach Flink's HDFS client: conf/hdfs-site.xml:6 (HADOOP_CONF_DIR, set by env.hadoop.conf.dir) is loaded after it and sets 128 MiB")
}

test_same_size_other_spelling_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/hadoop/client/0/keys/dfs.blocksize/value", "value": " 131072K "}])
	count(rule.deny) == 0 with input as inp
}

test_passthrough_winner_is_silent if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/effective/hdfs_client/blocksize/source", "value": "flink.hadoop"},
		{"op": "replace", "path": "/flink/hadoop_passthrough", "value": {"dfs.blocksize": {"key": "flink.hadoop.dfs.blocksize", "value": "128m"}}},
	])
	count(rule.deny) == 0 with input as inp
}

cluster_only := json.patch(base, [
	{"op": "replace", "path": "/hadoop/client", "value": [{"file": "conf/hdfs-site.xml", "via": "deployment", "keys": {}}]},
	{"op": "add", "path": "/hadoop/cluster_hdfs_site", "value": {"file": "cluster/hdfs-site.xml"}},
	{"op": "replace", "path": "/effective/hdfs_client/blocksize", "value": {"value": 134217728, "display": "128 MiB", "set": false, "source": "default"}},
	{"op": "replace", "path": "/effective/hdfs_cluster/blocksize", "value": {"value": 1048576, "display": "1 MiB", "set": true, "source": "file", "raw": "1m", "loc": {"file": "cluster/hdfs-site.xml", "line": 8}}},
])

test_cluster_only_block_size_warns if {
	some f in rule.deny with input as cluster_only
	f.loc.file == "cluster/hdfs-site.xml"
	contains(f.detail, "dfs.blocksize 1 MiB in the cluster's hdfs-site.xml (cluster/hdfs-site.xml:8) is not read by Flink's HDFS client")
	contains(f.detail, "Flink's client uses 128 MiB (from the Hadoop default)")
	contains(f.detail, "Set dfs.blocksize to 1m where Flink's HDFS client reads it")
}

test_cluster_larger_than_client_is_silent if {
	inp := json.patch(cluster_only, [{"op": "replace", "path": "/effective/hdfs_cluster/blocksize/value", "value": 268435456}])
	count(rule.deny) == 0 with input as inp
}

test_cluster_file_that_is_also_the_client_file_is_silent if {
	inp := json.patch(cluster_only, [{"op": "replace", "path": "/hadoop/client/0/file", "value": "cluster/hdfs-site.xml"}])
	count(rule.deny) == 0 with input as inp
}
