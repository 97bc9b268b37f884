# METADATA
# title: Replace-datanode-on-failure can fail writes on a cluster of 3 DataNodes or less
# description: |
#   When a DataNode in a write pipeline fails, Flink's HDFS client asks the
#   NameNode for a replacement if dfs.client.block.write.replace-datanode-on-failure
#   is enabled (the default) and its policy says so: ALWAYS whenever replicas are
#   missing, DEFAULT when the replication is 3 or more and at most half of the
#   pipeline remains, or the block was hflushed or is being appended. On a cluster
#   of 3 DataNodes or less there is often no DataNode left to add, and with
#   best-effort false (the default) the write fails with "Failed to replace a bad
#   datanode on the existing pipeline due to no more good datanodes being
#   available to try." hdfs-default.xml warns that on clusters of 3 nodes or less
#   users "may experience an unusually high rate of pipeline failures". The fix
#   sets best-effort to true where Flink's HDFS client reads it: the client still
#   replaces a failed DataNode when one is available and otherwise continues with
#   the remaining ones, whereas the policy NEVER would never try to replace it.
#   Either way a block can be left with fewer replicas for a while, which
#   hdfs-default.xml notes raises the chance of data loss.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: dfs.client.block.write.replace-datanode-on-failure.enable, .policy and .best-effort
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/protocol/datatransfer/ReplaceDatanodeOnFailure.java
#     description: the DEFAULT and ALWAYS conditions
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/DataStreamer.java
#     description: the "Failed to replace a bad datanode" error
# custom:
#   id: CKPT403
#   name: replace-datanode-small-cluster
#   severity: warning
#   fixable: true
package ckptlint.rules.capacity.replace_datanode

import data.ckptlint.lib.capacity
import data.ckptlint.lib.result

client := input.effective.hdfs_client

enable := client.replace_datanode_enable

policy := client.replace_datanode_policy

best_effort := client.replace_datanode_best_effort

repl := client.replication

dn := input.cluster.datanodes

policy_name := upper(policy.value)

# replaces: the policy asks for a replacement for some pipeline failures at
# this replication (n == 0 or n >= replication never does; DEFAULT needs
# replication >= 3; Hadoop 3.4.1 ReplaceDatanodeOnFailure.java L40-47, L128-136).
replaces if {
	policy_name == "ALWAYS"
	repl.value >= 2
}

replaces if {
	policy_name == "DEFAULT"
	repl.value >= 3
}

condition := "ALWAYS asks for a replacement DataNode whenever a pipeline failure leaves fewer nodes than the replication" if {
	policy_name == "ALWAYS"
} else := sprintf("DEFAULT asks for a replacement DataNode when a pipeline failure leaves at most %d node(s) (replication %d / 2), or when the block was hflushed or is being appended", [floor(repl.value / 2), repl.value])

pipeline := min([repl.value, dn])

spare := dn - pipeline

spare_text := sprintf("a pipeline spans %d of the %d DataNode(s), leaving none outside it to add", [pipeline, dn]) if {
	spare == 0
} else := sprintf("a pipeline spans %d of the %d DataNode(s), leaving only %d to add", [pipeline, dn, spare])

at := policy if policy.loc

else := best_effort if best_effort.loc

else := enable if enable.loc

else := null

value_text(name, v) := sprintf("%s %s (%s)", [name, v.display, capacity.from(v)])

deny contains f if {
	capacity.hdfs_client_used
	dn >= 1
	dn <= 3
	enable.value == true
	best_effort.value == false
	replaces
	f := result.fix(
		at, result.msg(
			sprintf("With %d DataNode(s) and replace-datanode-on-failure without best-effort, one DataNode failure fails checkpoint writes.", [dn]),
			sprintf(
				"the declared cluster %q has %d DataNode(s), and Flink's HDFS client runs with %s, %s, %s and %s: %s, and %s. When the replacement finds no DataNode, a checkpoint write fails with \"Failed to replace a bad datanode on the existing pipeline due to no more good datanodes being available to try.\" (hdfs-default.xml: on clusters of 3 nodes or less users \"may experience an unusually high rate of pipeline failures\"). Set dfs.client.block.write.replace-datanode-on-failure.best-effort to true where Flink's HDFS client reads it: the client still replaces a failed DataNode when one is available and otherwise continues with the remaining ones (fewer replicas until the NameNode re-replicates, which hdfs-default.xml calls a higher chance of data loss; the policy NEVER would accept that on every failure without trying)",
				[
					input.cluster.name, dn,
					value_text("dfs.client.block.write.replace-datanode-on-failure.enable", enable),
					value_text("policy", policy),
					value_text("best-effort", best_effort),
					value_text("dfs.replication", repl),
					condition, spare_text,
				],
			),
		),
		[result.set("hdfs-client", "dfs.client.block.write.replace-datanode-on-failure.best-effort", "true")],
	)
}
