# METADATA
# title: An hdfs:// path while the deployed image has no Hadoop file system on Flink's classpath
# description: |
#   Flink reads hdfs:// through Hadoop's FileSystem, which it does not bundle: since 1.8 no
#   Flink distribution ships Hadoop (apache/flink-docker "Remove Hadoop variant support":
#   the official image's Hadoop variants ended with 1.7), and Flink's documentation asks for
#   HADOOP_CLASSPATH (export HADOOP_CLASSPATH=`hadoop classpath`) or a Hadoop jar in lib/.
#   Without one, FileSystem.getUnguardedFileSystem throws
#   UnsupportedFileSystemSchemeException "Could not find a file system implementation for
#   scheme 'hdfs'. The scheme is not directly supported by Flink and no Hadoop file system to
#   support this scheme could be loaded", and the JobManager fails to create the checkpoint
#   storage ("Failed to create checkpoint storage at checkpoint coordinator side"). The rule
#   reports an error when the repository deploys the processes with an image it can tell
#   lacks Hadoop (the official Flink image from 1.8, no HADOOP_CLASSPATH, no Hadoop or
#   flink-shaded-hadoop jar copied into lib/) and a checkpoint, savepoint or HA storage path
#   is hdfs://; it says nothing when the image is unknown.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20.0/flink-core/src/main/java/org/apache/flink/core/fs/FileSystem.java
#     description: FileSystem.getUnguardedFileSystem throws UnsupportedFileSystemSchemeException for a scheme no factory serves
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/deployment/resource-providers/standalone/docker/#using-filesystem-plugins
#     description: the official image ships no Hadoop; HDFS needs Hadoop on the classpath
#   - ref: https://github.com/apache/flink-docker/commit/89abc4a50ec8810c558a8b24891f69f375a19f71
#     description: apache/flink-docker, "Remove Hadoop variant support" (from 1.8 no Hadoop is bundled)
# custom:
#   id: CKPT512
#   name: hdfs-without-hadoop-classpath
#   severity: error
#   fixable: false
package ckptlint.rules.storage.hdfs_not_on_classpath

import data.ckptlint.lib.result
import data.ckptlint.lib.storage

cp := input.deployed.hadoop_on_classpath

paths contains p if {
	some p in [
		input.effective.checkpointing.dir,
		input.effective.checkpointing.savepoint_dir,
		input.effective.ha.storage_dir,
	]
	p.set
	is_string(p.value)
	storage.hdfs(p.value)
}

deny contains f if {
	cp.known
	cp.value == false
	some p in paths
	f := result.finding(p, result.msg(
		sprintf("%s %s needs HDFS, but Flink has no Hadoop file system on its classpath, so checkpoints fail.", [p.key, result.short(p.value)]),
		sprintf(
			"%s %s (%s) is on HDFS, but Hadoop's file system is not on the classpath of %s: %s (%s:%d). Flink then fails to create the checkpoint storage with \"Could not find a file system implementation for scheme 'hdfs'. The scheme is not directly supported by Flink and no Hadoop file system to support this scheme could be loaded\". Set HADOOP_CLASSPATH to the Hadoop jars of the image (export HADOOP_CLASSPATH=`hadoop classpath`) or build the image with a Hadoop client in Flink's lib/",
			[p.key, p.value, storage.origin(p), input.deployed.subject, cp.why, cp.loc.file, cp.loc.line],
		),
	))
}
