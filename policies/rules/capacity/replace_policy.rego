# METADATA
# title: Illegal replace-datanode-on-failure policy value
# description: |
#   When dfs.client.block.write.replace-datanode-on-failure.enable is true (the
#   default), the HDFS client reads ...replace-datanode-on-failure.policy as it is
#   created and accepts only ALWAYS, NEVER and DEFAULT, case-insensitively.
#   DISABLE is not accepted (it is the internal state of enable=false), and the
#   value is compared as written, surrounding whitespace included. Any other
#   value throws HadoopIllegalArgumentException "Illegal configuration value for
#   dfs.client.block.write.replace-datanode-on-failure.policy: <value>", so Flink
#   cannot open the HDFS file system and writes no checkpoint. Use NEVER (or
#   enable=false) to turn replacement off; the fix does that for DISABLE and
#   trims surrounding whitespace.
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs-client/src/main/java/org/apache/hadoop/hdfs/protocol/datatransfer/ReplaceDatanodeOnFailure.java
#     description: ReplaceDatanodeOnFailure.getPolicy, the accepted values and the exception
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: dfs.client.block.write.replace-datanode-on-failure.policy
# custom:
#   id: CKPT404
#   name: replace-datanode-policy-illegal
#   severity: error
#   fixable: false
package ckptlint.rules.capacity.replace_policy

import data.ckptlint.lib.capacity
import data.ckptlint.lib.result

key := "dfs.client.block.write.replace-datanode-on-failure.policy"

policy := input.effective.hdfs_client.replace_datanode_policy

enable := input.effective.hdfs_client.replace_datanode_enable

# written is the value as Hadoop's Configuration.get returns it: not trimmed.
written := policy.raw if is_string(policy.raw)

else := policy.value

legal := {"ALWAYS", "NEVER", "DEFAULT"}

illegal if not upper(written) in legal

message := result.msg(
	sprintf("%s %q is not a policy, so Flink cannot open HDFS files for checkpoints.", [key, result.short(written)]),
	sprintf(
		"%s %q (%s) is not a policy: with replace-datanode-on-failure enabled (%s) the HDFS client accepts only ALWAYS, NEVER or DEFAULT, compared case-insensitively with the value as written%s, and throws HadoopIllegalArgumentException \"Illegal configuration value for %s: %s\" when it is created, so Flink cannot open the HDFS file system and no checkpoint is written. %s",
		[key, written, capacity.from(policy), capacity.from(enable), reason, key, written, advice],
	),
)

reason := " (surrounding whitespace included)" if {
	trim_space(written) != written
	upper(trim_space(written)) in legal
} else := " (DISABLE is only the internal state of enable=false)" if {
	upper(trim_space(written)) == "DISABLE"
} else := ""

advice := sprintf("Write %s without the whitespace", [upper(trim_space(written))]) if {
	upper(trim_space(written)) in legal
} else := "Write NEVER to never replace a failed DataNode, or set dfs.client.block.write.replace-datanode-on-failure.enable to false" if {
	upper(trim_space(written)) == "DISABLE"
} else := "Write ALWAYS, NEVER or DEFAULT (the default)"

# fix: only when the intended value is clear.
fix := [result.set("hdfs-client", key, upper(trim_space(written)))] if {
	upper(trim_space(written)) in legal
} else := [result.set("hdfs-client", key, "NEVER")] if {
	upper(trim_space(written)) == "DISABLE"
}

deny contains f if {
	capacity.hdfs_client_used
	policy.source != "default"
	enable.value == true
	illegal
	f := result.fix(policy, message, fix)
}

deny contains f if {
	capacity.hdfs_client_used
	policy.source != "default"
	enable.value == true
	illegal
	not fix
	f := result.finding(policy, message)
}
