# METADATA
# title: DirectoryScanner interval that Hadoop cannot read or that is 0
# description: |
#   The DataNode reads dfs.datanode.directoryscan.interval with
#   Configuration.getTimeDuration in seconds: the value is trimmed and
#   lower-cased, and must be an integer followed by at most one of the suffixes
#   ns, us, ms, s, m, h or d (no suffix means seconds). "6 h" (inner space),
#   "10min" and "1.5h" are not durations: getTimeDuration throws
#   NumberFormatException where the DataNode starts the scanner, which is an
#   error. A value of 0 (also any value below one second, which is truncated to
#   0) is not treated as "off": only a negative value disables the scanner, and
#   the scanner's start computes its first random offset with a bound of 0,
#   which throws (derived from code, so a warning). A negative value disables the
#   scanner and is noted as info: it removes the periodic lock stall (CKPT301)
#   but also the DataNode's disk/memory consistency check. Write an integer with
#   one suffix, e.g. 21600 or 6h (the default).
# related_resources:
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-common-project/hadoop-common/src/main/java/org/apache/hadoop/conf/Configuration.java
#     description: Configuration.getTimeDuration, the accepted syntax
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/DataNode.java
#     description: DataNode.initDirectoryScanner, a negative interval disables the scanner
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/java/org/apache/hadoop/hdfs/server/datanode/DirectoryScanner.java
#     description: DirectoryScanner.start, the random offset of the first scan
#   - ref: https://github.com/apache/hadoop/blob/rel/release-3.4.1/hadoop-hdfs-project/hadoop-hdfs/src/main/resources/hdfs-default.xml
#     description: hdfs-default.xml, dfs.datanode.directoryscan.interval
# custom:
#   id: CKPT303
#   name: directoryscan-interval-invalid
#   severity: error
#   fixable: false
package ckptlint.rules.scanner.interval

import data.ckptlint.lib.result

key := "dfs.datanode.directoryscan.interval"

interval := input.effective.hdfs_cluster.directoryscan_interval

where := sprintf("%s:%d", [interval.loc.file, interval.loc.line])

written if interval.source == "file"

# Not a Hadoop duration.
deny contains f if {
	written
	interval.error
	f := result.finding(interval, result.msg(
		sprintf("%s %q is not a Hadoop time duration, so the DataNode fails when it starts the DirectoryScanner.", [key, result.short(trim_space(interval.raw))]),
		sprintf(
			"%s %q (%s) is not a Hadoop time duration: %s. The DataNode reads it with Configuration.getTimeDuration (trimmed and lower-cased, an integer followed by at most one of ns, us, ms, s, m, h, d; no suffix means seconds), which throws NumberFormatException for this value (derived from code); DataNode.initDirectoryScanner does not catch it, so the DataNode fails when it starts the DirectoryScanner. Write an integer with one suffix, e.g. 21600 or 6h (the default, 6 hours)",
			[key, interval.raw, where, interval.error],
		),
	))
}

# Read as 0 seconds.
deny contains f if {
	written
	not interval.error
	interval.value == 0
	f := result.warning(interval, result.msg(
		sprintf("%s %q is read as 0 seconds, which makes the DirectoryScanner throw when the DataNode starts it.", [key, result.short(trim_space(interval.raw))]),
		sprintf(
			"%s %q (%s) is read as 0 seconds%s: only a negative interval disables the scanner (DataNode.initDirectoryScanner), so the DataNode creates it, and DirectoryScanner.start draws the first scan's offset with ThreadLocalRandom.nextLong(0), which throws IllegalArgumentException (derived from code; no test or report confirms it). Set a positive interval such as 21600 (6 hours, the default), or -1 to disable the scanner",
			[key, interval.raw, where, truncated],
		),
	))
}

truncated := " (getTimeDuration truncates it to whole seconds)" if {
	not regex.match(`^\s*-?0+\s*[sS]?\s*$`, interval.raw)
} else := ""

# Negative: the scanner is off.
deny contains f if {
	written
	not interval.error
	interval.value < 0
	f := result.info(interval, result.msg(
		sprintf("%s %q turns the DirectoryScanner off: no lock stalls, but block differences on disk stay unfixed.", [key, result.short(trim_space(interval.raw))]),
		sprintf(
			"%s %q (%s) disables the DataNode DirectoryScanner (the DataNode logs \"Periodic Directory Tree Verification scan is disabled because verification is turned off by configuration\"): this removes the scanner's periodic dataset-lock stall, but the DataNode no longer compares its block and metadata files on disk with its in-memory replica map, so the differences that scan finds and fixes stay unnoticed. A large positive interval (e.g. 7d) keeps the check and makes the stall rare",
			[key, interval.raw, where],
		),
	))
}
