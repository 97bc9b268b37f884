package ckptlint.rules.blocksize.final_blocks_override_test

import data.ckptlint.rules.blocksize.final_blocks_override as rule

# fs.hdfs.hadoopconf's hdfs-site.xml locks 128m; HADOOP_CONF_DIR's asks for 1m.
base := {
	"flink": {"file": "flink-conf.yaml", "hadoop_passthrough": {}},
	"versions": {"flink": {"major": 1, "minor": 15, "declared": true, "source": "config"}},
	"hadoop": {"client": [
		{"file": "old/hdfs-site.xml", "via": "fs.hdfs.hadoopconf", "keys": {"dfs.blocksize": {"value": "128m", "final": true, "loc": {"file": "old/hdfs-site.xml", "line": 4}}}},
		{"file": "conf/hdfs-site.xml", "via": "env.hadoop.conf.dir", "keys": {"dfs.blocksize": {"value": "1m", "loc": {"file": "conf/hdfs-site.xml", "line": 6}}}},
	]},
	"effective": {"hdfs_client": {"blocksize": {
		"value": 134217728, "display": "128 MiB", "set": true, "source": "file", "final": true, "raw": "128m",
		"loc": {"file": "old/hdfs-site.xml", "line": 4},
	}}},
}

test_later_value_locked_by_final_fires if {
	some f in rule.deny with input as base
	f.loc.file == "conf/hdfs-site.xml"
	contains(f.detail, "dfs.blocksize \"1m\" here (conf/hdfs-site.xml:6, HADOOP_CONF_DIR, set by env.hadoop.conf.dir) is ignored: old/hdfs-site.xml:4, loaded earlier from the fs.hdfs.hadoopconf directory, sets dfs.blocksize 128 MiB with <final>true</final>")
	contains(f.detail, "WARN \"conf/hdfs-site.xml:an attempt to override final parameter: dfs.blocksize;  Ignoring.\"")
}

test_same_value_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/hadoop/client/1/keys/dfs.blocksize/value", "value": "134217728"}])
	count(rule.deny) == 0 with input as inp
}

test_without_final_the_later_value_wins if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/blocksize/final", "value": false}])
	count(rule.deny) == 0 with input as inp
}

test_flink_hadoop_passthrough_overrides_final if {
	inp := json.patch(base, [{"op": "replace", "path": "/flink/hadoop_passthrough", "value": {"dfs.blocksize": {"key": "flink.hadoop.dfs.blocksize", "value": "1m"}}}])
	count(rule.deny) == 0 with input as inp
}
