# METADATA
# title: DataNode DirectoryScanner lock stall outlasts the checkpoint timeout
# description: |
#   On Hadoop releases without HDFS-14476 (before 2.10.1, every 3.0.x and 3.1.x,
#   3.2.0 and 3.2.1) the DataNode DirectoryScanner compares every block replica on
#   disk with the DataNode's in-memory replica map while holding the dataset lock,
#   then fixes each difference under the lock, once per
#   dfs.datanode.directoryscan.interval (6 hours by default). On DataNodes that
#   hold millions of block replicas, block writes wait for the whole compare: a
#   checkpoint whose files are written during a scan expires after
#   execution.checkpointing.timeout and, with no tolerable checkpoint failures,
#   fails the job. The rule compares the write stall declared in .ckptlint.hcl
#   (write_stall) with the checkpoint timeout: error when the stall reaches the
#   timeout, warning with less than 2x headroom or on a release that has only
#   HDFS-14476. Without a declared stall, a release with neither fix, at least
#   1,000,000 block replicas per DataNode and a checkpoint timeout below the
#   37.8 s write stall measured on such a release (Hadoop 3.1.0, a cluster of
#   about 2x10^8 files, ckptlint's story b) is an info with that estimate: the
#   stall of this cluster is the number that decides it, and the info says to
#   measure and declare it; otherwise an info names the missing fact (stall,
#   block count or Hadoop version). The version alone is never more than an info. Fix by upgrading HDFS to 3.2.2, 3.3.1 or later;
#   until then raise the checkpoint timeout well above the stall, tolerate a
#   failed checkpoint, and make scans rarer with a larger
#   dfs.datanode.directoryscan.interval.
# related_resources:
#   - ref: https://issues.apache.org/jira/browse/HDFS-14476
#     description: "HDFS-14476: lock too long when fix inconsistent blocks between disk and in-memory"
#   - ref: https://issues.apache.org/jira/browse/HDFS-15415
#     description: "HDFS-15415: Reduce locking in Datanode DirectoryScanner"
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.1.3/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/DirectoryScanner.java
#     description: DirectoryScanner.scan and reconcile in 3.1.3, the compare under the dataset lock
#   - ref: https://nightlies.apache.org/flink/flink-docs-release-1.20/docs/dev/datastream/fault-tolerance/checkpointing/
#     description: checkpoint timeout and tolerable checkpoint failures
# custom:
#   id: CKPT301
#   name: directoryscan-lock-stall
#   severity: error
#   fixable: false
package ckptlint.rules.scanner.scan_lock_stall

import data.ckptlint.lib.flink
import data.ckptlint.lib.result
import data.ckptlint.lib.scanner
import data.ckptlint.lib.units

timeout := input.effective.checkpointing.timeout

tolerable := input.effective.checkpointing.tolerable_failed

blocks := input.cluster.datanode_blocks

stall := input.cluster.write_stall_ms

at := timeout if timeout.set

else := null

# applies: checkpoints are written to HDFS and the DataNodes run the scanner.
applies if {
	flink.checkpointing
	flink.on_hdfs
	scanner.enabled
	is_number(timeout.value)
}

# strict: the declared release certainly has neither fix.
strict if {
	scanner.status == "missing"
	not scanner.patch_unstated
}

affected if scanner.status in {"missing", "partial"}

many if blocks >= scanner.many_blocks

timeout_text := sprintf("execution.checkpointing.timeout %s (%s)", [units.duration(timeout.value), scanner.from(timeout)])

stall_text := sprintf("the declared write stall of %s (write_stall in .ckptlint.hcl)", [units.duration(stall)])

scan_text := sprintf(
	"%s %s. Every %s each DataNode (%d block replicas, datanode_blocks in .ckptlint.hcl) %s%s",
	[scanner.version, scanner.fixes, scanner.interval_text, blocks, scanner.mechanism, scanner.cadence],
)

expiry := sprintf(
	"so a checkpoint whose files are written during a scan expires (\"Checkpoint <id> of job <job> expired before completing.\")%s",
	[tolerable_text],
)

tolerable_text := ", and with execution.checkpointing.tolerable-failed-checkpoints 0 the first expiry fails the job (\"Exceeded checkpoint tolerable failure threshold.\")" if {
	tolerable.value == 0
} else := sprintf(
	"; execution.checkpointing.tolerable-failed-checkpoints %d lets the job survive %d consecutive failed checkpoint(s), but every checkpoint during a scan is lost",
	[tolerable.value, tolerable.value],
)

# proposal: a timeout of at least three times the stall, in whole minutes (the
# same margin CKPT201 asks for: a checkpoint that meets a full stall still needs
# time for its own writes, and a measured stall is not an upper bound).
proposal := units.duration(ceil((3 * stall) / 60000) * 60000)

tolerable_advice := ", set execution.checkpointing.tolerable-failed-checkpoints to at least 1" if {
	tolerable.value == 0
} else := ""

advice := sprintf(
	"Upgrade HDFS to 3.2.2, 3.3.1 or later; until then raise execution.checkpointing.timeout to at least 3x the stall (%s)%s, and make scans rarer with a larger dfs.datanode.directoryscan.interval on the DataNodes (a negative value turns the scanner and its disk/memory consistency check off)",
	[proposal, tolerable_advice],
)

stall_reaches_timeout := result.msg(
	sprintf("The %s DirectoryScanner stall on DataNodes with %d replicas reaches the %s checkpoint timeout, so checkpoints during a scan expire.", [units.duration(stall), blocks, units.duration(timeout.value)]),
	sprintf("%s; %s is at least %s, %s. %s", [scan_text, stall_text, timeout_text, expiry, advice]),
)

little_headroom := result.msg(
	sprintf("The %s DirectoryScanner stall leaves less than 2x headroom below the %s checkpoint timeout, so a longer scan expires checkpoints.", [units.duration(stall), units.duration(timeout.value)]),
	sprintf(
		"%s; %s leaves less than 2x headroom below %s: a scan over more replicas or on slower disks outlasts the timeout, %s. %s",
		[scan_text, stall_text, timeout_text, expiry, advice],
	),
)

measure := "Measure the longest checkpoint write while a scan runs (the DataNode logs \"BlockPool <id> Total blocks: ...\" after each scan) and declare it as write_stall in the cluster block of .ckptlint.hcl so ckptlint can compare it with the timeout"

# The declared release has neither fix and the declared stall reaches the timeout.
deny contains f if {
	applies
	strict
	many
	stall >= timeout.value
	f := result.finding(at, stall_reaches_timeout)
}

# Same, on a release with only HDFS-14476 or whose patch release is not stated.
deny contains f if {
	applies
	affected
	not strict
	many
	stall >= timeout.value
	f := result.warning(at, stall_reaches_timeout)
}

# The declared stall is below the timeout but less than half of it is spare.
deny contains f if {
	applies
	affected
	many
	stall < timeout.value
	stall * 2 > timeout.value
	f := result.warning(at, little_headroom)
}

# No stall declared, the declared release certainly has neither fix, and the
# checkpoint timeout is below the stall measured on such a release: an info
# with that measurement as the estimate, since the stall of this cluster,
# the number that decides it, is not given (issue 23: a warning needs the
# evidence, and another cluster's measurement is none).
deny contains f if {
	applies
	strict
	many
	not stall
	timeout.value < scanner.measured_stall_ms
	f := result.info(at, result.msg(
		sprintf("No write stall is declared, and the %s checkpoint timeout is below the %s DirectoryScanner stall measured on unpatched releases.", [units.duration(timeout.value), scanner.measured_stall_text]),
		sprintf(
			"%s; no write stall is declared, and %s is below the %s write stall measured on an unpatched release (%s), %s. %s. %s",
			[scan_text, timeout_text, scanner.measured_stall_text, scanner.measured_source, expiry, estimate_advice, measure],
		),
	))
}

estimate_advice := sprintf(
	"Upgrade HDFS to 3.2.2, 3.3.1 or later; until then raise execution.checkpointing.timeout to at least 3x that stall (%s)%s, and make scans rarer with a larger dfs.datanode.directoryscan.interval on the DataNodes",
	[units.duration(ceil((3 * scanner.measured_stall_ms) / 60000) * 60000), tolerable_advice],
)

# No stall declared otherwise: say what to measure.
deny contains f if {
	applies
	affected
	many
	not stall
	not stall_estimated
	f := result.info(at, result.msg(
		sprintf("DataNodes with %d replicas stall writes during DirectoryScanner runs; declare write_stall to compare it with the %s checkpoint timeout.", [blocks, units.duration(timeout.value)]),
		sprintf("%s; no write stall is declared to compare with %s. %s", [scan_text, timeout_text, measure]),
	))
}

stall_estimated if {
	strict
	timeout.value < scanner.measured_stall_ms
}

# Many blocks declared, Hadoop version unknown.
deny contains f if {
	applies
	not scanner.known
	many
	f := result.info(at, result.msg(
		sprintf("%d block replicas per DataNode are declared but no Hadoop version, so ckptlint cannot tell whether DirectoryScanner runs stall writes.", [blocks]),
		sprintf(
			"%d block replicas per DataNode are declared (datanode_blocks in .ckptlint.hcl) but no Hadoop version: on releases without HDFS-14476 (before 2.10.1, every 3.0.x and 3.1.x, 3.2.0 and 3.2.1) the DataNode DirectoryScanner compares all of them with the in-memory replica map under the dataset lock every %s, and block writes wait; declare the DataNodes' version (datanode_hadoop_version, or hadoop_version) in .ckptlint.hcl so ckptlint can check this against %s",
			[blocks, scanner.interval_text, timeout_text],
		),
	))
}

# A stall near the timeout on an affected release, block count unknown.
deny contains f if {
	applies
	affected
	not blocks
	stall * 2 > timeout.value
	f := result.info(at, result.msg(
		sprintf("The %s write stall is close to the %s checkpoint timeout; declare datanode_blocks to tell whether the DirectoryScanner explains it.", [units.duration(stall), units.duration(timeout.value)]),
		sprintf(
			"%s %s, and %s is close to or above %s; declare datanode_blocks (block replicas per DataNode, the \"Total blocks\" figure the DataNode logs after each DirectoryScanner run) in the cluster block of .ckptlint.hcl so ckptlint can tell whether the scanner explains the stall",
			[scanner.version, scanner.fixes, stall_text, timeout_text],
		),
	))
}

# Only the version is known: say which facts would let ckptlint judge it.
deny contains f if {
	applies
	affected
	not blocks
	not stall
	f := result.info(at, result.msg(
		"This HDFS release's DirectoryScanner can stall checkpoint writes; declare datanode_blocks (and write_stall) so ckptlint can judge it.",
		sprintf(
			"%s %s; whether a scan stalls checkpoint writes for longer than %s depends on how many block replicas each DataNode holds: declare datanode_blocks (the \"Total blocks\" figure the DataNode logs after each DirectoryScanner run) and, if you measured it, write_stall in the cluster block of .ckptlint.hcl",
			[scanner.version, scanner.fixes, timeout_text],
		),
	))
}
