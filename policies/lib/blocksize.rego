# METADATA
# title: Block-size helpers
# description: Shared derivations of the blocksize rules (CKPT1xx) - where a Hadoop value came from, Hadoop size spellings, and the fix operation that sets the client block size.
package ckptlint.lib.blocksize

import data.ckptlint.lib.flink

# client, minimum and checksum are the effective values the HDFS client and
# the NameNode use (typed: bytes).
client := input.effective.hdfs_client.blocksize

minimum := input.effective.hdfs_cluster.min_block_size

checksum := input.effective.hdfs_client.bytes_per_checksum

# file_cap is the size one checkpoint or savepoint file must be able to reach
# (CKPT105 warns below it): 16 GiB.
file_cap := 17179869184

# headroom is how many times the checkpoint files in flight per DataNode a
# recommended dfs.blocksize leaves each DataNode room to schedule: the
# margin `ckptlint generate` aims at (docs/generate.md). CKPT101 warns below
# 2x; 10x leaves room for other writers, for scheduled-block counts released
# late (HDFS-15086) and for growth.
headroom := 10

# ladder is the round block sizes ckptlint recommends from, largest first.
ladder := [134217728, 67108864, 33554432, 16777216, 8388608, 4194304, 2097152, 1048576]

# smallest is the smallest block size ckptlint recommends: the NameNode's
# minimum (dfs.namenode.fs-limits.min-block-size, default 1 MiB) rounded up
# to whole MiB, never below 1 MiB.
smallest := round_up(max([1048576, minimum.value]), 1048576) if is_number(minimum.value)

else := 1048576

# candidates are the ladder sizes the NameNode accepts (CKPT102) and that are
# a multiple of dfs.bytes-per-checksum (CKPT103), plus the smallest, largest
# first (the ladder is in descending order already, so nothing is sorted).
candidates := array.concat(
	[s | some s in ladder; s > smallest; _checksum_ok(s)],
	[smallest | _checksum_ok(smallest)],
)

_checksum_ok(s) if s % _checksum_bytes == 0

# _checksum_bytes is dfs.bytes-per-checksum, Hadoop's default 512 when the
# value is missing or not a positive number (CKPT103/104 report those).
_checksum_bytes := checksum.value if {
	is_number(checksum.value)
	checksum.value > 0
} else := 512

sort_desc(xs) := [x | some i in numbers.range(1, count(xs)); x := sorted[count(xs) - i]] if {
	sorted := sort(xs)
}

# recommend(capacity_of, per_dn) is the largest candidate at which each
# DataNode can schedule headroom x the files in flight; else the largest at
# which it can schedule more than 2x (CKPT101's warning line); else the smallest.
# capacity_of maps every candidate to the blocks one DataNode can schedule.
recommend(capacity_of, per_dn) := ok[0] if {
	ok := [s | some s in candidates; capacity_of[s] >= headroom * per_dn]
	count(ok) > 0
} else := ok[0] if {
	ok := [s | some s in candidates; capacity_of[s] > 2 * per_dn]
	count(ok) > 0
} else := smallest

# source names where an effective value came from, for messages: the file
# and line, and how the deployment brings that file to the processes (via,
# "which the jobmanager and taskmanager services mount at ... and read
# through HADOOP_CONF_DIR ..."); for a default, why no file of the
# repository reaches them when the deployment says so.
source(v) := sprintf("flink.hadoop.%s at %s:%d", [v.key, v.loc.file, v.loc.line]) if {
	v.source == "flink.hadoop"
	v.loc
} else := sprintf("%s:%d, %s", [v.loc.file, v.loc.line, v.via]) if {
	v.loc
	v.via
} else := sprintf("%s:%d", [v.loc.file, v.loc.line]) if {
	v.loc
} else := "the cluster block of .ckptlint.hcl" if {
	v.source == "cluster-config"
} else := sprintf("the Hadoop default: %s", [input.deployed.hadoop_missing]) if {
	input.deployed.hadoop_missing != ""
} else := "the Hadoop default"

# where(loc) renders a raw input location as file:line.
where(loc) := sprintf("%s:%d", [loc.file, loc.line])

# hadoop_size renders n bytes in Hadoop's size syntax (a whole number with at
# most one binary suffix letter), the largest exact unit first: 1m, 977k, 1000.
hadoop_size(n) := sprintf("%dg", [n / 1073741824]) if {
	n != 0
	n % 1073741824 == 0
} else := sprintf("%dm", [n / 1048576]) if {
	n != 0
	n % 1048576 == 0
} else := sprintf("%dk", [n / 1024]) if {
	n != 0
	n % 1024 == 0
} else := sprintf("%d", [n])

# spellings is every canonical way to write n bytes in Hadoop's syntax, lower
# case: "1048576", "1024k", "1m". Comparing a raw value against it tells
# whether two files write the same size without parsing a unit.
spellings(n) := {sprintf("%d", [n])} | {s |
	some u in [["k", 1024], ["m", 1048576], ["g", 1073741824], ["t", 1099511627776], ["p", 1125899906842624], ["e", 1152921504606846976]]
	n % u[1] == 0
	s := sprintf("%d%s", [n / u[1], u[0]])
}

# same_size is true when raw (as written in a file) is a canonical spelling of
# n bytes.
same_size(raw, n) if lower(trim_space(raw)) in spellings(n)

# round_up rounds n up to a positive multiple of m (m > 0).
round_up(n, m) := m if n <= 0

else := n if n % m == 0

else := (n - (n % m)) + m

# client_op is the fix operation that sets Flink's client block size to
# value (Hadoop syntax): in the Flink file when the effective value came from
# flink.hadoop.dfs.blocksize, else where Flink's HDFS client reads it.
client_op(value) := {"op": "set", "target": "flink", "key": input.flink.hadoop_passthrough["dfs.blocksize"].key, "value": value} if {
	client.source == "flink.hadoop"
	input.flink.hadoop_passthrough["dfs.blocksize"]
} else := {"op": "set", "target": "hdfs-client", "key": "dfs.blocksize", "value": value}

# hadoop_hint is the corrected spelling the model proposes for an invalid
# Hadoop size (the `write "..."` advice of the value's error), when it has one.
hadoop_hint(v) := m[1] if {
	not contains(v.raw, ",")
	some m in regex.find_all_string_submatch_n(`write (?:the number of bytes )?"([^"]+)"`, v.error, 1)
}

# writes_hdfs is true when Flink writes checkpoints or savepoints to HDFS.
writes_hdfs if flink.on_hdfs

writes_hdfs if {
	sp := input.effective.checkpointing.savepoint_dir
	sp.set
	_hdfs_path(sp.value)
}

_hdfs_path(p) if startswith(lower(p), "hdfs://")

_hdfs_path(p) if {
	not contains(p, "://")
	startswith(lower(input.effective.hdfs_client.default_fs.value), "hdfs://")
}

# hdfs_dir is the checkpoint directory, else the savepoint directory, that
# is on HDFS: the anchor for findings about a default.
hdfs_dir := flink.dir if flink.on_hdfs

else := input.effective.checkpointing.savepoint_dir if writes_hdfs

# via_text describes how Flink reaches a Hadoop client file (input.hadoop.client[].via).
via_text(via) := "the fs.hdfs.hadoopconf directory" if via == "fs.hdfs.hadoopconf"

else := "HADOOP_CONF_DIR, set by env.hadoop.conf.dir" if via == "env.hadoop.conf.dir"

else := "the deployment's hadoop_conf directory" if via == "deployment"

else := "the Flink configuration directory, taken as HADOOP_CONF_DIR" if via == "same-dir"

else := via

# client_index is the position in Flink's load order of the last client
# resource that is `file` (the position whose value counts).
client_index(file) := max([i | some i, r in input.hadoop.client; r.file == file])

# passthrough_applied is true when flink.hadoop.dfs.blocksize reaches the
# Hadoop configuration (Flink 1.13 or later: FLINK-16005, HadoopUtils.java).
passthrough_applied if {
	input.flink.hadoop_passthrough["dfs.blocksize"]
	_flink_at_least_1_13
}

_flink_at_least_1_13 if input.versions.flink.major > 1

_flink_at_least_1_13 if {
	input.versions.flink.major == 1
	input.versions.flink.minor >= 13
}
