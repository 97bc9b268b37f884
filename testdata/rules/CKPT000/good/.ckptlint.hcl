# The files of bad/, mended: each parses, so every set is linted.
flink_version  = "1.20"
hadoop_version = "3.3.6"
