# METADATA
# title: DirectoryScanner throttle value that does not throttle
# description: |
#   dfs.datanode.directoryscan.throttle.limit.ms.per.sec is the number of
#   milliseconds per second each DirectoryScanner report compiler thread may run
#   while it walks the block files of a volume. Only 1 to 999 limit the threads:
#   1000 turns throttling off, and hdfs-default.xml says only 1 to 1000 are valid
#   and that an invalid value disables the throttle with an error in the log
#   (Hadoop 3.1 logs an ERROR for a value above 1000 or at most 0 and uses 1000;
#   Hadoop 3.4.1 replaces a value of 1000 or more with -1 and throttles only
#   values above 0). A value that is not a plain integer cannot be read at all,
#   and the DataNode fails when it creates the scanner. The rule warns about a
#   value above 1000 (or at most 0 before Hadoop 3.4), reports an unreadable
#   value as an error, and notes an explicit "off" (1000) when the DataNodes are
#   declared to hold many block replicas. Set a value between 1 and 999 on the
#   DataNodes to rate-limit the disk walk; it does not shorten the dataset-lock
#   hold that stalls writes on releases without HDFS-14476 (CKPT301).
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: hdfs-default.xml, dfs.datanode.directoryscan.throttle.limit.ms.per.sec
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/DirectoryScanner.java
#     description: how the DataNode reads and applies the throttle
#   - ref: https://issues.apache.org/jira/browse/HDFS-8873
#     description: "HDFS-8873: Allow the directoryScanner to be rate-limited"
#   - ref: https://issues.apache.org/jira/browse/HDFS-16347
#     description: "HDFS-16347: Fix directory scan throttle default value"
# custom:
#   id: CKPT302
#   name: directoryscan-throttle-not-throttling
#   severity: warning
#   fixable: false
package ckptlint.rules.scanner.throttle

import data.ckptlint.lib.result
import data.ckptlint.lib.scanner

key := "dfs.datanode.directoryscan.throttle.limit.ms.per.sec"

throttle := input.effective.hdfs_cluster.directoryscan_throttle

# The throttle is read where the DataNode creates the DirectoryScanner: only
# when the scanner is enabled (a readable interval >= 0; 0 is CKPT303).
read if {
	throttle.source == "file"
	interval := input.effective.hdfs_cluster.directoryscan_interval
	not interval.error
	interval.value >= 0
}

v := throttle.value

# new_release: Hadoop 3.4.1 or later, where -1 is the default and any value
# <= 0 means "off" (Hadoop 3.4.1 DirectoryScanner.java L297-310; HDFS-16347).
new_release if scanner.ver >= 3004001

behaviour := sprintf("Hadoop %s replaces a value of 1000 or more with -1, logging WARN \"%s set to value above 1000 ms/sec. Assuming default value of -1\", and throttles only values above 0", [scanner.vi.value, key]) if {
	new_release
	v >= 1000
} else := sprintf("Hadoop %s logs an ERROR for a value above 1000 or at most 0 and uses 1000, which turns throttling off", [scanner.vi.value]) if {
	scanner.known
	scanner.vi.major == 3
	scanner.vi.minor == 1
} else := "hdfs-default.xml says only 1 to 1000 are valid and that an invalid value disables the throttle and logs an error"

where := sprintf("%s:%d", [throttle.loc.file, throttle.loc.line])

meaning := "the value is the milliseconds per second each report compiler thread may spend walking a volume's block files, so only 1 to 999 limit the threads and 1000 means no limit"

full_speed := sprintf("the compiler threads then walk every block file on every volume at full speed on each scan, every %s", [scanner.interval_text])

limit := "Set a value between 1 and 999 on the DataNodes to rate-limit the disk walk (500 lets each thread run half of every second)"

not_the_lock := "the throttle does not shorten the dataset-lock hold that stalls writes on releases without HDFS-14476 (CKPT301)"

advice := sprintf("%s, or 1000 to state that throttling is off; %s", [limit, not_the_lock])

# Unreadable: not an integer.
deny contains f if {
	read
	throttle.error
	f := object.union(
		result.finding(throttle, result.msg(
			sprintf("%s %q cannot be read, so the DataNode fails when it starts the DirectoryScanner.", [key, result.short(trim_space(throttle.raw))]),
			sprintf(
				"%s %q (%s) cannot be read: %s. The DataNode reads it as an integer when it creates the DirectoryScanner, which throws NumberFormatException for this value (derived from code); DataNode.initDirectoryScanner does not catch it, so the DataNode fails when it starts the DirectoryScanner. Write a plain number of milliseconds between 1 and 999, or 1000 for no throttling",
				[key, throttle.raw, where, throttle.error],
			),
		)),
		{"severity": "error"},
	)
}

# Above 1000: not a valid limit on any release.
deny contains f if {
	read
	not throttle.error
	v > 1000
	f := result.finding(throttle, result.msg(
		sprintf("%s %d does not throttle the DirectoryScanner, so its scans run at full speed.", [key, v]),
		sprintf("%s %d (%s) does not throttle the DirectoryScanner: %s; %s; %s. %s", [key, v, where, meaning, behaviour, full_speed, advice]),
	))
}

# At most 0: invalid before Hadoop 3.4.1, the code's own "off" from 3.4.1.
deny contains f if {
	read
	not throttle.error
	v <= 0
	not new_release
	f := result.finding(throttle, result.msg(
		sprintf("%s %d does not throttle the DirectoryScanner, so its scans run at full speed.", [key, v]),
		sprintf("%s %d (%s) does not throttle the DirectoryScanner: %s; %s; %s. %s", [key, v, where, meaning, behaviour, full_speed, advice]),
	))
}

# An explicit "off" on DataNodes declared to hold many block replicas.
deny contains f if {
	read
	not throttle.error
	off
	scanner.at_risk
	f := result.info(throttle, result.msg(
		sprintf("%s %d turns DirectoryScanner throttling off, so scans of %d replicas a DataNode run at full speed.", [key, v, input.cluster.datanode_blocks]),
		sprintf(
			"%s %d (%s) turns DirectoryScanner throttling off on DataNodes with %d block replicas each (datanode_blocks in .ckptlint.hcl): %s. %s if the scan's disk load matters; %s",
			[key, v, where, input.cluster.datanode_blocks, full_speed, limit, not_the_lock],
		),
	))
}

off if v == 1000

off if {
	v <= 0
	new_release
}
