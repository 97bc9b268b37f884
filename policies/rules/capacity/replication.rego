# METADATA
# title: dfs.replication outside the NameNode's limits or above the DataNode count
# description: |
#   Flink's HDFS client asks the NameNode for dfs.replication replicas of every
#   file it creates. The NameNode refuses a create whose replication is above
#   dfs.replication.max (default 512) or below dfs.namenode.replication.min
#   (default 1) with "Requested replication factor of r exceeds maximum of max"
#   or "... is less than the required minimum of min": no checkpoint file can be
#   written (error). A replication above the number of DataNodes declared in
#   .ckptlint.hcl does not fail the write, since HDFS only needs minReplication
#   targets, but every block stays under-replicated and a pipeline that loses a
#   DataNode has no spare node to recover onto (warning; the fix sets
#   dfs.replication to the DataNode count where Flink's client reads it).
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/blockmanagement/BlockManager.java
#     description: BlockManager.verifyReplication, the create-time check
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: dfs.replication, dfs.replication.max and dfs.namenode.replication.min
# custom:
#   id: CKPT402
#   name: replication-out-of-range
#   severity: error
#   fixable: false
package ckptlint.rules.capacity.replication

import data.ckptlint.lib.capacity
import data.ckptlint.lib.result

repl := input.effective.hdfs_client.replication

rmax := input.effective.hdfs_cluster.replication_max

rmin := input.effective.hdfs_cluster.replication_min

readable(v) if {
	not v.error
	is_number(v.value)
}

applies if {
	capacity.hdfs_client_used
	readable(repl)
}

at := repl if repl.loc

else := null

repl_text := sprintf("dfs.replication %d (%s)", [repl.value, capacity.from(repl)])

deny contains f if {
	applies
	readable(rmax)
	repl.value > rmax.value
	f := result.finding(at, result.msg(
		sprintf("dfs.replication %d exceeds the NameNode's dfs.replication.max %d, so it refuses every checkpoint file.", [repl.value, rmax.value]),
		sprintf(
			"%s exceeds the NameNode's dfs.replication.max %d (%s): the NameNode refuses every file Flink creates with \"Requested replication factor of %d exceeds maximum of %d for <path>\", so no checkpoint file can be written. Set dfs.replication to at most %d where Flink's HDFS client reads it (3 is the Hadoop default)",
			[repl_text, rmax.value, capacity.from(rmax), repl.value, rmax.value, rmax.value],
		),
	))
}

deny contains f if {
	applies
	readable(rmin)
	repl.value < rmin.value
	f := result.finding(at, result.msg(
		sprintf("dfs.replication %d is below the NameNode's dfs.namenode.replication.min %d, so it refuses every checkpoint file.", [repl.value, rmin.value]),
		sprintf(
			"%s is below the NameNode's dfs.namenode.replication.min %d (%s): the NameNode refuses every file Flink creates with \"Requested replication factor of %d is less than the required minimum of %d for <path>\", so no checkpoint file can be written. Set dfs.replication to at least %d where Flink's HDFS client reads it",
			[repl_text, rmin.value, capacity.from(rmin), repl.value, rmin.value, rmin.value],
		),
	))
}

deny contains f if {
	applies
	dn := input.cluster.datanodes
	dn >= 1
	repl.value > dn
	not too_high
	f := object.union(
		result.fix(
			at, result.msg(
				sprintf("dfs.replication %d is above the %d DataNode(s) of cluster %q, so every checkpoint block stays under-replicated.", [repl.value, dn, result.short(input.cluster.name)]),
				sprintf(
					"%s is above the %d DataNode(s) declared for cluster %q: the NameNode can place only %d replica(s) of each block, so writes succeed (a write fails only below dfs.namenode.replication.min %d) but every checkpoint block stays under-replicated; a write pipeline that loses a DataNode has no spare node to recover onto (see CKPT403). Set dfs.replication to %d where Flink's HDFS client reads it: the same number of replicas, without the permanent under-replication",
					[repl_text, dn, input.cluster.name, dn, min_or_default, dn],
				),
			),
			[result.set("hdfs-client", "dfs.replication", sprintf("%d", [dn]))],
		),
		{"severity": "warning"},
	)
}

too_high if {
	readable(rmax)
	repl.value > rmax.value
}

min_or_default := rmin.value if readable(rmin)

else := 1
