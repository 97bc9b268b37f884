# The tree of bad/ without the leftovers.
flink_version = "1.20"
