# METADATA
# title: Checkpoint timing helpers
# description: Facts the checkpoint timing rules (CKPT2xx) share - where a value came from, the interval Flink really uses, round durations for fixes, and the HDFS error a writer sees when its chk-N directory was deleted.
package ckptlint.lib.timing

import data.ckptlint.lib.flink
import data.ckptlint.lib.units

cp := input.effective.checkpointing

interval := cp.interval

timeout := cp.timeout

min_pause := cp.min_pause

max_concurrent := cp.max_concurrent

tolerable := cp.tolerable_failed

# readable is true for a value Flink can read: a number, and no parse error
# (a value with an error is reported by CKPT207; other rules skip it).
readable(v) if {
	is_number(v.value)
	not v.error
}

# origin says where an effective value came from: "file:line" or Flink's default.
origin(v) := sprintf("%s:%d", [v.loc.file, v.loc.line]) if {
	v.loc
} else := "Flink's default"

# describe renders "key value (origin)".
describe(v) := sprintf("%s %s (%s)", [v.key, v.display, origin(v)])

# brief renders a checkpointing value without the execution.checkpointing.
# prefix, for lists of related values: "interval 5 s (conf/flink-conf.yaml:8)".
brief(v) := sprintf("%s %s (%s)", [trim_prefix(v.key, "execution.checkpointing."), v.display, origin(v)])

# effective_interval is the interval the CheckpointCoordinator schedules
# with: max(interval, min-pause) (Flink 1.20 CheckpointCoordinator.java L316-329).
# Computed in Go as input.derived.effective_interval, derived here without it.
effective_interval := input.derived.effective_interval if {
	input.derived
} else := max([interval.value, min_pause.value]) if {
	readable(interval)
	readable(min_pause)
} else := interval.value

# round_up is the smallest round duration (ms) that is at least ms: what a
# fix proposes, so the written value reads like one a person would choose.
_ladder := [
	1000, 2000, 5000, 10000, 15000, 20000, 30000,
	60000, 120000, 180000, 300000, 600000, 900000, 1200000, 1800000,
	3600000, 7200000, 10800000, 21600000, 43200000, 86400000,
]

round_up(ms) := min([r | some r in _ladder; r >= ms]) if {
	ms <= 86400000
} else := ceil(ms / 3600000) * 3600000

# flink_duration renders ms in Flink's Duration syntax ("2 min", "90 s"):
# units.duration only uses d, h, min, s and ms, which every Flink version reads.
flink_duration(ms) := units.duration(ms)

# chk_path is the checkpoint directory as the NameNode names it (no scheme or
# authority) with the <job-id>/chk-N level Flink creates under it.
chk_path := sprintf("%s/<job-id>/chk-N/…", [_dir_path]) if {
	not cp.create_subdir.value == false
} else := sprintf("%s/chk-N/…", [_dir_path])

# chk_uri is the same directory as Flink names it in TaskManager errors.
chk_uri := sprintf("%s/<job-id>/chk-N/…", [trim_suffix(flink.dir.value, "/")]) if {
	not cp.create_subdir.value == false
} else := sprintf("%s/chk-N/…", [trim_suffix(flink.dir.value, "/")])

_dir_path := trim_suffix(regex.replace(flink.dir.value, `^[A-Za-z][A-Za-z0-9+.-]*://[^/]*`, ""), "/") if {
	flink.dir.value
} else := "<checkpoint-dir>"

hadoop_major := input.versions.hadoop.major if {
	is_number(input.versions.hadoop.major)
	input.versions.hadoop.major > 0
}

_hadoop2 := sprintf(`LeaseExpiredException: No lease on %s (inode …): File does not exist.`, [chk_path])

_hadoop3 := sprintf(`FileNotFoundException: File does not exist: %s (inode …)`, [chk_path])

# lease_error is what the NameNode answers a writer whose file (or its chk-N
# directory) was deleted, in the wording of the cluster's Hadoop line
# (Hadoop 3.4.1 FSNamesystem.java L3174-3188; Hadoop 2.6.5 FSNamesystem.java
# L3554-3564); both wordings when the Hadoop version is unknown.
lease_error := sprintf(`"%s" (Hadoop %s)`, [_hadoop2, input.versions.hadoop.value]) if {
	hadoop_major == 2
} else := sprintf(`"%s" (Hadoop %s)`, [_hadoop3, input.versions.hadoop.value]) if {
	hadoop_major >= 3
} else := sprintf(`"%s" on Hadoop 2, "%s" on Hadoop 3`, [_hadoop2, _hadoop3])

# expired is Flink's log line for a checkpoint aborted by the timeout
# (Flink 1.20 CheckpointCoordinator.java L2327-2352).
expired := `"Checkpoint N of job <job-id> expired before completing."`

# tolerance_failure is Flink's job failure once tolerable-failed-checkpoints is exceeded.
tolerance_failure := `"Exceeded checkpoint tolerable failure threshold."`

# on_hdfs_checkpointing: periodic checkpoints written to HDFS.
on_hdfs_checkpointing if {
	flink.checkpointing
	flink.on_hdfs
}
