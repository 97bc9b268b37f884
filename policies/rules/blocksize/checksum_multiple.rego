# METADATA
# title: The client block size is not a multiple of dfs.bytes-per-checksum
# description: |
#   The HDFS client checksums data in chunks of dfs.bytes-per-checksum bytes (512 by
#   default) and refuses to create a file whose block size is not a whole number of
#   chunks: DFSOutputStream throws "Invalid values: dfs.bytes-per-checksum (=512) must
#   divide block size (=N)." for every file, so no checkpoint or savepoint file can be
#   written. A block size written in bytes (1000000) or with an odd number of KiB (1001k)
#   is the usual cause. The fix rounds dfs.blocksize up to the next multiple of
#   dfs.bytes-per-checksum (and to at least the NameNode's minimum block size); when
#   dfs.bytes-per-checksum itself was changed, correct whichever of the two was
#   mistyped by hand.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/DFSOutputStream.java
#     description: DFSOutputStream constructor, the block size / checksum chunk check and its error text
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: dfs.bytes-per-checksum (default 512) and dfs.blocksize
# custom:
#   id: CKPT103
#   name: blocksize-not-checksum-multiple
#   severity: error
#   fixable: false
package ckptlint.rules.blocksize.checksum_multiple

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.result

client := bs.client

checksum := bs.checksum

# At least the NameNode's minimum (CKPT102), a multiple of the chunk size.
floor_size := max([client.value, bs.minimum.value]) if not bs.minimum.error

else := client.value

target := bs.round_up(floor_size, checksum.value)

at := client if client.loc

else := checksum if checksum.loc

else := bs.hdfs_dir

failure := sprintf(
	"dfs.blocksize %d (%s, from %s) is not a multiple of dfs.bytes-per-checksum %d (from %s): the HDFS client refuses to create every file with \"Invalid values: dfs.bytes-per-checksum (=%d) must divide block size (=%d).\", so no checkpoint or savepoint file can be written",
	[client.value, client.display, bs.source(client), checksum.value, bs.source(checksum), checksum.value, client.value],
)

applies if {
	not client.error
	not checksum.error
	checksum.value > 0
	client.value % checksum.value != 0
}

# dfs.bytes-per-checksum at its default: rounding the block size is the fix.
deny contains f if {
	applies
	not checksum.set
	f := result.fix(
		at, result.msg(
			sprintf("dfs.blocksize %s is not a multiple of dfs.bytes-per-checksum %d, so HDFS refuses to create every checkpoint file.", [client.display, checksum.value]),
			sprintf(
				"%s. Set dfs.blocksize to %s (the next multiple of %d%s) where Flink's HDFS client reads it",
				[failure, bs.hadoop_size(target), checksum.value, minimum_note],
			),
		),
		[bs.client_op(bs.hadoop_size(target))],
	)
}

# dfs.bytes-per-checksum was changed: either value may be the typo.
deny contains f if {
	applies
	checksum.set
	f := result.finding(at, result.msg(
		sprintf("dfs.blocksize %s is not a multiple of dfs.bytes-per-checksum %d, so HDFS refuses to create every checkpoint file.", [client.display, checksum.value]),
		sprintf(
			"%s. Correct whichever of the two is mistyped: dfs.bytes-per-checksum is normally 512, and the next block size that is a multiple of %d is %s",
			[failure, checksum.value, bs.hadoop_size(target)],
		),
	))
}

minimum_note := sprintf(", and not below the NameNode's minimum %s", [bs.minimum.display]) if {
	not bs.minimum.error
	client.value < bs.minimum.value
} else := ""
