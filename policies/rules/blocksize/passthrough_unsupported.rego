# METADATA
# title: flink.hadoop.dfs.blocksize on a Flink version without the flink.hadoop.* pass-through
# description: |
#   Flink copies every flink.hadoop.<key> option into the Hadoop configuration of its
#   HDFS client only from Flink 1.13 (FLINK-16005). On older versions the option is an
#   unknown Flink key and is silently ignored, so a block size set this way never
#   reaches the HDFS client and checkpoint files keep the block size of the Hadoop
#   files (128 MiB by default, which makes many tiny checkpoint files exhaust the
#   DataNodes' scheduled space, CKPT101). The rule needs the Flink version to be
#   declared. The fix moves the value into an hdfs-site.xml that Flink's HDFS client
#   reads (the fs.hdfs.hadoopconf directory or HADOOP_CONF_DIR) and removes the Flink
#   key; when the value is not a plain Hadoop size it is left to be moved by hand.
# related_resources:
#   - ref: https://issues.apache.org/jira/browse/FLINK-16005
#     description: "FLINK-16005: flink.hadoop.* options are passed to the Hadoop configuration (Flink 1.13)"
#   - ref: https://github.com/apache/flink/blob/release-1.13/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: HadoopUtils.getHadoopConfiguration copies the flink.hadoop. prefix from 1.13
# custom:
#   id: CKPT110
#   name: blocksize-passthrough-unsupported
#   severity: error
#   fixable: false
package ckptlint.rules.blocksize.passthrough_unsupported

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.result

version := input.versions.flink

before_1_13 if version.major < 1

before_1_13 if {
	version.major == 1
	version.minor < 13
}

message(p) := result.msg(
	sprintf("%s is ignored: Flink %s does not pass flink.hadoop.* options on, so checkpoint files get %s blocks.", [p.key, version.value, bs.client.display]),
	sprintf(
		"%s: %s (at %s) is ignored: Flink %s (%s) does not copy flink.hadoop.* options into its Hadoop configuration (the pass-through exists from Flink 1.13, FLINK-16005), so Flink's HDFS client creates checkpoint files with dfs.blocksize %s (from %s). Set dfs.blocksize in an hdfs-site.xml of the Hadoop configuration directory Flink reads (fs.hdfs.hadoopconf or HADOOP_CONF_DIR) and remove %s",
		[p.key, p.value, bs.where(p.loc), version.value, version.why, bs.client.display, bs.source(bs.client), p.key],
	),
)

plain_size(s) if regex.match(`^[0-9]+[kmgtpeKMGTPE]?$`, trim_space(s))

ignored contains p if {
	version.declared
	before_1_13
	some k in ["dfs.blocksize", "dfs.block.size"]
	p := input.flink.hadoop_passthrough[k]
	not bs.same_size(p.value, bs.client.value)
}

deny contains f if {
	some p in ignored
	plain_size(p.value)
	f := result.fix(p, message(p), [
		result.set("hdfs-client", "dfs.blocksize", trim_space(p.value)),
		result.delete("flink", p.key),
	])
}

deny contains f if {
	some p in ignored
	not plain_size(p.value)
	f := result.finding(p, message(p))
}
