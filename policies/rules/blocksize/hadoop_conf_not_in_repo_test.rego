package ckptlint.rules.blocksize.hadoop_conf_not_in_repo_test

import data.ckptlint.rules.blocksize.hadoop_conf_not_in_repo as rule

base := {
	"flink": {"file": "flink-conf.yaml"},
	"versions": {"flink": {"major": 1, "minor": 13, "declared": true, "source": "config"}},
	"hadoop": {
		"client": [],
		"conf_refs": [{
			"key": "env.hadoop.conf.dir", "value": "/etc/hadoop/conf", "resolved": "",
			"reason": "an absolute path outside the repository; map it with path_mappings in .ckptlint.hcl to lint the Hadoop files Flink reads there",
			"loc": {"file": "flink-conf.yaml", "line": 5},
		}],
	},
	"effective": {
		"checkpointing": {"dir": {"value": "hdfs://nn/ckpt", "set": true, "loc": {"file": "flink-conf.yaml", "line": 2}}},
		"hdfs_client": {
			"blocksize": {"value": 134217728, "display": "128 MiB", "set": false, "source": "default"},
			"default_fs": {"value": "file:///"},
		},
	},
}

test_unresolved_conf_dir_is_info if {
	some f in rule.deny with input as base
	f.severity == "info"
	f.loc.line == 5
	contains(f.detail, "env.hadoop.conf.dir: /etc/hadoop/conf names the Hadoop configuration directory of Flink's HDFS client, but it is not in the repository (an absolute path outside the repository;")
	contains(f.detail, "dfs.blocksize 128 MiB (from the Hadoop default)")
	contains(f.detail, "path_mappings = { \"/etc/hadoop/conf\" = \"hadoop/conf\" }")
}

test_same_dir_fallback_is_named if {
	inp := json.patch(base, [{"op": "replace", "path": "/hadoop/client", "value": [{"file": "hdfs-site.xml", "via": "same-dir", "keys": {}}]}])
	some f in rule.deny with input as inp
	contains(f.detail, "beside the Flink configuration are used in their place")
}

test_resolved_conf_dir_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/hadoop/conf_refs/0/resolved", "value": "hadoop/conf"}])
	count(rule.deny) == 0 with input as inp
}

test_hadoopconf_on_flink_2_is_left_to_hygiene if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/hadoop/conf_refs/0/key", "value": "fs.hdfs.hadoopconf"},
		{"op": "replace", "path": "/versions/flink", "value": {"major": 2, "minor": 0, "declared": true, "source": "config"}},
	])
	count(rule.deny) == 0 with input as inp
}

test_not_on_hdfs_is_silent if {
	inp := json.patch(base, [{"op": "replace", "path": "/effective/checkpointing/dir/value", "value": "s3://b/ckpt"}])
	count(rule.deny) == 0 with input as inp
}

# Issue 23: ~ is expanded by nothing on the way to java.io.File, so the
# directory is never found: no path_mappings advice that copies the ~.
test_tilde_is_never_loaded if {
	inp := json.patch(base, [{"op": "replace", "path": "/hadoop/conf_refs/0/value", "value": "~/hadoop/conf"}])
	some f in rule.deny with input as inp
	contains(f.detail, "Flink loads no core-site.xml or hdfs-site.xml from it")
	not contains(f.detail, "path_mappings")
}

# fs.hdfs.hadoopconf with ~ is CKPT605's.
test_tilde_hadoopconf_left_to_ckpt605 if {
	inp := json.patch(base, [
		{"op": "replace", "path": "/hadoop/conf_refs/0/value", "value": "~/hadoop/conf"},
		{"op": "replace", "path": "/hadoop/conf_refs/0/key", "value": "fs.hdfs.hadoopconf"},
	])
	count(rule.deny) == 0 with input as inp
}

# The oldest release that reads env.hadoop.conf.dir, 1.6, and one before.
test_env_conf_dir_from_1_6 if {
	v16 := json.patch(base, [{"op": "replace", "path": "/versions/flink/minor", "value": 6}])
	count(rule.deny) == 1 with input as v16
	v15 := json.patch(base, [{"op": "replace", "path": "/versions/flink/minor", "value": 5}])
	count(rule.deny) == 0 with input as v15
}
