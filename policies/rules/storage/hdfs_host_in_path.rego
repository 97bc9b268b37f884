# METADATA
# title: The NameNode is written into the path of an hdfs URI, after three slashes
# description: |
#   In hdfs:///namenode:8020/flink/checkpoints the three slashes leave the authority empty,
#   so "namenode:8020" is not the NameNode but the first directory of the path: Flink takes
#   the NameNode from fs.defaultFS (HadoopFsFactory), and HDFS refuses the path, since
#   DFSUtilClient.isValidName rejects any path component that contains ':'
#   (DistributedFileSystem.getPathName: "Pathname /namenode:8020/flink/checkpoints from
#   hdfs:/namenode:8020/flink/checkpoints is not a valid DFS filename."). Every checkpoint
#   then fails. The rule reports an error for a checkpoint, savepoint or HA storage path of
#   that form (also hdfs:/namenode:8020/...); write two slashes:
#   hdfs://namenode:8020/flink/checkpoints, which fix writes.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.3.6/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/DFSUtilClient.java
#     description: DFSUtilClient.isValidName rejects a path component containing ':'
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.3.6/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/DistributedFileSystem.java
#     description: DistributedFileSystem.getPathName throws "Pathname ... is not a valid DFS filename."
# custom:
#   id: CKPT513
#   name: hdfs-namenode-in-path
#   severity: error
#   fixable: true
package ckptlint.rules.storage.hdfs_host_in_path

import data.ckptlint.lib.result
import data.ckptlint.lib.storage

paths contains p if {
	some p in [
		input.effective.checkpointing.dir,
		input.effective.checkpointing.savepoint_dir,
		input.effective.ha.storage_dir,
	]
	p.set
	is_string(p.value)
	storage.host_in_path(p.value)
}

# path is the URI's path as HDFS sees it.
path(v) := regex.replace(trim_space(v), `^(?i)hdfs:/*`, "/")

deny contains f if {
	some p in paths
	f := result.fix(
		p,
		result.msg(
			sprintf("%s %s puts the NameNode after three slashes, which HDFS refuses, so every checkpoint fails.", [p.key, result.short(p.value)]),
			sprintf(
				"%s %s (%s) writes the NameNode into the path: with no authority, HDFS reads %s as a path whose first directory contains ':', which it refuses (\"Pathname %s ... is not a valid DFS filename.\"), so every checkpoint fails. Write the NameNode as the authority, with two slashes: hdfs://%s",
				[p.key, p.value, storage.origin(p), path(p.value), path(p.value), trim_prefix(path(p.value), "/")],
			),
		),
		[result.set("flink", p.key, sprintf("hdfs://%s", [trim_prefix(path(p.value), "/")]))],
	)
}
