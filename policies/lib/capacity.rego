# METADATA
# title: Cluster-capacity facts shared by the capacity rules
# description: Whether Flink's HDFS client is in play for a config set, and how to name where a value came from.
package ckptlint.lib.capacity

import data.ckptlint.lib.flink

# hdfs_client_used is true when Flink's HDFS client writes with the client
# settings of this set: a Hadoop-only set, or a Flink configuration whose
# checkpoints, savepoints or HA metadata go to HDFS.
hdfs_client_used if not input.flink

hdfs_client_used if flink.on_hdfs

hdfs_client_used if hdfs_uri(input.effective.checkpointing.savepoint_dir.value)

hdfs_client_used if hdfs_uri(input.effective.ha.storage_dir.value)

hdfs_uri(v) if {
	is_string(v)
	startswith(lower(v), "hdfs://")
}

# from renders where an effective value came from: file:line, .ckptlint.hcl or
# the Flink/Hadoop default.
from(v) := sprintf("%s:%d, %s", [v.loc.file, v.loc.line, v.via]) if {
	v.loc
	v.via
} else := sprintf("%s:%d", [v.loc.file, v.loc.line]) if {
	v.loc
} else := ".ckptlint.hcl" if {
	v.source == "cluster-config"
} else := "default"
