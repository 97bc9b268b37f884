package ckptlint.rules.hygiene.hadoopconf_test

import data.ckptlint.rules.hygiene.hadoopconf

loc(line) := {"file": "flink-conf.yaml", "line": line, "col": 1}

inp(v, major, minor, keys) := {
	"versions": {"flink": {"value": v, "major": major, "minor": minor, "declared": true, "source": "config"}},
	"flink": {"file": "flink-conf.yaml", "format": "flink-conf", "keys": keys},
	"hadoop": {"conf_refs": [{"key": "fs.hdfs.hadoopconf", "value": "/opt/flink/conf", "resolved": "flink/conf", "reason": ""}]},
}

hconf_key := {"fs.hdfs.hadoopconf": {"value": "/opt/flink/conf", "loc": loc(19)}}

test_deprecated_on_1_13_is_a_warning_with_rename if {
	some f in hadoopconf.deny with input as inp("1.13", 1, 13, hconf_key)
	f.severity == "warning"
	contains(f.detail, "flink/conf in this repository")
	contains(f.detail, "env.hadoop.conf.dir: /opt/flink/conf")
	f.fix == [{"op": "rename", "target": "flink", "key": "fs.hdfs.hadoopconf", "new_key": "env.hadoop.conf.dir"}]
}

test_with_env_hadoop_conf_dir_the_latter_wins if {
	keys := object.union(hconf_key, {"env.hadoop.conf.dir": {"value": "/etc/hadoop/conf", "loc": loc(20)}})
	findings := hadoopconf.deny with input as inp("1.17", 1, 17, keys)
	count(findings) == 1
	some f in findings
	f.severity == "warning"
	contains(f.detail, "every key set in both comes from /etc/hadoop/conf")
	not f.fix
}

test_same_directory_twice_deletes_the_deprecated_key if {
	keys := object.union(hconf_key, {"env.hadoop.conf.dir": {"value": "/opt/flink/conf/", "loc": loc(20)}})
	some f in hadoopconf.deny with input as inp("1.17", 1, 17, keys)
	f.fix == [{"op": "delete", "target": "flink", "key": "fs.hdfs.hadoopconf", "needs_version": true}]
}

test_declared_2_0_is_an_error if {
	some f in hadoopconf.deny with input as inp("2.0", 2, 0, hconf_key)
	f.severity == "error"
	contains(f.detail, "FLINK-34085")
	contains(f.detail, "are not loaded")
}

test_without_the_key_silent if {
	count(hadoopconf.deny) == 0 with input as inp("2.0", 2, 0, {"env.hadoop.conf.dir": {"value": "/etc/hadoop/conf", "loc": loc(20)}})
}

# Flink 1.5's bin/config.sh does not read env.hadoop.conf.dir (it arrived
# in 1.6, FLINK-6222): no rename there, and the advice is HADOOP_CONF_DIR.
test_before_1_6_no_rename if {
	some f in hadoopconf.deny with input as inp("1.5", 1, 5, hconf_key)
	f.severity == "warning"
	not f.fix
	contains(f.detail, "Export HADOOP_CONF_DIR=/opt/flink/conf instead")
	contains(f.detail, "only from Flink 1.6")
}

# Issue 23: before 1.5 the key is not deprecated (ConfigConstants.PATH_HADOOP_CONFIG
# has no @Deprecated in release-1.4.2) and env.hadoop.conf.dir does not exist:
# nothing to report on Flink 1.0.1.
test_before_1_5_silent if {
	count(hadoopconf.deny) == 0 with input as inp("1.0.1", 1, 0, hconf_key)
	count(hadoopconf.deny) == 0 with input as inp("1.4", 1, 4, hconf_key)
}

# The oldest release it claims, 1.5, and the newest 1.x: a warning.
test_deprecated_from_1_5_to_1_20 if {
	some f in hadoopconf.deny with input as inp("1.5", 1, 5, hconf_key)
	f.severity == "warning"
	some g in hadoopconf.deny with input as inp("1.20", 1, 20, hconf_key)
	g.severity == "warning"
}

# Every finding of the rule depends on the release: versioned, so the Go
# side caps it at info while the version is not known (docs/versions.md).
test_unknown_version_is_versioned if {
	doc := json.patch(inp("1.18", 1, 18, hconf_key), [{"op": "replace", "path": "/versions/flink/declared", "value": false}])
	some f in hadoopconf.deny with input as doc
	f.version_dependent
}

# env.hadoop.conf.dir before 1.6 does nothing (CKPT604 says so): no claim
# that its directory overrides fs.hdfs.hadoopconf.
test_both_before_1_6_no_override_claim if {
	keys := object.union(hconf_key, {"env.hadoop.conf.dir": {"value": "/etc/hadoop/conf", "loc": loc(20)}})
	findings := hadoopconf.deny with input as inp("1.5", 1, 5, keys)
	every f in findings {
		not contains(f.detail, "every key set in both")
	}
}

tilde_key := {"fs.hdfs.hadoopconf": {"value": "~/hadoop/conf", "loc": loc(19)}}

# java.io.File does not expand ~: Flink finds no directory and loads no
# Hadoop files from it, on 1.0.1 as on 1.20; the advice never copies the ~.
test_tilde_loads_nothing if {
	some f in hadoopconf.deny with input as inp("1.0.1", 1, 0, tilde_key)
	f.severity == "error"
	contains(f.detail, "silently loads no core-site.xml or hdfs-site.xml from it")
	not contains(f.detail, "HADOOP_CONF_DIR=~")
	not f.fix
	findings := hadoopconf.deny with input as inp("1.20", 1, 20, tilde_key)
	count(findings) == 1
	every g in findings {
		g.severity == "error"
		not contains(g.detail, "env.hadoop.conf.dir: ~")
	}
}

test_tilde_on_2_0_no_rename if {
	some f in hadoopconf.deny with input as inp("2.0", 2, 0, tilde_key)
	f.severity == "error"
	contains(f.detail, "absolute path")
	not contains(f.detail, "env.hadoop.conf.dir: ~")
	not f.fix
}
