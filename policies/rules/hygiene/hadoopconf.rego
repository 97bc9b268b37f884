# METADATA
# title: fs.hdfs.hadoopconf is deprecated, overridden by HADOOP_CONF_DIR, and ignored by Flink 2.x
# description: |
#   fs.hdfs.hadoopconf (and fs.hdfs.hdfssite, fs.hdfs.hdfsdefault) tell Flink 1.x where to find the
#   core-site.xml and hdfs-site.xml its HDFS client loads. They have been deprecated since Flink 1.5
#   ("Use environment variable HADOOP_CONF_DIR instead") and Flink 2.0 removed them: a 2.x cluster
#   silently skips those files, so the client-side settings in them (dfs.blocksize, replication,
#   fs.defaultFS, HA nameservices) no longer apply. On 1.x, Flink loads the fs.hdfs.hadoopconf files
#   before the HADOOP_CONF_DIR ones, which env.hadoop.conf.dir sets, so with both set every key
#   present in both comes from the env.hadoop.conf.dir directory. Use env.hadoop.conf.dir (read by
#   bin/config.sh from Flink 1.6, FLINK-6222) or export HADOOP_CONF_DIR instead; the fix renames
#   fs.hdfs.hadoopconf only on a Flink version known to be 1.6 or later. A warning on 1.x, an error
#   on a declared 2.x.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: HadoopUtils.getHadoopConfiguration, the order in which Flink 1.x loads Hadoop files
#   - ref: https://github.com/apache/flink/blob/release-2.0/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: Flink 2.0 HadoopUtils, without fs.hdfs.hadoopconf
#   - ref: https://issues.apache.org/jira/browse/FLINK-34085
#     description: "FLINK-34085: remove the deprecated fs.hdfs.* options in Flink 2.0"
#   - ref: https://github.com/apache/flink/blob/release-1.6/flink-dist/src/main/flink-bin/bin/config.sh
#     description: "bin/config.sh of Flink 1.6, the first release that reads env.hadoop.conf.dir (FLINK-6222)"
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/config/#env-hadoop-conf-dir
#     description: env.hadoop.conf.dir, which sets HADOOP_CONF_DIR for the start scripts
# custom:
#   id: CKPT605
#   name: fs-hdfs-hadoopconf
#   severity: error
#   fixable: false
package ckptlint.rules.hygiene.hadoopconf

import data.ckptlint.lib.hygiene
import data.ckptlint.lib.result

keys := ["fs.hdfs.hadoopconf", "fs.hdfs.hdfssite", "fs.hdfs.hdfsdefault"]

conf_dir := v if {
	v := input.flink.keys["env.hadoop.conf.dir"]
	is_string(v.value)
	trim_space(v.value) != ""
}

# written(key) is a fs.hdfs.* entry with a text value.
written(key) := e if {
	e := input.flink.keys[key]
	is_string(e.value)
}

# where the Hadoop files of fs.hdfs.hadoopconf resolve in the repository.
resolved(key) := sprintf(" (%s in this repository)", [r.resolved]) if {
	some r in input.hadoop.conf_refs
	r.key == key
	r.resolved != ""
} else := ""

what(key) := "the directory of core-site.xml and hdfs-site.xml" if key == "fs.hdfs.hadoopconf"

what(key) := "an hdfs-site.xml" if key == "fs.hdfs.hdfssite"

what(key) := "an hdfs-default.xml" if key == "fs.hdfs.hdfsdefault"

same_dir(a, b) if trim_right(trim_space(a), "/") == trim_right(trim_space(b), "/")

# 1.x without env.hadoop.conf.dir: deprecated, and a trap for the 2.x upgrade.
deny contains f if {
	some key in keys
	e := written(key)
	not hygiene.at_least(2, 0)
	not conf_dir
	msg := sprintf(
		"%s names %s%s for Flink's HDFS client on %s; it is deprecated since Flink 1.5 (\"Use environment variable HADOOP_CONF_DIR instead\") and Flink 2.0 ignores it, so after an upgrade the client silently runs without those files (dfs.blocksize, replication, fs.defaultFS and HA nameservices set there no longer apply). %s",
		[key, what(key), resolved(key), hygiene.version, advice(key, e.value)],
	)
	f := hygiene.emit(e, msg, rename_ops(key), "warning")
}

advice(key, value) := sprintf("Write env.hadoop.conf.dir: %s instead (or export HADOOP_CONF_DIR=%s): Flink reads it from 1.6 through 2.x", [value, value]) if {
	key == "fs.hdfs.hadoopconf"
	hygiene.at_least(1, 6)
} else := sprintf("Export HADOOP_CONF_DIR=%s instead: bin/config.sh reads env.hadoop.conf.dir only from Flink 1.6 (FLINK-6222), so on %s that key would do nothing", [value, hygiene.version]) if {
	key == "fs.hdfs.hadoopconf"
} else := file_advice(key)

# file_advice: HADOOP_CONF_DIR holds only core-site.xml and hdfs-site.xml;
# hdfs-default.xml comes from the Hadoop jars on the classpath.
file_advice("fs.hdfs.hdfssite") := "Put this hdfs-site.xml in a directory with the core-site.xml, set env.hadoop.conf.dir (or export HADOOP_CONF_DIR) to that directory and delete this key"

file_advice("fs.hdfs.hdfsdefault") := "Move the settings this file changes into the hdfs-site.xml of the env.hadoop.conf.dir directory (or HADOOP_CONF_DIR), where Flink reads only core-site.xml and hdfs-site.xml, and delete this key"

# The rename only where bin/config.sh reads env.hadoop.conf.dir (1.6+):
# on an older release it would drop the Hadoop files.
rename_ops(key) := [result.rename("flink", key, "env.hadoop.conf.dir")] if {
	key == "fs.hdfs.hadoopconf"
	hygiene.at_least(1, 6)
	not input.flink.keys["env.hadoop.conf.dir"]
} else := []

# 1.x with env.hadoop.conf.dir too: HADOOP_CONF_DIR files override.
deny contains f if {
	some key in keys
	e := written(key)
	not hygiene.at_least(2, 0)
	conf_dir
	msg := sprintf(
		"%s names %s%s, and env.hadoop.conf.dir is also set (%s: %s): Flink loads the fs.hdfs.* files first and the HADOOP_CONF_DIR ones (which env.hadoop.conf.dir sets when the environment does not) after them, so every key set in both comes from %s; fs.hdfs.* is deprecated since Flink 1.5 and ignored from 2.0. %s",
		[key, what(key), resolved(key), hygiene.where(conf_dir.loc), conf_dir.value, conf_dir.value, both_advice(key, e.value)],
	)
	f := hygiene.emit(e, msg, both_ops(key, e.value), "warning")
}

both_advice(key, value) := "Both name the same directory: delete fs.hdfs.hadoopconf" if {
	key == "fs.hdfs.hadoopconf"
	same_dir(value, conf_dir.value)
} else := sprintf("Move what the %s files set into %s and delete %s", [key, conf_dir.value, key])

both_ops(key, value) := [result.delete("flink", key)] if {
	key == "fs.hdfs.hadoopconf"
	same_dir(value, conf_dir.value)
} else := []

# A declared 2.x: removed, silently ignored.
deny contains f if {
	some key in keys
	e := written(key)
	hygiene.at_least(2, 0)
	input.versions.flink.declared
	not loaded_anyway(key, e.value)
	msg := sprintf(
		"%s does not read %s (removed in Flink 2.0, FLINK-34085; Flink ignores unknown keys without an error): %s not loaded, so Flink's HDFS client runs without the settings there (dfs.blocksize, replication, fs.defaultFS, HA nameservices). %s",
		[hygiene.version, key, what_2x(key, e.value), v2_advice(key, e.value)],
	)
	f := hygiene.emit(e, msg, v2_ops(key), "error")
}

what_2x(key, value) := sprintf("the core-site.xml and hdfs-site.xml in %s are", [value]) if key == "fs.hdfs.hadoopconf"

else := sprintf("the file it names (%s) is", [value])

v2_advice(key, value) := sprintf("Write env.hadoop.conf.dir: %s instead (or export HADOOP_CONF_DIR=%s)", [value, value]) if {
	key == "fs.hdfs.hadoopconf"
	not conf_dir
} else := sprintf("Move what those files set into the env.hadoop.conf.dir directory (%s) and delete %s", [conf_dir.value, key]) if {
	conf_dir
} else := file_advice(key)

v2_ops(key) := [result.rename("flink", key, "env.hadoop.conf.dir")] if {
	key == "fs.hdfs.hadoopconf"
	not input.flink.keys["env.hadoop.conf.dir"]
} else := []

loaded_anyway(key, value) if {
	key == "fs.hdfs.hadoopconf"
	same_dir(value, conf_dir.value)
}

# A declared 2.x where env.hadoop.conf.dir names the same directory: dead
# but harmless.
deny contains f if {
	e := written("fs.hdfs.hadoopconf")
	hygiene.at_least(2, 0)
	input.versions.flink.declared
	loaded_anyway("fs.hdfs.hadoopconf", e.value)
	msg := sprintf(
		"%s does not read fs.hdfs.hadoopconf (removed in Flink 2.0, FLINK-34085); the files in %s are loaded anyway through env.hadoop.conf.dir (%s), so the key only misleads: delete it",
		[hygiene.version, e.value, hygiene.where(conf_dir.loc)],
	)
	f := hygiene.emit(e, msg, [result.delete("flink", "fs.hdfs.hadoopconf")], "warning")
}
