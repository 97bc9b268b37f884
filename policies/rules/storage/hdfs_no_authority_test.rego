package ckptlint.rules.storage.hdfs_no_authority_test

import data.ckptlint.rules.storage.hdfs_no_authority

base := {
	"flink": {"file": "flink-conf.yaml"},
	"hadoop": {"client": [], "conf_refs": []},
	"effective": {
		"checkpointing": {
			"dir": {"value": "hdfs:///flink/checkpoints", "set": true, "key": "state.checkpoints.dir", "loc": {"file": "flink-conf.yaml", "line": 3}},
			"savepoint_dir": {"set": false},
		},
		"ha": {"storage_dir": {"set": false}},
		"hdfs_client": {"default_fs": {"value": "file:///", "set": false, "source": "default"}},
	},
}

test_no_core_site_is_info if {
	some f in hdfs_no_authority.deny with input as base
	f.severity == "info"
	contains(f.detail, "state.checkpoints.dir hdfs:///flink/checkpoints (flink-conf.yaml:3) names no NameNode")
	contains(f.detail, "holds no core-site.xml")
	contains(f.detail, "$HADOOP_CONF_DIR (env.hadoop.conf.dir sets it from Flink 1.6)")
	contains(f.detail, "contains no valid authority component")
	f.loc.line == 3
}

test_core_site_without_default_fs_is_named if {
	inp := json.patch(base, [
		{"op": "add", "path": "/hadoop/client/-", "value": {"file": "core-site.xml", "format": "core-site"}},
		{"op": "add", "path": "/hadoop/conf_refs/-", "value": {"key": "env.hadoop.conf.dir", "value": "/etc/hadoop/conf", "resolved": ""}},
	])
	some f in hdfs_no_authority.deny with input as inp
	contains(f.detail, "core-site.xml (core-site.xml) does not set fs.defaultFS (env.hadoop.conf.dir: /etc/hadoop/conf names a directory")
}

test_default_fs_set_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/hdfs_client/default_fs", "value": {"value": "hdfs://nn:8020", "set": true}}])
	count(hdfs_no_authority.deny) == 0 with input as inp
}

test_authority_in_path_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "hdfs://nn:8020/flink"}])
	count(hdfs_no_authority.deny) == 0 with input as inp
}

test_ha_storage_dir_is_checked if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/ha/storage_dir", "value": {"value": "hdfs:///flink/ha", "set": true, "key": "high-availability.storageDir", "loc": {"file": "flink-conf.yaml", "line": 7}}}])
	count(hdfs_no_authority.deny) == 2 with input as inp
}

# Issue 23: the error's first words per release, oldest (0.9, HadoopFileSystem)
# and newest (2.3, HadoopFsFactory since 1.4).
test_error_text_per_release if {
	old := json.patch(base, [{"op": "add", "path": "/versions", "value": {"flink": {"major": 0, "minor": 9, "declared": true}}}])
	some f in hdfs_no_authority.deny with input as old
	contains(f.detail, "did not describe the HDFS NameNode.")
	new := json.patch(base, [{"op": "add", "path": "/versions", "value": {"flink": {"major": 2, "minor": 3, "declared": true}}}])
	some g in hdfs_no_authority.deny with input as new
	contains(g.detail, "did not describe the authority")
}

test_deployed_names_the_processes if {
	inp := {
		"flink": {"file": "docker-compose.yml"},
		"effective": {
			"checkpointing": {"dir": {"value": "hdfs:///flink/ckpt", "set": true, "key": "state.checkpoints.dir", "loc": {"file": "docker-compose.yml", "line": 9}}, "savepoint_dir": {"set": false}},
			"ha": {"storage_dir": {"set": false}},
			"hdfs_client": {"default_fs": {"set": false}},
		},
		"hadoop": {"client": []},
		"deployed": {"hadoop_missing": "the jobmanager service loads no Hadoop files from the repository: no HADOOP_CONF_DIR is set and no Hadoop configuration directory is mounted or copied in; Hadoop's defaults apply"},
	}
	some f in hdfs_no_authority.deny with input as inp
	contains(f.detail, "Here the jobmanager service loads no Hadoop files from the repository")
}
