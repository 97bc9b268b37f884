# METADATA
# title: A dfs.blocksize that Flink's HDFS client ignores because an earlier file made another value final
# description: |
#   Flink builds its HDFS client configuration from several resources in order: the
#   directory named by fs.hdfs.hadoopconf (Flink 1.x), then HADOOP_CONF_DIR (which
#   env.hadoop.conf.dir sets), then the flink.hadoop.* keys; normally the later
#   resource wins. A value marked <final>true</final> is the exception: Hadoop keeps
#   it against every resource loaded after it and only logs WARN "<file>:an attempt
#   to override final parameter: dfs.blocksize;  Ignoring.". A dfs.blocksize written
#   in a later file, typically the small block size meant to keep checkpoint files
#   schedulable, then silently has no effect. Values set through flink.hadoop.* on
#   Flink 1.13 or later are not affected: they are applied with Configuration.set,
#   which a <final> in a file does not block. Remove the <final> or set the value in
#   the file that has it.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-common-project/hadoop-common/src/main/java/org/apache/hadoop/conf/Configuration.java
#     description: final parameters are kept against later resources (loadProperty); set() values are applied over all resources (getProps)
#   - ref: https://github.com/apache/flink/blob/release-1.20/flink-filesystems/flink-hadoop-fs/src/main/java/org/apache/flink/runtime/util/HadoopUtils.java
#     description: the order in which Flink loads its Hadoop configuration
# custom:
#   id: CKPT108
#   name: blocksize-locked-by-final
#   severity: error
#   fixable: false
package ckptlint.rules.blocksize.final_blocks_override

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.result

winner := bs.client

deny contains f if {
	winner.source == "file"
	winner.final
	not bs.passthrough_applied
	first := bs.client_index(winner.loc.file)
	some j, later in input.hadoop.client
	e := later.keys["dfs.blocksize"]
	j > first
	e.loc != winner.loc
	not bs.same_size(e.value, winner.value)
	f := result.finding(e, result.msg(
		sprintf("dfs.blocksize %q here is ignored: a final value %s loaded earlier wins, so checkpoint files get %s blocks.", [result.short(e.value), winner.display, winner.display]),
		sprintf(
			"dfs.blocksize %q here (%s, %s) is ignored: %s, loaded earlier from %s, sets dfs.blocksize %s with <final>true</final>, and Hadoop keeps a final value against every resource loaded after it (it only logs WARN \"%s:an attempt to override final parameter: dfs.blocksize;  Ignoring.\"). Flink's HDFS client creates checkpoint files with %s blocks. Remove <final>true</final> from %s or set the intended value there",
			[
				e.value, bs.where(e.loc), bs.via_text(later.via), bs.where(winner.loc),
				bs.via_text(input.hadoop.client[first].via), winner.display, later.file,
				winner.display, winner.loc.file,
			],
		),
	))
}
