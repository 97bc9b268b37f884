# METADATA
# title: dfs.blocksize or the NameNode's minimum block size is not a valid Hadoop size
# description: |
#   Hadoop reads dfs.blocksize and dfs.namenode.fs-limits.min-block-size with
#   Configuration.getLongBytes, which takes a whole number with at most one binary
#   suffix letter (k, m, g, t, p or e, case-insensitive): 1m and 1048576 are valid,
#   Flink-style 1mb, 128 MB, 1 m (inner space) and 1.5m are not. The HDFS client reads
#   dfs.blocksize when it is created (DfsClientConf in the DFSClient constructor), so
#   the first hdfs:// access of every Flink process fails with "Invalid size prefix
#   'b' in '1mb'. Allowed prefixes are k, m, g, t, p, e(case insensitive)" or a
#   NumberFormatException, and no checkpoint can be written; this applies to
#   flink.hadoop.dfs.blocksize too, which Flink passes to Hadoop unchanged. The
#   NameNode reads the minimum block size when it starts and fails the same way. The
#   fix writes the same size in Hadoop syntax when the intended size is unambiguous
#   (1mb to 1m, 128 MB to 128m, 1.5m to 1536k); otherwise write it in bytes or with one
#   suffix letter by hand.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-common-project/hadoop-common/src/main/java/org/apache/hadoop/util/StringUtils.java
#     description: TraditionalBinaryPrefix.string2long, the size syntax getLongBytes accepts
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/client/impl/DfsClientConf.java
#     description: DfsClientConf reads dfs.blocksize with getLongBytes
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/DFSClient.java
#     description: the DFSClient constructor builds DfsClientConf
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/namenode/FSNamesystem.java
#     description: the NameNode reads dfs.namenode.fs-limits.min-block-size with getLongBytes
# custom:
#   id: CKPT104
#   name: blocksize-invalid-hadoop-size
#   severity: error
#   fixable: false
package ckptlint.rules.blocksize.invalid_size_syntax

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.result

# upstream is Hadoop's own exception text (the model's reason up to its
# advice), quoted unless it has quotes of its own.
upstream(v) := sprintf("with \"%s\"", [text]) if {
	text := split(v.error, "; ")[0]
	not contains(text, "\"")
} else := sprintf("with %s", [split(v.error, "; ")[0]])

written(v) := sprintf("flink.hadoop.%s: %s", [v.key, v.raw]) if v.source == "flink.hadoop"

else := sprintf("%s %q", [v.key, v.raw])

client_effect := "Flink's HDFS client reads it when it is created (DfsClientConf), so the first hdfs:// access of the JobManager and of every TaskManager fails with that exception: Flink cannot create its checkpoint directory or write any checkpoint or savepoint file"

# The client block size, with a spelling fix when the intended size is clear.
deny contains f if {
	v := bs.client
	v.error
	hint := bs.hadoop_hint(v)
	f := result.fix(
		v, result.msg(
			sprintf("%s %q is not a Hadoop size, so Hadoop fails to read it.", [v.key, result.short(trim_space(v.raw))]),
			sprintf(
				"%s (at %s) is not a Hadoop size: Hadoop's getLongBytes fails %s. %s. Write %q (the same size in Hadoop syntax: a whole number with at most one of the suffixes k, m, g, t, p, e)",
				[written(v), bs.where(v.loc), upstream(v), client_effect, hint],
			),
		),
		[bs.client_op(hint)],
	)
}

deny contains f if {
	v := bs.client
	v.error
	not bs.hadoop_hint(v)
	f := result.finding(v, result.msg(
		sprintf("%s %q is not a Hadoop size, so Hadoop fails to read it.", [v.key, result.short(trim_space(v.raw))]),
		sprintf(
			"%s (at %s) is not a Hadoop size: Hadoop's getLongBytes fails %s. %s. Write the size as a whole number of bytes or with one of the suffixes k, m, g, t, p, e (e.g. 1m)",
			[written(v), bs.where(v.loc), upstream(v), client_effect],
		),
	))
}

# The NameNode's minimum: certain when the file is the declared cluster
# hdfs-site.xml (or a Hadoop-only set's own file), an assumption otherwise.
namenode_file(v) if v.loc.file == input.hadoop.cluster_hdfs_site.file

deny contains f if {
	v := bs.minimum
	v.error
	namenode_file(v)
	f := object.union(result.finding(v, minimum_message(v, "The NameNode reads it with getLongBytes when it starts (FSNamesystem) and fails to start with that exception")), minimum_fix(v))
}

deny contains f if {
	v := bs.minimum
	v.error
	not namenode_file(v)
	f := result.warning(v, minimum_message(v, "If the NameNode loads this file, it reads the value with getLongBytes when it starts (FSNamesystem) and fails to start with that exception; Flink's HDFS client itself does not read this key"))
}

minimum_message(v, effect) := result.msg(
	sprintf("%s %q is not a Hadoop size, so a NameNode that loads it fails to start.", [v.key, result.short(trim_space(v.raw))]),
	sprintf(
		"%s (at %s) is not a Hadoop size: Hadoop's getLongBytes fails %s. %s. %s",
		[written(v), bs.where(v.loc), upstream(v), effect, minimum_advice(v)],
	),
)

minimum_advice(v) := sprintf("Write %q (the same size in Hadoop syntax)", [hint]) if {
	hint := bs.hadoop_hint(v)
}

else := "Write the size as a whole number of bytes or with one of the suffixes k, m, g, t, p, e (the default is 1m)"

minimum_fix(v) := {"fix": [result.set("hdfs-cluster", "dfs.namenode.fs-limits.min-block-size", hint)]} if {
	hint := bs.hadoop_hint(v)
}

else := {}
