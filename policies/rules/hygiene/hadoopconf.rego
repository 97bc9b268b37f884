# METADATA
# title: fs.hdfs.hadoopconf is deprecated, overridden by HADOOP_CONF_DIR, and ignored by Flink 2.x
# description: |
#   fs.hdfs.hadoopconf (and fs.hdfs.hdfssite, fs.hdfs.hdfsdefault) tell Flink 1.x where to find the
#   core-site.xml and hdfs-site.xml its HDFS client loads. They have been deprecated since Flink 1.5
#   ("Use environment variable HADOOP_CONF_DIR instead", FLINK-7967) and Flink 2.0 removed them: a
#   2.x cluster silently skips those files, so the client-side settings in them (dfs.blocksize,
#   replication, fs.defaultFS, HA nameservices) no longer apply. On 1.x, Flink loads the
#   fs.hdfs.hadoopconf files before the HADOOP_CONF_DIR ones, which env.hadoop.conf.dir sets, so with
#   both set every key present in both comes from the env.hadoop.conf.dir directory. Use
#   env.hadoop.conf.dir (read by bin/config.sh from Flink 1.6, FLINK-6222) or export HADOOP_CONF_DIR
#   instead; the fix renames fs.hdfs.hadoopconf only on a Flink version known to be 1.6 or later. A
#   warning on 1.5 to 1.x, an error on a declared 2.x; before 1.5 the key is how Flink finds the
#   files and not deprecated, so there is nothing to report. These findings depend on the release:
#   while the Flink version is not known, or is outside the releases ckptlint's key tables cover
#   (docs/versions.md), they are info and fix holds the rename back. A directory that starts with ~
#   is never loaded, on any release: Flink checks it with java.io.File, which does not expand ~, so
#   it looks for a directory named "~" in the working directory and silently loads no Hadoop files
#   from it (an error; write the absolute path).
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: HadoopUtils.getHadoopConfiguration, the order in which Flink 1.x loads Hadoop files, and the new File(dir).exists() check
#   - ref: https://github.com/apache/flink/blob/release-2.0/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: Flink 2.0 HadoopUtils, without fs.hdfs.hadoopconf
#   - ref: https://github.com/apache/flink/blob/release-1.5.0/flink-core/src/main/java/org/apache/flink/configuration/ConfigConstants.java
#     description: "PATH_HADOOP_CONFIG, @Deprecated from 1.5: \"Use environment variable HADOOP_CONF_DIR instead\" (1.4.2 has no deprecation)"
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

# deprecated is true on a release that deprecates the fs.hdfs.* keys: 1.5
# (FLINK-7967; ConfigConstants.PATH_HADOOP_CONFIG is @Deprecated from
# release-1.5.0, not in 1.4.2) and later, or a version that is not known
# (read as 1.18, and versioned below, so the finding is then an info).
deprecated if hygiene.at_least(1, 5)

deprecated if not input.versions.flink.declared

# tilde is true for a directory Flink never finds: HadoopUtils checks
# new File(dir).exists() (release-1.0.3 HadoopFileSystem.getHadoopConfiguration
# to 1.20 HadoopUtils), and java.io.File does not expand ~, so "~/conf" is
# a directory named "~" under the working directory.
tilde(value) if startswith(trim_space(value), "~")

# 1.5 to 1.x without env.hadoop.conf.dir: deprecated, and a trap for the 2.x upgrade.
deny contains f if {
	some key in keys
	e := written(key)
	not hygiene.at_least(2, 0)
	deprecated
	not conf_dir
	not tilde(e.value)
	msg := result.msg(
		sprintf("%s is deprecated and Flink 2.0 ignores it, so after an upgrade Flink's HDFS client runs without its Hadoop files.", [key]),
		sprintf(
			"%s names %s%s for Flink's HDFS client on %s; it is deprecated since Flink 1.5 (\"Use environment variable HADOOP_CONF_DIR instead\") and Flink 2.0 ignores it, so after an upgrade the client silently runs without those files (dfs.blocksize, replication, fs.defaultFS and HA nameservices set there no longer apply). %s",
			[key, what(key), resolved(key), hygiene.version, advice(key, e.value)],
		),
	)
	f := result.versioned(hygiene.emit(e, msg, rename_ops(key), "warning"))
}

# A directory starting with ~: Flink loads no Hadoop files from it, on every
# release that reads the key (and 2.x reads none).
deny contains f if {
	e := written("fs.hdfs.hadoopconf")
	tilde(e.value)
	not declared_2x
	msg := result.msg(
		"fs.hdfs.hadoopconf starts with ~, which nothing expands, so Flink loads no Hadoop configuration from it.",
		sprintf(
			"fs.hdfs.hadoopconf: %s names the Hadoop configuration directory with ~, which nothing expands: Flink checks it with java.io.File (new File(\"%s\").exists() in HadoopUtils.getHadoopConfiguration), which looks for a directory named \"~\" under the JobManager's and TaskManagers' working directory, so Flink silently loads no core-site.xml or hdfs-site.xml from it and its HDFS client runs without those settings (dfs.blocksize, replication, fs.defaultFS, HA nameservices) unless HADOOP_CONF_DIR supplies them. Write the absolute path of the directory on the Flink hosts",
			[trim_space(e.value), trim_space(e.value)],
		),
	)
	f := hygiene.emit(e, msg, [], "error")
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

# 1.6 to 1.x with env.hadoop.conf.dir too (bin/config.sh reads it from 1.6,
# FLINK-6222; before, CKPT604 reports it as unread): HADOOP_CONF_DIR files
# override.
deny contains f if {
	some key in keys
	e := written(key)
	not hygiene.at_least(2, 0)
	env_conf_dir_read
	conf_dir
	not tilde(e.value)
	msg := result.msg(
		sprintf("%s and env.hadoop.conf.dir are both set, so keys set in both come from the env.hadoop.conf.dir files.", [key]),
		sprintf(
			"%s names %s%s, and env.hadoop.conf.dir is also set (%s: %s): Flink loads the fs.hdfs.* files first and the HADOOP_CONF_DIR ones (which env.hadoop.conf.dir sets when the environment does not) after them, so every key set in both comes from %s; fs.hdfs.* is deprecated since Flink 1.5 and ignored from 2.0. %s",
			[key, what(key), resolved(key), hygiene.where(conf_dir.loc), conf_dir.value, conf_dir.value, both_advice(key, e.value)],
		),
	)
	f := result.versioned(hygiene.emit(e, msg, both_ops(key, e.value), "warning"))
}

# declared_2x is a known Flink 2.x, which does not read fs.hdfs.* at all.
declared_2x if {
	hygiene.at_least(2, 0)
	input.versions.flink.declared
}

env_conf_dir_read if hygiene.at_least(1, 6)

env_conf_dir_read if not input.versions.flink.declared

both_advice(key, value) := "Both name the same directory: delete fs.hdfs.hadoopconf" if {
	key == "fs.hdfs.hadoopconf"
	same_dir(value, conf_dir.value)
} else := sprintf("Move what the %s files set into %s and delete %s", [key, conf_dir.value, key])

both_ops(key, value) := [result.needs_version(result.delete("flink", key))] if {
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
	msg := result.msg(
		sprintf("%s does not read %s, so Flink's HDFS client runs without the Hadoop files it names.", [hygiene.release, key]),
		sprintf(
			"%s does not read %s (removed in Flink 2.0, FLINK-34085; Flink ignores unknown keys without an error): %s not loaded, so Flink's HDFS client runs without the settings there (dfs.blocksize, replication, fs.defaultFS, HA nameservices). %s",
			[hygiene.version, key, what_2x(key, e.value), v2_advice(key, e.value)],
		),
	)
	f := result.versioned(hygiene.emit(e, msg, v2_ops(key), "error"))
}

what_2x(key, value) := sprintf("the core-site.xml and hdfs-site.xml in %s are", [value]) if key == "fs.hdfs.hadoopconf"

else := sprintf("the file it names (%s) is", [value])

v2_advice(key, value) := "Write env.hadoop.conf.dir with the absolute path of that directory instead (or export HADOOP_CONF_DIR with it): nothing expands ~ in it, neither bin/config.sh nor java.io.File" if {
	key == "fs.hdfs.hadoopconf"
	not conf_dir
	tilde(value)
} else := sprintf("Write env.hadoop.conf.dir: %s instead (or export HADOOP_CONF_DIR=%s)", [value, value]) if {
	key == "fs.hdfs.hadoopconf"
	not conf_dir
} else := sprintf("Move what those files set into the env.hadoop.conf.dir directory (%s) and delete %s", [conf_dir.value, key]) if {
	conf_dir
} else := file_advice(key)

v2_ops(key) := [result.rename("flink", key, "env.hadoop.conf.dir")] if {
	key == "fs.hdfs.hadoopconf"
	not input.flink.keys["env.hadoop.conf.dir"]
	not tilde(input.flink.keys[key].value)
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
	msg := result.msg(
		sprintf("%s does not read fs.hdfs.hadoopconf; its files load through env.hadoop.conf.dir anyway, so the key only misleads.", [hygiene.release]),
		sprintf(
			"%s does not read fs.hdfs.hadoopconf (removed in Flink 2.0, FLINK-34085); the files in %s are loaded anyway through env.hadoop.conf.dir (%s), so the key only misleads: delete it",
			[hygiene.version, e.value, hygiene.where(conf_dir.loc)],
		),
	)
	f := result.versioned(hygiene.emit(e, msg, [result.needs_version(result.delete("flink", "fs.hdfs.hadoopconf"))], "warning"))
}
