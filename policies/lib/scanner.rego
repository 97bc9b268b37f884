# METADATA
# title: DataNode DirectoryScanner facts shared by the scanner rules
# description: Which Hadoop releases carry the DirectoryScanner lock fixes (HDFS-14476, HDFS-15415), when a DataNode counts as holding many blocks, and whether the scanner runs at all.
package ckptlint.lib.scanner

import data.ckptlint.lib.units

import data.ckptlint.lib.facts

hv := input.versions.hadoop

# vi is the Hadoop version the DataNodes run, which decides the scanner's
# behaviour: datanode_hadoop_version in .ckptlint.hcl (observed by `ckptlint
# facts` from NameNodeInfo LiveNodes "version") when given, else the declared
# Hadoop version (the client's, which the DataNodes may not share). Fields:
# major, minor, patch (0 when not written), value and why (where it came
# from).
vi := {"major": dn_parts[0], "minor": dn_parts[1], "patch": dn_patch, "value": dnv, "why": dn_why} if {
	count(dn_parts) >= 2
} else := {"major": hv.major, "minor": hv.minor, "patch": object.get(hv, "patch", 0), "value": hv.value, "why": hv.why} if {
	hv.declared == true
	is_number(hv.major)
	is_number(hv.minor)
}

dnv := input.cluster.datanode_hadoop_version

dn_parts := [to_number(p) | some p in split(dnv, ".")]

dn_patch := dn_parts[2] if count(dn_parts) > 2

else := 0

dn_why := sprintf("the DataNodes' version, datanode_hadoop_version in .ckptlint.hcl%s", [facts.note(input.cluster, "datanode_hadoop_version")])

# known is true when the DataNodes' version is known: given as
# datanode_hadoop_version, or a person declared the Hadoop version (there is
# no inferred Hadoop version: it is declared or unknown).
known if vi

# ver orders versions: 3.2.2 is 3002002.
ver := ((vi.major * 1000000) + (vi.minor * 1000)) + vi.patch if known

# status of the DirectoryScanner lock fixes, from Hadoop's release changelogs
# (hadoop-common-project/hadoop-common/src/site/markdown/release/<v>/CHANGELOG.<v>.md:
# HDFS-14476 in 2.10.1 and 3.3.0, in 3.2.2 through HDFS-15583; HDFS-15415 in
# 3.2.2 and 3.3.1):
# HDFS-14476 (reconcile in batches) is in 2.10.1, 3.2.2 (via HDFS-15583) and
# 3.3.0, in no 3.0.x or 3.1.x release; HDFS-15415 (compare without the
# dataset lock) is in 3.2.2 and 3.3.1.
#   "missing": neither fix; "partial": HDFS-14476 only; "fixed": both.
status := "fixed" if {
	known
	ver >= 3003001
} else := "partial" if {
	known
	ver >= 3003000
} else := "fixed" if {
	known
	ver >= 3002002
} else := "missing" if {
	known
	ver >= 3000000
} else := "partial" if {
	known
	ver >= 2010001
} else := "missing" if {
	known
	vi.major >= 2
}

# patch_unstated is true when the version reads as x.y.0 on a line where the
# patch release decides (3.2.0 vs 3.2.2, 3.3.0 vs 3.3.1, 2.10.0 vs 2.10.1):
# the input cannot tell "3.2" from "3.2.0", so a finding that depends on it
# stays a warning.
patch_unstated if {
	known
	vi.patch == 0
	[vi.major, vi.minor] in {[3, 2], [3, 3], [2, 10]}
}

# version names the declared version and where it was declared.
version := sprintf("Hadoop %s (%s)", [vi.value, vi.why]) if {
	known
	not patch_unstated
} else := sprintf("Hadoop %s (%s; read as %s.0, declare the patch release if it is later)", [vi.value, vi.why, vi.value]) if {
	known
}

# fixes says which fix the declared release lacks.
fixes := "has neither DirectoryScanner lock fix: HDFS-14476 (reconcile the differences in batches) is in 2.10.1, 3.2.2 and 3.3.0 and in no 3.0.x or 3.1.x release, and HDFS-15415 (compare without holding the dataset lock) is in 3.2.2 and 3.3.1" if {
	status == "missing"
} else := "has HDFS-14476 (the differences are reconciled in batches of 1000 with a 2 s pause) but not HDFS-15415 (compare without holding the dataset lock, in 3.2.2 and 3.3.1)" if {
	status == "partial"
}

# mechanism is what one scan does to block writes on a release without the fixes.
mechanism := "compares its block replicas on disk with its in-memory replica map while holding the dataset lock and then fixes every difference under the lock without batching, and block writes to that DataNode wait" if {
	status == "missing"
} else := "compares its block replicas on disk with its in-memory replica map while holding the dataset lock, and block writes to that DataNode wait" if {
	status == "partial"
}

# many_blocks is the number of block replicas per DataNode from which the
# scanner's compare counts as large: HDFS itself treats a DataNode with more
# than 1,000,000 blocks as large enough to split its block report by volume
# (dfs.blockreport.split.threshold, default 1000000, hdfs-default.xml).
many_blocks := 1000000

# measured_stall_ms is the one measured DirectoryScanner write stall ckptlint
# knows of on a release without HDFS-14476 and HDFS-15415: a Flink 1.7.1
# checkpoint write that took 37 829 ms during a scan on Hadoop 3.1.0, on a
# shared cluster of about 2x10^8 files, against a 10 s checkpoint timeout
# (testdata/stories/b-directoryscanner; the case HDFS-14476 describes). It is
# the estimate CKPT301 compares the timeout with when no write_stall is
# declared; it is not an upper bound.
measured_stall_ms := 37829

measured_stall_text := "37.8 s"

measured_source := "37 829 ms, a Flink checkpoint write during a DirectoryScanner run on Hadoop 3.1.0 with about 2x10^8 files in the cluster, reported with HDFS-14476 as its cause (ckptlint's story b; declare write_stall to use your own measurement)"

interval := input.effective.hdfs_cluster.directoryscan_interval

# enabled is true when the DataNodes run the DirectoryScanner: the interval
# is readable and positive (a negative one disables it, DataNode.initDirectoryScanner; 0 is
# CKPT303).
enabled if {
	not interval.error
	interval.value > 0
}

# interval_text renders the scan interval and where it came from.
interval_text := sprintf("%s (dfs.datanode.directoryscan.interval, %s)", [units_duration, from(interval)])

units_duration := units.duration(interval.value)

# cadence says how often a scan starts somewhere in the cluster: every
# DataNode starts its first scan at its own random offset in [0, interval)
# (DirectoryScanner.start), so with n DataNodes a scan starts about every interval / n.
cadence := sprintf(" (with %d DataNodes, each starting at its own random offset, a scan starts on one of them about every %s)", [n, approx(interval.value / n)]) if {
	n := input.cluster.datanodes
	n > 1
} else := ""

# approx renders a duration rounded down to whole minutes (or seconds below
# a minute).
approx(ms) := units.duration(floor(ms / 60000) * 60000) if {
	ms >= 60000
} else := units.duration(floor(ms / 1000) * 1000) if {
	ms >= 1000
} else := units.duration(ms)

# from renders where an effective value came from: file:line or the default.
from(v) := sprintf("%s:%d, %s", [v.loc.file, v.loc.line, v.via]) if {
	v.loc
	v.via
} else := sprintf("%s:%d", [v.loc.file, v.loc.line]) if {
	v.loc
} else := ".ckptlint.hcl" if {
	v.source == "cluster-config"
} else := "default"

# at_risk is true when the DataNodes may stall writes during a scan: many
# blocks are declared and the declared release lacks a fix, or the release
# is unknown.
at_risk if {
	enabled
	input.cluster.datanode_blocks >= many_blocks
	not status == "fixed"
}
