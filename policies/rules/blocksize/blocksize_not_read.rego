# METADATA
# title: A dfs.blocksize that never reaches Flink's HDFS client
# description: |
#   The block size of a new HDFS file is chosen by the client that creates it:
#   Flink's HDFS client uses the dfs.blocksize of the configuration Flink builds
#   (the fs.hdfs.hadoopconf directory on Flink 1.x, then HADOOP_CONF_DIR, then
#   flink.hadoop.* on Flink 1.13 or later; the later resource wins) and passes no
#   block size of its own. Two settings look effective but are not: a dfs.blocksize
#   in the fs.hdfs.hadoopconf files that a HADOOP_CONF_DIR file overrides with another
#   value, and a dfs.blocksize in the cluster's own hdfs-site.xml (NameNode and
#   DataNodes), which no client reads. The checkpoint files are then written with the
#   block size ckptlint reports instead, e.g. the 128 MiB default that makes tiny files
#   exhaust the DataNodes' scheduled space (CKPT101). Set dfs.blocksize once, where
#   Flink's HDFS client reads it.
# related_resources:
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: the order in which Flink loads its Hadoop configuration
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/fs/hdfs/HadoopFileSystem.java
#     description: Flink creates checkpoint files without a block size of its own
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/client/impl/DfsClientConf.java
#     description: the client's default block size comes from its own dfs.blocksize
# custom:
#   id: CKPT109
#   name: blocksize-not-read-by-flink
#   severity: warning
#   fixable: false
package ckptlint.rules.blocksize.blocksize_not_read

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.result

winner := bs.client

# A client file loaded before the file whose value wins.
deny contains f if {
	winner.source == "file"
	not bs.passthrough_applied
	last := bs.client_index(winner.loc.file)
	some j, earlier in input.hadoop.client
	e := earlier.keys["dfs.blocksize"]
	j < last
	earlier.file != winner.loc.file
	not bs.same_size(e.value, winner.value)
	f := result.finding(e, result.msg(
		sprintf("dfs.blocksize %q here does not reach Flink's HDFS client: a later file sets %s, so checkpoint files get %s blocks.", [result.short(e.value), winner.display, winner.display]),
		sprintf(
			"dfs.blocksize %q here (%s, %s) does not reach Flink's HDFS client: %s (%s) is loaded after it and sets %s, and Flink's Hadoop configuration keeps the value of the later resource (fs.hdfs.hadoopconf first, then HADOOP_CONF_DIR, then flink.hadoop.*). Flink's checkpoint files are created with %s blocks. Set dfs.blocksize in one place: the intended value in %s",
			[
				e.value, bs.where(e.loc), bs.via_text(earlier.via), bs.where(winner.loc),
				bs.via_text(input.hadoop.client[last].via), winner.display, winner.display, winner.loc.file,
			],
		),
	))
}

cluster := input.effective.hdfs_cluster.blocksize

cluster_file := input.hadoop.cluster_hdfs_site.file

# The cluster's hdfs-site.xml asks for smaller blocks than Flink's client uses.
deny contains f if {
	input.flink
	bs.writes_hdfs
	cluster.loc.file == cluster_file
	not cluster_file_is_client
	not cluster.error
	not winner.error
	cluster.value < winner.value
	f := result.finding(cluster, result.msg(
		sprintf("dfs.blocksize %s in the cluster's hdfs-site.xml is not read by Flink's HDFS client, so checkpoint files get %s blocks.", [cluster.display, winner.display]),
		sprintf(
			"dfs.blocksize %s in the cluster's hdfs-site.xml (%s) is not read by Flink's HDFS client: the block size of a new file is chosen by the client that creates it, and Flink's client uses %s (from %s), so Flink's checkpoint files get %s blocks. Set dfs.blocksize to %s where Flink's HDFS client reads it (an hdfs-site.xml in HADOOP_CONF_DIR, or flink.hadoop.dfs.blocksize on Flink 1.13 or later)",
			[
				cluster.display, bs.where(cluster.loc), winner.display, bs.source(winner),
				winner.display, bs.hadoop_size(cluster.value),
			],
		),
	))
}

cluster_file_is_client if {
	some r in input.hadoop.client
	r.file == cluster_file
}
