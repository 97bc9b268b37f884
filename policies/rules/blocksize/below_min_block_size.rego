# METADATA
# title: The client block size is below the NameNode's minimum block size
# description: |
#   The block size of a new HDFS file is chosen by the writing client (dfs.blocksize in
#   the configuration Flink's HDFS client reads) and checked by the NameNode when the
#   file is created: a size strictly below dfs.namenode.fs-limits.min-block-size
#   (1 MiB by default) is refused with "Specified block size N is less than configured
#   minimum value dfs.namenode.fs-limits.min-block-size=M". Every checkpoint and
#   savepoint file Flink creates then fails, so no checkpoint completes. This happens
#   when dfs.blocksize is lowered too far to fit many small checkpoint files (e.g. 512k),
#   or when the NameNode raises its minimum above the client's block size. The fix sets
#   dfs.blocksize to the NameNode's minimum (rounded up to a multiple of
#   dfs.bytes-per-checksum), exactly the minimum being allowed.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/namenode/FSNamesystem.java
#     description: FSNamesystem, the create-time check against the minimum block size and its error text
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: dfs.blocksize and dfs.namenode.fs-limits.min-block-size with their defaults
# custom:
#   id: CKPT102
#   name: blocksize-below-namenode-minimum
#   severity: error
#   fixable: true
package ckptlint.rules.blocksize.below_min_block_size

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.result

client := bs.client

minimum := bs.minimum

# The smallest size both the NameNode (>= minimum) and the client (a
# multiple of dfs.bytes-per-checksum) accept.
target := bs.round_up(minimum.value, bs.checksum.value) if {
	not bs.checksum.error
	bs.checksum.value > 0
} else := minimum.value

at := client if client.loc

else := minimum if minimum.loc

else := bs.hdfs_dir

default_note := "" if minimum.set

else := sprintf("; the default is %s, and %s is not one the Hadoop key table covers (%s)", [minimum.varies, input.versions.hadoop.text, input.versions.hadoop.table]) if minimum.varies

else := "; declare min_block_size in the cluster block of .ckptlint.hcl if the NameNode sets another value"

# A known Hadoop release outside the Hadoop key table (internal/model/hadoop.go):
# its default minimum is not known, so the finding is an info without a fix
# (HDFS-4305 added the limit in 2.1.0-beta).
deny contains f if {
	not client.error
	not minimum.error
	client.value < minimum.value
	minimum.varies
	f := result.info(at, result.msg(
		sprintf("dfs.blocksize %s is below the %s dfs.namenode.fs-limits.min-block-size: a NameNode that enforces it refuses every checkpoint file.", [client.display, minimum.display]),
		sprintf(
			"dfs.blocksize %s (from %s) is below %s, dfs.namenode.fs-limits.min-block-size from %s%s: if the NameNode enforces it, it refuses to create every file this HDFS client writes (\"Specified block size %d is less than configured minimum value dfs.namenode.fs-limits.min-block-size=%d\")",
			[client.display, bs.source(client), minimum.display, bs.source(minimum), default_note, client.value, minimum.value],
		),
	))
}

deny contains f if {
	not client.error
	not minimum.error
	client.value < minimum.value
	not minimum.varies
	f := result.fix(
		at, result.msg(
			sprintf("dfs.blocksize %s is below the NameNode's %s dfs.namenode.fs-limits.min-block-size, so it refuses every checkpoint file.", [client.display, minimum.display]),
			sprintf(
				"dfs.blocksize %s (from %s) is below the NameNode's dfs.namenode.fs-limits.min-block-size %s (from %s%s): the NameNode refuses to create every file this HDFS client writes, so each checkpoint and savepoint file fails with \"Specified block size %d is less than configured minimum value dfs.namenode.fs-limits.min-block-size=%d\" and no checkpoint completes. Set dfs.blocksize to %s (the smallest size the NameNode accepts) where Flink's HDFS client reads it",
				[
					client.display, bs.source(client), minimum.display, bs.source(minimum), default_note,
					client.value, minimum.value, bs.hadoop_size(target),
				],
			),
		),
		[bs.client_op(bs.hadoop_size(target))],
	)
}
