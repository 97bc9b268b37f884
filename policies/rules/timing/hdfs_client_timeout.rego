# METADATA
# title: An HDFS client timeout longer than the checkpoint timeout hides a stalled write
# description: |
#   Flink's HDFS client gives up on an unresponsive DataNode only after its own timeouts:
#   dfs.client.socket-timeout (default 60 s, HdfsConstants.READ_TIMEOUT) while it waits to
#   read from or for acks of a DataNode, and dfs.datanode.socket.write.timeout (default 8 min,
#   HdfsConstants.WRITE_TIMEOUT) while a socket write to the pipeline is blocked; DfsClientConf
#   reads both with getInt in milliseconds, adds 5 s per DataNode in the pipeline, and 0 turns
#   the timeout off. When either is longer than execution.checkpointing.timeout, a write to a
#   stalled DataNode outlives the checkpoint: the checkpoint expires ("Checkpoint N of job
#   <job> expired before completing.") instead of the write failing with a
#   SocketTimeoutException that names the DataNode and lets the client rebuild its pipeline,
#   so the log shows a Flink timeout and not the HDFS node that caused it. Warning when the
#   HDFS timeout is written in a file (or is 0); info when only its default is longer than a
#   checkpoint timeout someone lowered. Fix by keeping the HDFS client timeouts below the
#   checkpoint timeout (where Flink's HDFS client reads them) or by raising the checkpoint
#   timeout.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/client/impl/DfsClientConf.java
#     description: DfsClientConf reads dfs.client.socket-timeout and dfs.datanode.socket.write.timeout with getInt
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/protocol/HdfsConstants.java
#     description: READ_TIMEOUT 60 s, WRITE_TIMEOUT 8 min, and the 5 s per-node extensions
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: dfs.client.socket-timeout and dfs.datanode.socket.write.timeout
# custom:
#   id: CKPT208
#   name: hdfs-client-timeout-outlives-checkpoint
#   severity: warning
#   fixable: false
package ckptlint.rules.timing.hdfs_client_timeout

import data.ckptlint.lib.blocksize as bs
import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.timing
import data.ckptlint.lib.units

timeout := timing.timeout

client := input.effective.hdfs_client

what := {
	"socket_timeout": "waits that long to read from a DataNode or for its acks",
	"socket_write_timeout": "waits that long on a blocked socket write to the DataNode pipeline",
}

# longer(v) is true when the HDFS timeout v outlives the checkpoint timeout
# (0 means no timeout at all).
longer(v) if v.value == 0

longer(v) if v.value >= timeout.value

length(v) := "0, which turns the timeout off" if v.value == 0

else := units.duration(v.value)

message(field, v) := result.msg(
	headline(v),
	detail(field, v),
)

detail(field, v) := sprintf(
	"%s %s (from %s) is %s execution.checkpointing.timeout %s (%s): Flink's HDFS client %s (plus 5 s per DataNode in the pipeline) before it gives up on an unresponsive DataNode, so a write to a stalled DataNode outlives the checkpoint. The checkpoint then expires (\"Checkpoint <id> of job <job> expired before completing.\") instead of the write failing with a SocketTimeoutException that names the DataNode and lets the client rebuild its pipeline, and the log shows a Flink timeout rather than the HDFS node that caused it. Keep %s below the checkpoint timeout where Flink's HDFS client reads it, or raise execution.checkpointing.timeout above it",
	[v.key, length(v), bs.source(v), relation(v), timeout.display, timing.origin(timeout), what[field], v.key],
)

headline(v) := sprintf(
	"%s 0 turns the HDFS timeout off, so a stalled DataNode expires checkpoints instead of failing writes.",
	[v.key],
) if {
	v.value == 0
} else := sprintf(
	"%s %s is not below the %s checkpoint timeout, so a stalled DataNode expires checkpoints, not writes.",
	[v.key, units.duration(v.value), units.duration(timeout.value)],
)

relation(v) := "not bounded, unlike" if v.value == 0

else := "not shorter than"

deny contains f if {
	flink.checkpointing
	flink.on_hdfs
	timing.readable(timeout)
	some field in ["socket_timeout", "socket_write_timeout"]
	v := client[field]
	is_number(v.value)
	not v.error
	longer(v)
	f := finding(v, message(field, v))
}

finding(v, msg) := result.warning(v, msg) if v.set

else := result.info(anchor, msg)

# A finding about a default points at the checkpoint timeout when a file sets it.
anchor := timeout if timeout.loc

else := null
