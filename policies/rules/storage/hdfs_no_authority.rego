# METADATA
# title: An hdfs:/// path without a NameNode while the configuration set holds no fs.defaultFS
# description: |
#   A checkpoint, savepoint or HA storage path written hdfs:///path names no NameNode: Flink's
#   HadoopFsFactory then takes the authority from fs.defaultFS of the Hadoop configuration that
#   HadoopUtils.getHadoopConfiguration loads: core-site.xml on the classpath,
#   $HADOOP_HOME/conf and $HADOOP_HOME/etc/hadoop, the fs.hdfs.hadoopconf directory (Flink
#   1.x, deprecated), $HADOOP_CONF_DIR (which env.hadoop.conf.dir sets in Flink's scripts) and
#   flink.hadoop.fs.defaultFS (Flink 1.13 or later). When none of them sets it, Hadoop's
#   default file:/// applies and every access fails with "The given file system URI
#   (hdfs:///...) did not describe the authority (like for example HDFS NameNode address/port
#   or S3 host). The attempt to use a configured default authority failed: Hadoop
#   configuration for default file system ('fs.default.name' or 'fs.defaultFS') contains no
#   valid authority component". The rule reports an info when no file of the configuration
#   set (no core-site.xml beside the Flink configuration or in the directory it names, no
#   flink.hadoop.fs.defaultFS) sets fs.defaultFS: the value then comes from the hosts, which
#   ckptlint cannot see. Write the NameNode (hdfs://namenode:8020/...) or the HA nameservice
#   into the path, or keep the core-site.xml Flink reads in the repository.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: HadoopUtils.getHadoopConfiguration, where Flink looks for the Hadoop configuration
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/fs/hdfs/HadoopFsFactory.java
#     description: a URI without authority takes fs.defaultFS, and the errors when that fails
# custom:
#   id: CKPT511
#   name: hdfs-path-without-namenode
#   severity: info
#   fixable: false
package ckptlint.rules.storage.hdfs_no_authority

import data.ckptlint.lib.result
import data.ckptlint.lib.storage

default_fs := input.effective.hdfs_client.default_fs

paths contains p if {
	some p in [
		input.effective.checkpointing.dir,
		input.effective.checkpointing.savepoint_dir,
		input.effective.ha.storage_dir,
	]
	p.set
	is_string(p.value)
	startswith(lower(trim_space(p.value)), "hdfs:///")
	not storage.host_in_path(p.value) # CKPT513
}

core_sites := [r.file | some r in input.hadoop.client; r.format == "core-site"]

found := sprintf("the configuration set's core-site.xml (%s) does not set fs.defaultFS", [concat(", ", core_sites)]) if {
	count(core_sites) > 0
} else := sprintf("%s, and no flink.hadoop.fs.defaultFS is set", [input.deployed.hadoop_missing]) if {
	input.deployed.hadoop_missing != ""
} else := "the configuration set holds no core-site.xml and no flink.hadoop.fs.defaultFS"

refs := [sprintf("%s: %s", [r.key, trim_space(r.value)]) | some r in input.hadoop.conf_refs; r.resolved == ""]

refs_text := sprintf(" (%s names a directory that is not in the repository)", [concat(", ", refs)]) if {
	count(refs) > 0
} else := ""

# authority_error is the start of Flink's error, per release: HadoopFsFactory
# "The given file system URI (...) did not describe the authority" from 1.4
# (release-1.4.2 to 1.18.0), HadoopFileSystem "The given HDFS file URI (...)
# did not describe the HDFS NameNode." before (release-1.0.3 to 1.3.3).
authority_error(path) := sprintf("The given HDFS file URI (%s) did not describe the HDFS NameNode.", [path]) if {
	input.versions.flink.declared
	not storage.at_least(1, 4)
} else := sprintf("The given file system URI (%s) did not describe the authority", [path])

deny contains f if {
	input.flink
	some p in paths
	not default_fs.set
	f := result.info(p, result.msg(
		sprintf("%s %s names no NameNode, so Flink takes it from fs.defaultFS of the Hadoop configuration it loads.", [p.key, result.short(p.value)]),
		sprintf(
			"%s %s (%s) names no NameNode, so Flink takes the authority from fs.defaultFS of the Hadoop configuration it loads (HadoopUtils.getHadoopConfiguration): core-site.xml on the classpath, $HADOOP_HOME/conf and $HADOOP_HOME/etc/hadoop, the fs.hdfs.hadoopconf directory (Flink 1.x), $HADOOP_CONF_DIR (env.hadoop.conf.dir sets it from Flink 1.6) and flink.hadoop.fs.defaultFS (Flink 1.13 or later). Here %s%s, so the NameNode comes from files on the Flink hosts that ckptlint cannot see; where none sets it, Hadoop's default file:/// applies and Flink fails with \"%s ... contains no valid authority component\". Write the NameNode or HA nameservice into the path (hdfs://<namenode>:8020/...), or keep the core-site.xml Flink reads in the repository",
			[p.key, p.value, storage.origin(p), found, refs_text, authority_error(p.value)],
		),
	))
}
